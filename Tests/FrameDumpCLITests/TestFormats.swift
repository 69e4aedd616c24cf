import FrameCodec
import PacketDecoding
@testable import FrameDumpCLI

/// Formats built field by field (not from presets or specs), so these tests depend only on
/// `FrameFormat`'s initializer, the decoder and the encoder.
enum TestFormats {
    /// h12's layout: magic 0x55AA, ver, cmd, u32 body length, CRC-32 of the body.
    static let h12 = try! FrameFormat(name: "h12", fields: [
        HeaderField(name: "magic", width: 2, expected: 0x55AA...0x55AA),
        HeaderField(name: "ver", width: 1),
        HeaderField(name: "cmd", width: 1),
        HeaderField(name: "len", width: 4, role: .length),
        HeaderField(name: "crc", width: 4, role: .checksum(.crc32, .body)),
    ])

    /// A little-endian u16 length after two opaque bytes, payload starting after the length
    /// (the opaque bytes are stripped like Netty's `initialBytesToStrip`).
    static let opaqueLE = try! FrameFormat(
        name: "opaque",
        fields: [
            HeaderField(name: "pad", width: 2, role: .opaque),
            HeaderField(name: "len", width: 2, byteOrder: .littleEndian, role: .length),
        ]
    )

    /// One frame of `format` carrying `body`, at `offset`.
    static func frame(_ format: FrameFormat, fields: [String: UInt64] = [:], body: [UInt8], offset: UInt64 = 0, crcOK: Bool? = nil) -> Frame {
        let bytes = try! FrameEncoder(format: format).encode(fields: fields, body: body)
        return Frame(offset: offset, bytes: bytes[...], headerLength: format.headerLength, crcOK: crcOK)
    }
}

/// The two per-format renderers the ``OutputRenderer``s are built from, driven alone.
protocol PerFormatRenderer {
    mutating func render(_ output: FrameDecoderOutput, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8])
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8])
}

extension TextRenderer: PerFormatRenderer {}
extension JSONLinesWriter: PerFormatRenderer {}

extension PerFormatRenderer {
    /// The text of rendering `outputs` (of an unlabelled, untimed stream) then `finish` with `summary`.
    mutating func text(_ outputs: [FrameDecoderOutput], summary: DecodeSummary? = nil) -> String {
        var buffer: [UInt8] = []
        for output in outputs { render(output, label: nil, time: nil, into: &buffer) }
        if let summary { finish(summary, into: &buffer) }
        return String(decoding: buffer, as: UTF8.self)
    }
}
