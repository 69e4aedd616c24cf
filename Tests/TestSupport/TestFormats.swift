import Testing
import FrameFuzzing
@testable import FrameCodec

/// Formats built directly with `FrameFormat(name:fields:...)`, so these tests do not depend on
/// the presets or the spec parser.
enum TestFormats {
    /// Like the `fefd` preset: magic `FE FD`, big-endian u16 body length.
    static func fefd(maxFrameLength: Int = FrameFormat.defaultMaxFrameLength) -> FrameFormat {
        try! FrameFormat(name: "fefd", fields: [
            HeaderField(name: "magic", width: 2, expected: 0xFEFD...0xFEFD),
            HeaderField(name: "len", width: 2, role: .length),
        ], maxFrameLength: maxFrameLength)
    }

    /// Like the `h12` preset: magic `55 AA`, ver, cmd, u32 body length, CRC-32 of the body.
    static func h12(
        algorithm: ChecksumAlgorithm = .crc32,
        coverage: ChecksumCoverage = .body,
        maxFrameLength: Int = FrameFormat.defaultMaxFrameLength
    ) -> FrameFormat {
        try! FrameFormat(name: "h12", fields: [
            HeaderField(name: "magic", width: 2, expected: 0x55AA...0x55AA),
            HeaderField(name: "ver", width: 1),
            HeaderField(name: "cmd", width: 1),
            HeaderField(name: "len", width: 4, role: .length),
            HeaderField(name: "crc", width: 4, role: .checksum(algorithm, coverage)),
        ], maxFrameLength: maxFrameLength)
    }

    /// A bare big-endian length, no magic (DNS over TCP, `u16`/`u32`).
    static func bareLength(width: Int, maxFrameLength: Int = FrameFormat.defaultMaxFrameLength) -> FrameFormat {
        try! FrameFormat(name: "u\(width * 8)", fields: [
            HeaderField(name: "len", width: width, role: .length),
        ], maxFrameLength: maxFrameLength)
    }

    /// Like a TLS record header: checked ranges but no single-valued magic.
    static let tlsLike = try! FrameFormat(name: "tls", fields: [
        HeaderField(name: "type", width: 1, expected: 20...24),
        HeaderField(name: "version", width: 2, expected: 0x0300...0x0304),
        HeaderField(name: "len", width: 2, role: .length),
    ], maxFrameLength: 5 + (1 << 14) + 2048)

    /// The magic in the middle of the header: a little-endian length, then `AB CD`.
    static let magicAtOffset2 = try! FrameFormat(name: "mid", fields: [
        HeaderField(name: "len", width: 2, byteOrder: .littleEndian, role: .length),
        HeaderField(name: "magic", width: 2, expected: 0xABCD...0xABCD),
    ])
}

/// Everything a decoder outputs for `chunks`, then `finish`.
///
/// Each chunk goes in both ways the decoder takes bytes, which must give the same outputs: as
/// an array (framed in place when the decoder holds nothing) and through a raw buffer pointer
/// (always appended), as captures feed it. A difference is recorded as a failed expectation.
func decodeAll(
    _ format: FrameFormat,
    _ chunks: [[UInt8]],
    startOffset: UInt64 = 0,
    finish: Bool = true
) -> [FrameDecoderOutput] {
    var fromArrays = FrameDecoder(format: format, startOffset: startOffset)
    var fromPointers = FrameDecoder(format: format, startOffset: startOffset)
    var outputs: [FrameDecoderOutput] = []
    var pointerOutputs: [FrameDecoderOutput] = []
    for chunk in chunks {
        fromArrays.process(chunk) { outputs.append($0) }
        chunk.withUnsafeBytes { bytes in fromPointers.process(bytes) { pointerOutputs.append($0) } }
        #expect(fromArrays.bufferedByteCount == fromPointers.bufferedByteCount)
    }
    if finish {
        fromArrays.finish { outputs.append($0) }
        fromPointers.finish { pointerOutputs.append($0) }
    }
    #expect(outputs == pointerOutputs, "arrays and raw pointers give different outputs")
    return outputs
}

/// `bytes` cut into chunks of random sizes in `sizes`.
func randomChunks(_ bytes: [UInt8], sizes: ClosedRange<Int>, using random: inout FuzzRandom) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var position = 0
    while position < bytes.count {
        let next = Swift.min(bytes.count, position + Int.random(in: sizes, using: &random))
        chunks.append(Array(bytes[position..<next]))
        position = next
    }
    return chunks
}

/// Checks the accounting contract: outputs are back to back from `start` and cover `length` bytes.
func isContiguous(_ outputs: [FrameDecoderOutput], from start: UInt64 = 0, length: UInt64) -> Bool {
    var expected = start
    for output in outputs {
        guard output.offset == expected else { return false }
        expected += output.byteCount
    }
    return expected == start + length
}

extension FrameDecoderOutput {
    /// The frame, if this output is one.
    var frame: Frame? {
        if case .frame(let frame) = self { return frame }
        return nil
    }
}
