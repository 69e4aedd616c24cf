import FrameCodec
import Foundation
import TestSupport
import Testing

/// Format detection over many streams that fit no preset: it keeps looking in bounded memory
/// (the undecided-bytes budget, 1 MiB), so a valid connection after a megabyte of garbage is
/// still detected and decoded, and every garbage byte is accounted for as a `skip`.
@Suite struct FormatDetectionEndToEndTests {
    static let garbageConnections = 10_500
    static let garbage = Array(String(repeating: "not a frame: plain text that fits no preset layout, ", count: 2).utf8.prefix(100))

    /// LINKTYPE_RAW, no handshakes: 10,500 clients 10.8.K.K:40000 each send 100 bytes of text
    /// (1,050,000 bytes, over the 1 MiB budget), then 10.0.0.1:40000 sends three h12 frames.
    static func capture(frames: [UInt8]) -> [UInt8] {
        var records: [CaptureBytes.Record] = []
        func add(_ source: UInt32, _ payload: [UInt8]) {
            let packet = PacketBuilder.ipv4(source: source, identification: 0, payload: PacketBuilder.tcp(payload: payload))
            records.append(CaptureBytes.Record(seconds: 1_700_000_000, fraction: UInt32(records.count + 1), bytes: packet))
        }
        for index in 0..<garbageConnections { add(0x0A08_0000 | UInt32(index), Array(garbage)) }
        add(0x0A00_0001, frames)
        return CaptureBytes.pcap(linkType: 101, snaplen: 262_144, records: records)
    }

    @Test func aGoodConnectionAfterAMegabyteOfGarbageIsDecoded() throws {
        var frames: [UInt8] = []
        let encoder = FrameEncoder(format: TestFormats.h12)
        for index in 1...3 { try encoder.encode(fields: ["cmd": UInt64(index)], body: Array("frame \(index)".utf8), into: &frames) }
        let path = try CaptureBytes.temporaryFile(Self.capture(frames: frames))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", path])
        #expect(result.status == 2, "the garbage is skipped: bad input, but decoded")
        let lines = try JSONLines.parse(result.stdout)
        let good = lines.filter { $0["src"] as? String == "10.0.0.1:40000" }
        #expect(good.map { $0["type"] as? String } == ["frame", "frame", "frame"])
        #expect(good.compactMap { ($0["fields"] as? [String: Any])?["cmd"] as? Int } == [1, 2, 3])
        // Every garbage byte is in exactly one skip, per stream from offset 0.
        let skips = lines.filter { $0["type"] as? String == "skip" }
        #expect(lines.count == skips.count + 3, "nothing but skips and the three frames")
        var skipped: [String: Int] = [:]
        for skip in skips {
            let source = skip["src"] as? String ?? ""
            #expect(skip["offset"] as? Int == skipped[source, default: 0], "\(source): skips tile the stream")
            skipped[source, default: 0] += skip["length"] as? Int ?? 0
        }
        #expect(skipped.count == Self.garbageConnections)
        #expect(skipped.values.allSatisfy { $0 == Self.garbage.count })
        #expect(result.stderr.contains("detected format h12"), "\(result.stderr)")
        #expect(result.stderr.contains("streams fit no preset format while no stream had shown one"), "\(result.stderr)")
        #expect(!result.stderr.contains("no preset format fits the first bytes of any stream"))
    }

    /// The streams given up were written as skips before the end: the no-format error then
    /// exits 2 (bad input: what was written is not all of the input), not 1.
    @Test func garbageOnlyStillEndsWithTheNoFormatError() throws {
        let path = try CaptureBytes.temporaryFile(Self.capture(frames: Array(Self.garbage)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FrameDumpProcess.run(["decode", "--json", path])
        #expect(result.status == 2)
        #expect(try JSONLines.parse(result.stdout).contains { $0["type"] as? String == "skip" })
        #expect(result.stderr.contains("no preset format fits the first bytes of any stream (first: conn 1 c2s 10.8.0.0:40000"),
                "\(result.stderr)")
    }
}
