import TestSupport
import Testing
@testable import FrameCodec

/// `FrameDecoder.BodyRetention.headersOnly`: every frame of a length-field format is handed out
/// with its header only, checksummed in place — inside its chunk, or over each chunk it spans.
/// Whatever the chunking, every output must be the one a decoder that holds bodies gives, and
/// it must never hold more.
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
    /// their header only (each checked to hold exactly it, and nothing of its body): all of a
    /// length-field format's, none of a delimiter format's.
    static func compare(_ format: FrameFormat, _ chunks: [[UInt8]], _ what: String) -> Int {
        let holding = decodeAll(format, chunks)
        let dropping = decodeAll(format, chunks, bodyRetention: .headersOnly)
        #expect(dropping.map(Shape.init) == holding.map(Shape.init), "\(format.name): \(what)")
        // Every dropped body's checksum folded, as a long frame's is, rather than continued.
        let folding = decodeAll(format, chunks, runningChecksumMinimum: 1, bodyRetention: .headersOnly)
        #expect(folding.map(Shape.init) == holding.map(Shape.init), "\(format.name): \(what), folding")
        let frames = dropping.compactMap(\.frame)
        let headersOnly = frames.filter { !$0.holdsBody }
        for frame in headersOnly {
            #expect(frame.bytes.count == frame.headerLength && frame.body.isEmpty && frame.payload(from: nil).isEmpty)
            #expect(frame.droppedByteCount == frame.length - frame.headerLength)
        }
        #expect(headersOnly.count == (format.isDelimited ? 0 : frames.count), "\(format.name): \(what)")
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
        #expect(dropped > 0, "the stream has frames")
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
        var dropping = FrameDecoder(format: format, bodyRetention: .headersOnly)
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
            // A header's room at most: no body byte is copied in.
            #expect(dropping.bufferedByteCount <= 12 && dropping.bufferCapacity <= FrameDecoder.keptHeaderCapacity)
        }
        #expect(outputs.map(Shape.init) == held.map(Shape.init))
        let frames = outputs.compactMap(\.frame)
        #expect(frames.map(\.crcOK) == [true, false])
        #expect(frames.map(\.length) == [12 + (64 << 10), 12 + 20_000])
        #expect(frames.map(\.holdsBody) == [false, false])
        #expect(frames.map { Array($0.bytes) } == [Array(stream[..<12]), Array(bad[..<12])])
    }

    /// Frames inside one chunk hold copies of their headers, checksummed in place; a header
    /// that the chunk's end cuts is the only thing copied in, and the decoder never holds more
    /// than a header between calls.
    @Test func framesInsideAChunkHoldOnlyTheirHeadersAndNoBodyIsCopiedIn() throws {
        let format = TestFormats.h12
        var stream: [UInt8] = []
        var bodies: [[UInt8]] = []
        var random = FuzzRandom(seed: 0x1448)
        for index in 0..<200 {
            let body = (0..<Int.random(in: 0...700, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var frame: [UInt8] = []
            try FrameEncoder(format: format).encode(body: body, into: &frame)
            if index % 7 == 3 { frame[frame.count - 1] ^= 0x80 }  // a bad checksum now and then
            bodies.append(body)
            stream += frame
        }
        var decoder = FrameDecoder(format: format, bodyRetention: .headersOnly)
        var frames: [Frame] = []
        var position = 0
        while position < stream.count {
            let end = min(stream.count, position + 1448)
            stream[position..<end].withUnsafeBytes { chunk in
                decoder.process(chunk) { output in
                    guard case .frame(let frame) = output else {
                        Issue.record("\(output) in a stream of frames only")
                        return
                    }
                    frames.append(frame)
                }
            }
            position = end
            #expect(decoder.bufferedByteCount <= 12)
            #expect(decoder.bufferCapacity <= FrameDecoder.keptHeaderCapacity)
            #expect(decoder.headerScratch.count == 12, "the scratch is a header long")
        }
        #expect(frames.count == bodies.count)
        var offset = 0
        for (index, (frame, body)) in zip(frames, bodies).enumerated() {
            #expect(!frame.holdsBody && frame.offset == UInt64(offset) && frame.length == 12 + body.count)
            #expect(Array(frame.bytes) == Array(stream[offset..<(offset + 12)]))
            #expect(frame.crcOK == (index % 7 != 3))
            offset += frame.length
        }
        let insideOneChunk = frames.filter { $0.offset / 1448 == ($0.offset + UInt64($0.length) - 1) / 1448 }
        #expect(insideOneChunk.count > 50, "most frames lie inside one segment")
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
            var decoder = FrameDecoder(format: format, bodyRetention: .headersOnly)
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

    /// Every output received once, in order, whatever chunk's frame a receiver throws at: one
    /// that spans chunks (after a skip), ones inside a chunk, one whose header a chunk cuts.
    @Test(arguments: [1, 5, 13, 700, 1448])
    func aThrowingReceiverLosesNoOutput(chunkSize: Int) throws {
        struct Stop: Error {}
        let format = TestFormats.h12
        var stream: [UInt8] = [0x01, 0x02]  // garbage: a skip reported with the dropped frame
        try FrameEncoder(format: format).encode(body: Array(repeating: 0x33, count: 3000), into: &stream)
        for length in [3, 0, 40, 9, 500] {
            try FrameEncoder(format: format).encode(body: Array(repeating: UInt8(truncatingIfNeeded: length), count: length), into: &stream)
        }
        stream += [0x55, 0xAA, 0x01]  // a header's start at the end: truncated
        let whole = decodeAll(format, [stream])
        let chunks = stride(from: 0, to: stream.count, by: chunkSize).map { Array(stream[$0..<min(stream.count, $0 + chunkSize)]) }
        var decoder = FrameDecoder(format: format, bodyRetention: .headersOnly)
        var outputs: [FrameDecoderOutput] = []
        for (index, chunk) in chunks.enumerated() {
            var thrown = false
            do {
                let receive = { (output: FrameDecoderOutput) throws in
                    outputs.append(output)
                    thrown = true
                    throw Stop()
                }
                if index % 2 == 0 {
                    try decoder.process(chunk, receive)
                } else {
                    try chunk.withUnsafeBytes { try decoder.process($0, receive) }
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
        #expect(outputs.compactMap(\.frame).count == 6 && outputs.compactMap(\.frame).allSatisfy { !$0.holdsBody })
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
