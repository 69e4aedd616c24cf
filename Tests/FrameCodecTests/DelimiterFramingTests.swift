import Testing
import TestSupport
@testable import FrameCodec

/// Delimiter formats: Netty's `DelimiterBasedFrameDecoder` and `LineBasedFrameDecoder` test
/// vectors (netty/netty codec/src/test/java/io/netty/handler/codec/), written as our cases
/// with Netty's expected frames, plus what a capture tool adds: offsets, events, chunking.
@Suite("Delimiter framing")
struct DelimiterFramingTests {
    /// The payloads of the frames `chunks` decode to, as text, and the events between them.
    private func payloads(_ format: FrameFormat, _ chunks: [String], finish: Bool = false) -> [String] {
        let outputs = decodeAll(format, chunks.map { Array($0.utf8) }, finish: finish)
        return outputs.map { output in
            switch output {
            case .frame(let frame): String(decoding: frame.payload(from: format.payloadOffset), as: UTF8.self)
            case .skip(_, let count): "<skip \(count)>"
            case .truncated(_, let count): "<truncated \(count)>"
            default: "<\(output)>"
            }
        }
    }

    private func format(_ spec: String) throws -> FrameFormat { try FrameFormat(spec: spec) }

    // MARK: DelimiterBasedFrameDecoderTest (Delimiters.lineDelimiter() is \r\n, \n)

    @Test func nettyMultipleLinesStrippedDelimiters() throws {
        #expect(payloads(try format("delim=\\r\\n,\\n max=8192"), ["TestLine\r\ng\r\n"]) == ["TestLine", "g"])
    }

    @Test func nettyIncompleteLinesStrippedDelimiters() throws {
        #expect(payloads(try format("delim=\\r\\n,\\n max=8192"), ["Test", "Line\r\ng\r\n"]) == ["TestLine", "g"])
    }

    @Test func nettyMultipleLines() throws {
        #expect(payloads(try format("delim=\\r\\n,\\n max=8192 keepdelim=yes"), ["TestLine\r\ng\r\n"]) == ["TestLine\r\n", "g\r\n"])
    }

    @Test func nettyIncompleteLines() throws {
        #expect(payloads(try format("delim=\\r\\n,\\n max=8192 keepdelim=yes"), ["Test", "Line\r\ng\r\n"]) == ["TestLine\r\n", "g\r\n"])
    }

    @Test func nettyDecode() throws {
        #expect(payloads(try format("delim=\\r\\n,\\n max=8192"), ["first\r\nsecond\nthird"]) == ["first", "second"])
    }

    /// testFailSlowTooLongFrameRecovery: max 1, NUL delimiter; {1, 2}, {0} is too long (one
    /// event), then {'A', 0} gives "A". Twice.
    @Test func nettyFailSlowTooLongFrameRecovery() throws {
        let nul = try format("delim=\\0 max=1")
        let chunks: [[UInt8]] = [[1, 2], [0], [0x41, 0], [1, 2], [0], [0x41, 0]]
        let outputs = decodeAll(nul, chunks)
        #expect(outputs == [
            .skip(offset: 0, byteCount: 3), .frame(Frame(offset: 3, bytes: [0x41, 0][...], headerLength: 0, crcOK: nil, trailerLength: 1)),
            .skip(offset: 5, byteCount: 3), .frame(Frame(offset: 8, bytes: [0x41, 0][...], headerLength: 0, crcOK: nil, trailerLength: 1)),
        ])
    }

    /// testFailFastTooLongFrameRecovery: {1, 2} is already too long; {0, 'A', 0} gives "A".
    @Test func nettyFailFastTooLongFrameRecovery() throws {
        let nul = try format("delim=\\0 max=1")
        #expect(payloads(nul, ["\u{1}\u{2}", "\u{0}A\u{0}", "\u{1}\u{2}", "\u{0}A\u{0}"]) == ["<skip 3>", "A", "<skip 3>", "A"])
    }

    // MARK: LineBasedFrameDecoderTest

    @Test func nettyLineDecodeWithStrip() {
        #expect(payloads(.lines, ["first\r\nsecond\nthird"], finish: true) == ["first", "second", "<truncated 5>"])
    }

    @Test func nettyLineDecodeWithoutStrip() throws {
        #expect(payloads(try format("delim=\\n,\\r\\n keepdelim=yes"), ["first\r\nsecond\nthird"]) == ["first\r\n", "second\n"])
    }

    /// testTooLongLine1: max 16; the 20-byte line is one event, then "first\n".
    @Test func nettyTooLongLine1() throws {
        let lines16 = try format("delim=\\n,\\r\\n max=16 keepdelim=yes")
        #expect(payloads(lines16, ["12345678901234567890\r\nfirst\nsecond"], finish: true) == ["<skip 22>", "first\n", "<truncated 6>"])
    }

    /// testTooLongLine2: the too-long line arrives in two chunks.
    @Test func nettyTooLongLine2() throws {
        let lines16 = try format("delim=\\n,\\r\\n max=16 keepdelim=yes")
        #expect(payloads(lines16, ["12345678901234567", "890\r\nfirst\r\n"]) == ["<skip 22>", "first\r\n"])
    }

    /// testTooLongLineWithFailFast: three chunks, the event once, then "first\r\n".
    @Test func nettyTooLongLineWithFailFast() throws {
        let lines16 = try format("delim=\\n,\\r\\n max=16 keepdelim=yes")
        #expect(payloads(lines16, ["12345678901234567", "890", "123\r\nfirst\r\n"]) == ["<skip 25>", "first\r\n"])
    }

    @Test func nettyDecodeSplitsCorrectly() throws {
        #expect(payloads(try format("delim=\\n,\\r\\n keepdelim=yes"), ["line\r\n.\r\n"]) == ["line\r\n", ".\r\n"])
    }

    // MARK: Ours

    /// The shortest frame wins: with `\n` listed before `\r\n`, "a\r\n" is "a" + `\r\n`; a tie
    /// goes to the delimiter listed first; a delimiter split across chunks is found, and the
    /// outcome never depends on where chunks end.
    @Test func shortestFrameWinsWhateverTheChunking() throws {
        let stream = Array("a\r\nbb\ncc##x##\r\n".utf8)
        for spec in ["delim=\\n,\\r\\n", "delim=##\\r\\n,##,\\r\\n", "delim=##,##\\r\\n"] {
            let format = try format(spec)
            let whole = decodeAll(format, [stream])
            #expect(decodeAll(format, stream.map { [$0] }) == whole, "\(spec)")
            var random = FuzzRandom(seed: 7)
            #expect(decodeAll(format, randomChunks(stream, sizes: 1...4, using: &random)) == whole, "\(spec)")
            #expect(isContiguous(whole, length: UInt64(stream.count)))
        }
        let frames = decodeAll(try format("delim=##\\r\\n,##,\\r\\n"), [stream]).compactMap(\.frame)
        #expect(frames.map { String(decoding: $0.body, as: UTF8.self) } == ["a", "bb\ncc", "x"])
        #expect(frames.map(\.trailerLength) == [2, 2, 4])
    }

    /// After a gap, the bytes through the next delimiter are the rest of a line whose start was
    /// never captured: a skip.
    @Test func aGapSkipsToTheNextDelimiter() {
        var decoder = FrameDecoder(format: .lines)
        var outputs: [FrameDecoderOutput] = []
        decoder.process(Array("one\ntw".utf8)) { outputs.append($0) }
        decoder.noteGap(byteCount: 10) { outputs.append($0) }
        decoder.process(Array("ee\nfour\n".utf8)) { outputs.append($0) }
        decoder.finish { outputs.append($0) }
        #expect(outputs.map(\.offset) == [0, 4, 6, 16, 19])
        #expect(outputs[1] == .truncated(offset: 4, byteCount: 2))
        #expect(outputs[2] == .gap(offset: 6, byteCount: 10))
        #expect(outputs[3] == .skip(offset: 16, byteCount: 3))
        #expect(outputs[4].frame?.body == Array("four".utf8)[...])
    }

    /// No rescanning: a 1 MiB line fed in 1-byte to 64 KiB chunks costs at most one look at
    /// each byte plus a delimiter's length per chunk; a too-long line holds no memory.
    @Test func scanningCostIsLinear() throws {
        var random = FuzzRandom(seed: 3)
        let line = [UInt8](repeating: 0x61, count: 1 << 20) + [0x0D, 0x0A]
        for sizes in [1...1, 1...64, 1...(64 << 10)] {
            let chunks = randomChunks(line + line, sizes: sizes, using: &random)
            var decoder = FrameDecoder(format: try format("delim=\\r\\n,\\n max=2M"))
            var frames = 0
            for chunk in chunks { decoder.process(chunk) { if case .frame = $0 { frames += 1 } } }
            #expect(frames == 2)
            #expect(decoder.bytesExamined <= 2 * line.count + 2 * chunks.count, "\(sizes)")
        }
        var tooLong = FrameDecoder(format: .lines)
        var peak = 0
        for chunk in randomChunks(line, sizes: 1...4096, using: &random) {
            tooLong.process(chunk) { _ in }
            peak = max(peak, tooLong.bufferedByteCount)
        }
        #expect(peak <= 64 << 10 + 4096)
    }

    @Test func encoderAppendsTheFirstDelimiterAndRefusesBodiesThatHoldOne() throws {
        let encoder = FrameEncoder(format: try format("delim=\\r\\n,\\n"))
        #expect(try encoder.encode(body: Array("hi".utf8)) == Array("hi\r\n".utf8))
        #expect(throws: FrameEncoderError.bodyContainsDelimiter(offset: 1)) { try encoder.encode(body: Array("a\nb".utf8)) }
        // With \n listed first, "a\r" + "\n" would end at the body's own \r, as "a" + "\r\n".
        #expect(throws: FrameEncoderError.bodyContainsDelimiter(offset: 1)) {
            try FrameEncoder(format: try format("delim=\\n,\\r\\n")).encode(body: Array("a\r".utf8))
        }
    }

    @Test func specGrammar() throws {
        #expect(try format("delim=0x0D0A,##").delimiters == [[0x0D, 0x0A], [0x23, 0x23]])
        #expect(try format("; delim=\\x00\\s\\,\\\\ keepdelim=yes").delimiters == [[0x00, 0x20, 0x2C, 0x5C]])
        #expect(try format("delim=\\n strip=1").payloadOffset == 1)
        let table: [(String, Int, String)] = [
            ("delim=", 7, "a delimiter like \\n, \\r\\n, ## or 0x0D0A (items separated by ',')"),
            ("delim=a,,b", 9, "a delimiter like \\n, \\r\\n, ## or 0x0D0A (items separated by ',')"),
            ("delim=\\q", 7, "an escape after '\\': n r t 0 s \\ , or xHH"),
            ("delim=0x0D0", 9, "hex digits in pairs"),
            ("len:u8 delim=\\n", 1, "no header fields with delim= (a delimiter format has none)"),
            ("delim=\\n counts=frame", 10, "no length option with delim= (frames end at a delimiter)"),
            ("len:u8 keepdelim=yes", 8, "delim= before keepdelim= (it applies to delimiter formats only)"),
            ("delim=\\n keepdelim=maybe", 20, "'yes' or 'no' after 'keepdelim=' (whether the payload keeps the delimiter)"),
        ]
        expectSpecErrors(table)
    }
}
