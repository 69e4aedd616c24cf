import Testing
import WebSocketFraming
@testable import WebSocketFuzzing

/// The WebSocket fuzz case's checker, without compression (zlib is the CLI's): valid cases pass
/// against the real layer, and the checker sees a decoded frame that is not the one written.
struct WebSocketFuzzCaseTests {
    static func makeCase(_ seed: UInt64) throws -> WebSocketFuzzCase {
        try WebSocketFuzzCase(seed: seed, makeDeflater: { nil }, accept: { _ in "unchecked" })
    }

    @Test func casesPassAndBothKindsComeUp() throws {
        var valid = 0, damaged = 0, frames = 0
        for seed in UInt64(0)..<300 {
            let fuzzCase = try Self.makeCase(seed)
            #expect(!fuzzCase.deflate)
            #expect(fuzzCase.run(makeInflater: { nil }) == [], "seed \(seed)")
            if fuzzCase.damage.isEmpty { valid += 1 } else { damaged += 1 }
            frames += fuzzCase.frames[0].count + fuzzCase.frames[1].count
        }
        #expect(valid > 50 && damaged > 50)
        #expect(frames > 1000)
    }

    /// A record that says another payload byte, or one frame more, than the stream holds is a failure.
    @Test func theCheckerSeesWhatDiffers() throws {
        let seed = try #require((UInt64(0)..<300).first { seed in
            let fuzzCase = try? Self.makeCase(seed)
            return fuzzCase?.damage.isEmpty == true && fuzzCase?.frames[0].contains { !$0.payload.isEmpty } == true
        })
        var changed = try Self.makeCase(seed)
        let index = try #require(changed.frames[0].firstIndex { !$0.payload.isEmpty })
        changed.frames[0][index].payload[0] ^= 0x01
        #expect(changed.run(makeInflater: { nil }).contains { $0.hasPrefix("c2s frame \(index): decoded") })
        var longer = try Self.makeCase(seed)
        longer.frames[1].append(longer.frames[0][index])
        #expect(longer.run(makeInflater: { nil }).contains { $0.hasSuffix("s2c frames written, \(longer.frames[1].count - 1) decoded") })
    }
}
