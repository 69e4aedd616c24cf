import TestSupport
import Testing
@testable import FrameCodec

/// The checksum of a frame that spans chunks runs forward as each chunk arrives
/// (`FrameDecoder.runningChecksum`): whatever the chunking, every frame's verdict and every
/// event must be those of the whole input in one chunk. The split tests lower the threshold
/// to one byte, so that every frame of their short inputs takes the running path.
@Suite struct RunningChecksumTests {
    /// Checksummed layouts: the fixed-offset fast path with both coverages and both
    /// polynomials, and a walked layout whose checksum field follows a varint.
    static let formats: [FrameFormat] = [
        TestFormats.h12,
        TestFormats.h12(algorithm: .crc32c, coverage: .headerAndBody),
        try! FrameFormat(spec: "magic:u8=0xC0 id:varint len:varint4 crc:crc32/frame"),
    ]

    /// Frames with good and bad checksums (a body byte flipped after encoding), garbage between
    /// them, and a truncated frame at the end. Returns the stream and how many checksums are bad.
    static func stream(_ format: FrameFormat, seed: UInt64) throws -> (bytes: [UInt8], badChecksums: Int) {
        var random = FuzzRandom(seed: seed)
        let encoder = FrameEncoder(format: format)
        var bytes: [UInt8] = []
        var bad = 0
        for index in 0..<6 {
            var frame: [UInt8] = []
            let fields: [String: UInt64] = format.fields.contains { $0.name == "id" } ? ["id": UInt64(index * 90)] : [:]
            try encoder.encode(fields: fields, body: random.bytes(Int.random(in: 0...70, using: &random)), into: &frame)
            if index % 3 == 1, frame.count > format.headerLength {
                frame[frame.count - 1] ^= 0x40
                bad += 1
            }
            bytes += frame
            if index == 2 { bytes += [0x01, 0x02, 0x03] }
        }
        var last: [UInt8] = []
        try encoder.encode(fields: [:], body: random.bytes(30), into: &last)
        return (bytes + last.dropLast(7), bad)
    }

    @Test(arguments: formats)
    func everySplitGivesTheWholeInputsOutputs(format: FrameFormat) throws {
        let (input, bad) = try Self.stream(format, seed: 0xC4C)
        let whole = decodeAll(format, [input])
        let running = 1
        let frames = whole.compactMap(\.frame)
        #expect(frames.count == 6)
        #expect(frames.filter { $0.crcOK == false }.count == bad)
        #expect(frames.filter { $0.crcOK == true }.count == 6 - bad)
        for split in 0...input.count {
            let outputs = decodeAll(format, [Array(input[..<split]), Array(input[split...])], runningChecksumMinimum: running)
            #expect(outputs == whole, "\(format.name): split at \(split)")
        }
        // Three chunks: a middle chunk that neither starts nor ends a frame is only checksummed.
        for first in stride(from: 0, through: input.count, by: 3) {
            for second in stride(from: first, through: input.count, by: 5) {
                let chunks = [Array(input[..<first]), Array(input[first..<second]), Array(input[second...])]
                #expect(decodeAll(format, chunks, runningChecksumMinimum: running) == whole, "\(format.name): splits at \(first), \(second)")
            }
        }
        #expect(decodeAll(format, input.map { [$0] }, runningChecksumMinimum: running) == whole, "\(format.name): one byte at a time")
    }

    @Test func aLargeFramesChecksumRunsForwardOverEachChunkASmallOnesDoesNot() throws {
        let format = TestFormats.h12
        let minimum = FrameDecoder.defaultRunningChecksumMinimum
        var large: [UInt8] = []
        try FrameEncoder(format: format).encode(body: (0..<(minimum + 100)).map { UInt8(truncatingIfNeeded: $0) }, into: &large)
        var decoder = FrameDecoder(format: format)
        var outputs: [FrameDecoderOutput] = []
        decoder.process(Array(large[..<20])) { outputs.append($0) }
        #expect(decoder.checksummedCount == 20, "started over the bytes in hand once the header is read")
        decoder.process(Array(large[20..<5000])) { outputs.append($0) }
        #expect(decoder.checksummedCount == 5000)
        decoder.process(Array(large[5000...])) { outputs.append($0) }
        #expect(decoder.checksummedCount == 0, "used up by the frame it belongs to")
        // A frame that still misses less than the minimum is checksummed once, at its completion.
        var small: [UInt8] = []
        try FrameEncoder(format: format).encode(body: Array(repeating: 0x33, count: minimum - 100), into: &small)
        decoder.process(Array(small[..<20])) { outputs.append($0) }
        #expect(decoder.checksummedCount == 0)
        decoder.process(Array(small[20...])) { outputs.append($0) }
        #expect(outputs.map(\.frame?.crcOK) == [true, true])
        #expect(outputs.map(\.frame?.bytes.count) == [large.count, small.count])
    }

    @Test func aGapOrAnAbandonedFrameDropsTheRunningChecksum() throws {
        let format = TestFormats.h12
        let encoder = FrameEncoder(format: format)
        var first: [UInt8] = []
        try encoder.encode(body: Array(repeating: 0x11, count: 80), into: &first)
        var second: [UInt8] = []
        try encoder.encode(body: Array(repeating: 0x22, count: 80), into: &second)
        for ending in ["gap", "abandon", "finish"] {
            var decoder = FrameDecoder(format: format)
            decoder.runningChecksumMinimum = 1
            var outputs: [FrameDecoderOutput] = []
            decoder.process(Array(first[..<40])) { outputs.append($0) }
            #expect(decoder.checksummedCount == 40)
            switch ending {
            case "gap": decoder.noteGap(byteCount: 5) { outputs.append($0) }
            case "abandon": decoder.abandonPartialFrame { outputs.append($0) }
            default: decoder.finish { outputs.append($0) }
            }
            #expect(decoder.checksummedCount == 0, "after \(ending)")
            // The next frame, at the same buffer position, in two chunks: its own checksum only.
            decoder.process(Array(second[..<30])) { outputs.append($0) }
            decoder.process(Array(second[30...])) { outputs.append($0) }
            #expect(outputs.compactMap(\.frame).map(\.crcOK) == [true], "after \(ending)")
            #expect(outputs.first == .truncated(offset: 0, byteCount: 40), "after \(ending)")
        }
    }
}
