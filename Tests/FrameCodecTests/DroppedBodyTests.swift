import TestSupport
import Testing
@testable import FrameCodec

/// `FrameDecoder.BodyRetention.withinChunk`: a frame whose bytes span many chunks is handed out
/// with its header only, its checksum run over each chunk in place. Whatever the chunking, every
/// output must be the one a decoder that holds bodies gives, and it must never hold more. The
/// split tests drop from one missing byte on (`dropping(fromMissing: 1)`), so that every frame
/// of their short inputs that spans chunks takes the dropping path.
@Suite struct DroppedBodyTests {
    /// The running-checksum layouts (both coverages, both polynomials, a walked layout) and a
    /// layout without a checksum.
    static let formats: [FrameFormat] = RunningChecksumTests.formats + [.fefd]

    /// What must not depend on the retention: an event, or a frame's place, sizes, verdict and header.
    enum Shape: Equatable {
        case frame(offset: UInt64, length: Int, headerLength: Int, payloadLength: Int, crcOK: Bool?, header: [UInt8])
        case event(FrameDecoderOutput)

        init(_ output: FrameDecoderOutput) {
            guard case .frame(let frame) = output else {
                self = .event(output)
                return
            }
            self = .frame(offset: frame.offset, length: frame.length, headerLength: frame.headerLength,
                          payloadLength: frame.payloadLength(from: nil), crcOK: frame.crcOK, header: Array(frame.header))
        }
    }

    /// Decodes `chunks` both ways, expects the same shapes, and returns how many frames held
    /// their header only (each checked to hold exactly it, and nothing of its body).
    static func compare(_ format: FrameFormat, _ chunks: [[UInt8]], _ what: String) -> Int {
        let holding = decodeAll(format, chunks)
        let dropping = decodeAll(format, chunks, bodyRetention: .dropping(fromMissing: 1))
        #expect(dropping.map(Shape.init) == holding.map(Shape.init), "\(format.name): \(what)")
        let headersOnly = dropping.compactMap(\.frame).filter { !$0.holdsBody }
        for frame in headersOnly {
            #expect(frame.bytes.count == frame.headerLength && frame.body.isEmpty && frame.payload(from: nil).isEmpty)
            #expect(frame.droppedByteCount == frame.length - frame.headerLength)
        }
        #expect(holding.allSatisfy { $0.frame?.holdsBody ?? true })
        return headersOnly.count
    }

    @Test(arguments: formats)
    func everySplitGivesTheOutputsOfADecoderThatHoldsBodies(format: FrameFormat) throws {
        let (input, _) = try RunningChecksumTests.stream(format, seed: 0xD20F)
        var dropped = 0
        for split in 0...input.count {
            dropped += Self.compare(format, [Array(input[..<split]), Array(input[split...])], "split at \(split)")
        }
        for first in stride(from: 0, through: input.count, by: 3) {
            for second in stride(from: first, through: input.count, by: 5) {
                dropped += Self.compare(format, [Array(input[..<first]), Array(input[first..<second]), Array(input[second...])],
                                        "splits at \(first), \(second)")
            }
        }
        dropped += Self.compare(format, input.map { [$0] }, "one byte at a time")
        #expect(dropped > 0, "some frames spanned chunks")
    }

    @Test func aDelimiterFormatsFramesAreAlwaysHeldWhole() {
        let input = Array("first\r\nsecond line\nthird\n".utf8)
        var dropped = 0
        for split in 0...input.count {
            dropped += Self.compare(.lines, [Array(input[..<split]), Array(input[split...])], "split at \(split)")
        }
        dropped += Self.compare(.lines, input.map { [$0] }, "one byte at a time")
        #expect(dropped == 0)
    }

    @Test func aLargeFrameInSegmentsHoldsOnlyItsHeaderAndIsNeverCopied() throws {
        let format = TestFormats.h12
        var stream: [UInt8] = []
        var bad: [UInt8] = []
        try FrameEncoder(format: format).encode(body: (0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) }, into: &stream)
        try FrameEncoder(format: format).encode(body: Array(repeating: 0x5A, count: 20_000), into: &bad)
        bad[bad.count - 1] ^= 1
        stream += bad
        var holding = FrameDecoder(format: format)
        var dropping = FrameDecoder(format: format, bodyRetention: .withinChunk)
        var held: [FrameDecoderOutput] = []
        var outputs: [FrameDecoderOutput] = []
        var position = 0
        while position < stream.count {
            let end = min(stream.count, position + 1448)
            stream[position..<end].withUnsafeBytes { chunk in
                holding.process(chunk) { held.append($0) }
                dropping.process(chunk) { outputs.append($0) }
            }
            position = end
            #expect(dropping.streamOffset == UInt64(end))
            #expect(dropping.bufferedByteCount <= holding.bufferedByteCount)
            #expect(dropping.pendingByteCount == holding.bufferedByteCount)
            // A few segments' room at most (one appended, then cut back to the header; the end of
            // the last one kept): no body is assembled.
            #expect(dropping.bufferCapacity <= 8 * 1448)
        }
        #expect(outputs.map(Shape.init) == held.map(Shape.init))
        let frames = outputs.compactMap(\.frame)
        #expect(frames.map(\.crcOK) == [true, false])
        #expect(frames.map(\.length) == [12 + (64 << 10), 12 + 20_000])
        #expect(frames.map(\.holdsBody) == [false, false])
        #expect(frames.map { Array($0.bytes) } == [Array(stream[..<12]), Array(bad[..<12])])
    }

    @Test func aFrameMissingLessThanTheMinimumIsHeldWhole() throws {
        let format = TestFormats.h12
        var frame: [UInt8] = []
        try FrameEncoder(format: format).encode(body: Array(repeating: 0x44, count: 4000), into: &frame)
        for (retention, holdsBody) in [(FrameDecoder.BodyRetention.withinChunk, true), (.dropping(fromMissing: 4000 - 1436), false),
                                       (.dropping(fromMissing: 4000 - 1435), true), (.always, true)] {
            var decoder = FrameDecoder(format: format, bodyRetention: retention)
            var outputs: [FrameDecoderOutput] = []
            for start in stride(from: 0, to: frame.count, by: 1448) {
                decoder.process(Array(frame[start..<min(frame.count, start + 1448)])) { outputs.append($0) }
            }
            #expect(outputs.compactMap(\.frame).map(\.holdsBody) == [holdsBody], "\(retention)")
            #expect(outputs.compactMap(\.frame).map(\.crcOK) == [true])
        }
    }

    @Test func aGapAFinishOrAnAbandonedFrameReportsTheDroppedBytesTruncated() throws {
        let format = TestFormats.h12
        let frames = try [UInt8(0x11), 0x22].map { byte in
            var frame: [UInt8] = []
            try FrameEncoder(format: format).encode(body: Array(repeating: byte, count: 300), into: &frame)
            return frame
        }
        let (first, second) = (frames[0], frames[1])
        for ending in ["gap", "abandon", "finish"] {
            var decoder = FrameDecoder(format: format, bodyRetention: .dropping(fromMissing: 1))
            var outputs: [FrameDecoderOutput] = []
            decoder.process(Array(first[..<40])) { outputs.append($0) }
            decoder.process(Array(first[40..<200])) { outputs.append($0) }
            #expect(decoder.bufferedByteCount == 12)
            #expect(decoder.streamOffset == 200)
            switch ending {
            case "gap": decoder.noteGap(byteCount: 5) { outputs.append($0) }
            case "abandon": decoder.abandonPartialFrame { outputs.append($0) }
            default: decoder.finish { outputs.append($0) }
            }
            #expect(outputs.first == .truncated(offset: 0, byteCount: 200), "after \(ending)")
            let next = decoder.streamOffset
            #expect(next == (ending == "gap" ? 205 : 200))
            decoder.process(Array(second[..<30])) { outputs.append($0) }
            decoder.process(Array(second[30...])) { outputs.append($0) }
            let frames = outputs.compactMap(\.frame)
            #expect(frames.map(\.crcOK) == [true] && frames.map(\.offset) == [next] && frames.map(\.holdsBody) == [false], "after \(ending)")
        }
    }

    @Test func aThrowingReceiverLosesNoOutput() throws {
        struct Stop: Error {}
        let format = TestFormats.h12
        var stream: [UInt8] = [0x01, 0x02]  // garbage: a skip reported with the dropped frame
        try FrameEncoder(format: format).encode(body: Array(repeating: 0x33, count: 3000), into: &stream)
        try FrameEncoder(format: format).encode(body: [1, 2, 3], into: &stream)
        let whole = decodeAll(format, [stream])
        let chunks = stride(from: 0, to: stream.count, by: 1448).map { Array(stream[$0..<min(stream.count, $0 + 1448)]) }
        var decoder = FrameDecoder(format: format, bodyRetention: .dropping(fromMissing: 1))
        var outputs: [FrameDecoderOutput] = []
        for chunk in chunks {
            var thrown = false
            do {
                try decoder.process(chunk) { output in
                    outputs.append(output)
                    thrown = true
                    throw Stop()
                }
            } catch {}
            while thrown {
                thrown = false
                do {
                    try decoder.process([UInt8]()) { output in
                        outputs.append(output)
                        thrown = true
                        throw Stop()
                    }
                } catch {}
            }
        }
        decoder.finish { outputs.append($0) }
        #expect(outputs.map(Shape.init) == whole.map(Shape.init))
    }

    @Test func aFrameWithoutItsBodyKeepsFramesSizeAndSaysHowLongItWas() {
        #expect(MemoryLayout<Frame>.size == 2 * MemoryLayout<UInt64>.size + MemoryLayout<ArraySlice<UInt8>>.size + MemoryLayout<Bool?>.size)
        let header: [UInt8] = [0x55, 0xAA, 1, 2, 0, 0, 0, 100, 9, 9, 9, 9]
        var frame = Frame(offset: 40, header: header[...], droppedByteCount: 100, crcOK: true)
        #expect(!frame.holdsBody && frame.length == 112 && frame.headerLength == 12 && frame.droppedByteCount == 100)
        #expect(frame.body.isEmpty && frame.payload(from: nil).isEmpty && frame.payloadLength(from: nil) == 100)
        #expect(frame.payload(from: 8) == header[8...] && frame.payloadLength(from: 8) == 104)
        frame.headerLength = 4
        #expect(frame.headerLength == 12, "a frame without its body holds exactly its header")
        let held = Frame(offset: 0, bytes: header[...], headerLength: 8, crcOK: nil, trailerLength: 300)
        #expect(held.holdsBody && held.length == 12 && held.droppedByteCount == 0 && held.trailerLength == 127)
        #expect(held.payloadLength(from: nil) == held.payload(from: nil).count)
    }
}
