import FrameCodec
import Foundation
import Testing
@testable import FrameDumpCLI

@Suite struct DecodePipelineTests {
    /// Collects what an ``OutputStream`` writes, and how.
    final class Collector {
        var bytes: [UInt8] = []
        var writes = 0
        var failure: Int32 = 0
    }

    /// Runs `inputs` through a JSON Lines pipeline with `format`; returns the output and summary.
    func run(_ inputs: [(StreamID, UInt64, [UInt8])], format: FrameFormat = TestFormats.h12, ends: [StreamID] = [StreamID(rawValue: 0)]) throws -> (String, DecodeSummary) {
        let collector = Collector()
        let output = OutputStream(blockSize: 64) { chunk in
            collector.bytes += chunk
            return 0
        }
        let pipeline = DecodePipeline(format: format, output: output, makeRenderer: { JSONLinesWriter(format: $0, includesPayload: true) }, detected: { _ in })
        for (stream, offset, bytes) in inputs {
            try bytes.withUnsafeBytes { try pipeline.consume(.data(stream, offset: offset, bytes: $0)) }
        }
        for stream in ends { try pipeline.consume(.end(stream)) }
        try pipeline.finish()
        return (String(decoding: collector.bytes, as: UTF8.self), pipeline.summary)
    }

    static let stream: [UInt8] = {
        let encoder = FrameEncoder(format: TestFormats.h12)
        var bytes: [UInt8] = []
        for index in 0..<20 {
            try! encoder.encode(fields: ["cmd": UInt64(index % 4)], body: Array(repeating: UInt8(index), count: index * 3), into: &bytes)
            if index % 7 == 3 { bytes += [0x00, 0x01, 0x02] }
        }
        return bytes + [0x55, 0xAA, 0x01]
    }()

    /// As swift-nio's ByteToMessageDecoderVerifier: one chunk, one byte at a time and uneven
    /// chunks must all render the same.
    @Test func chunkingDoesNotChangeTheOutput() throws {
        let bytes = Self.stream
        let stream = StreamID(rawValue: 0)
        let (whole, summary) = try run([(stream, 0, bytes)])
        let drip = try run(bytes.indices.map { (stream, UInt64($0), [bytes[$0]]) }).0
        var uneven: [(StreamID, UInt64, [UInt8])] = []
        var start = 0, size = 1
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            uneven.append((stream, UInt64(start), Array(bytes[start..<end])))
            start = end
            size = size * 3 % 17 + 1
        }
        #expect(drip == whole)
        #expect(try run(uneven).0 == whole)
        #expect(summary.frames == 20 && summary.skips == 3 && summary.truncations == 1)
    }

    /// Detection copies no more than its window, however large the first input (a 64 MiB dump
    /// used to be copied whole), and the rest of that input is still framed.
    @Test func detectionHoldsAtMostItsWindow() throws {
        let output = OutputStream(blockSize: 1 << 20) { _ in 0 }
        var heldAtDetection: [Int] = []
        var pipeline: DecodePipeline<JSONLinesWriter>!
        pipeline = DecodePipeline(format: nil, output: output, makeRenderer: { JSONLinesWriter(format: $0, includesPayload: false) },
                                  detected: { _ in heldAtDetection.append(pipeline.heldByteCount) })
        var bytes: [UInt8] = []
        let encoder = FrameEncoder(format: TestFormats.h12)
        for _ in 0..<1000 { try encoder.encode(fields: ["cmd": 3], body: Array(repeating: 7, count: 1000), into: &bytes) }
        let stream = StreamID(rawValue: 0)
        // 5 bytes first (not enough to decide), then the rest in one input.
        try bytes.withUnsafeBytes { raw in
            try pipeline.consume(.data(stream, offset: 0, bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(5))))
            #expect(pipeline.heldByteCount == 5)
            try pipeline.consume(.data(stream, offset: 5, bytes: UnsafeRawBufferPointer(rebasing: raw.dropFirst(5))))
        }
        try pipeline.consume(.end(stream))
        try pipeline.finish()
        #expect(heldAtDetection.count == 1)
        #expect(heldAtDetection.allSatisfy { $0 <= DecodePipeline<JSONLinesWriter>.detectionWindow })
        #expect(pipeline.summary.frames == 1000 && pipeline.summary.isClean)
    }

    @Test func dataPastTheEndOfTheStreamIsPrecededByAGap() throws {
        let frame = try FrameEncoder(format: TestFormats.h12).encode(body: [1, 2])
        let stream = StreamID(rawValue: 0)
        let (text, summary) = try run([(stream, 0, frame), (stream, UInt64(frame.count) + 100, frame)])
        #expect(text.contains(#"{"type":"gap","offset":14,"length":100}"#))
        #expect(text.contains(#"{"type":"frame","offset":114,"#))
        #expect(summary.gaps == 1 && summary.frames == 2)
    }

    @Test func bytesAlreadyDeliveredAreFramedOnce() throws {
        let frame = try FrameEncoder(format: TestFormats.h12).encode(body: [1, 2])
        let stream = StreamID(rawValue: 0)
        // The second chunk repeats the last 4 bytes of the first frame, then the next frame.
        let (text, summary) = try run([(stream, 0, frame), (stream, UInt64(frame.count - 4), Array(frame.suffix(4)) + frame)])
        #expect(summary.frames == 2 && summary.isClean)
        #expect(text.contains(#"{"type":"frame","offset":14,"#))
    }

    @Test func streamsAreFramedIndependently() throws {
        let frame = try FrameEncoder(format: TestFormats.h12).encode(body: Array("ab".utf8))
        let a = StreamID(rawValue: 0), b = StreamID(rawValue: 1)
        // Interleave halves of frames from two streams: each decoder sees only its own bytes.
        let (_, summary) = try run([
            (a, 0, Array(frame[..<5])), (b, 0, Array(frame[..<9])), (a, 5, Array(frame[5...])), (b, 9, Array(frame[9...])),
        ], ends: [a, b])
        #expect(summary.frames == 2 && summary.isClean)
    }

    @Test func unendedStreamsAreFinishedAtTheEnd() throws {
        let (text, summary) = try run([(StreamID(rawValue: 3), 0, [0x55, 0xAA])], ends: [])
        #expect(text == #"{"type":"truncated","offset":0,"length":2}"# + "\n")
        #expect(summary.truncations == 1)
    }

    @Test func outputIsWrittenInBlocks() throws {
        let collector = Collector()
        let output = OutputStream(blockSize: 10) { chunk in
            collector.bytes += chunk
            collector.writes += 1
            return 0
        }
        output.write("12345")
        try output.flushIfBlockFull()
        #expect(collector.writes == 0)
        output.write("678901")
        try output.flushIfBlockFull()
        #expect(collector.writes == 1 && collector.bytes.count == 11 && output.buffer.isEmpty)
    }

    @Test func closedPipeAndOtherErrors() {
        let closed = OutputStream(blockSize: 1) { _ in EPIPE }
        closed.write("x")
        #expect(throws: OutputError.closed) { try closed.flush() }
        #expect(closed.buffer.isEmpty)
        let full = OutputStream(blockSize: 1) { _ in ENOSPC }
        full.write("x")
        #expect(throws: OutputError.self) { try full.flush() }
    }
}
