import FrameCodec

/// Formats built field by field with `FrameFormat(name:fields:maxFrameLength:)`, so the tests
/// that use them depend only on that initializer, not on the presets or the spec parser.
package enum TestFormats {
    /// Like the `fefd` preset: magic `FE FD`, big-endian u16 body length.
    package static func fefd(maxFrameLength: Int = FrameFormat.defaultMaxFrameLength) -> FrameFormat {
        try! FrameFormat(name: "fefd", fields: [
            HeaderField(name: "magic", width: 2, expected: 0xFEFD...0xFEFD),
            HeaderField(name: "len", width: 2, role: .length),
        ], maxFrameLength: maxFrameLength)
    }

    /// Like the `h12` preset: magic `55 AA`, ver, cmd, u32 body length, CRC-32 of the body.
    package static let h12 = h12()

    /// h12's layout with another checksum or frame limit.
    package static func h12(
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
    package static func bareLength(width: Int, maxFrameLength: Int = FrameFormat.defaultMaxFrameLength) -> FrameFormat {
        try! FrameFormat(name: "u\(width * 8)", fields: [
            HeaderField(name: "len", width: width, role: .length),
        ], maxFrameLength: maxFrameLength)
    }

    /// Like a TLS record header: checked ranges but no single-valued magic.
    package static let tlsLike = try! FrameFormat(name: "tls", fields: [
        HeaderField(name: "type", width: 1, expected: 20...24),
        HeaderField(name: "version", width: 2, expected: 0x0300...0x0304),
        HeaderField(name: "len", width: 2, role: .length),
    ], maxFrameLength: 5 + (1 << 14) + 2048)

    /// The magic in the middle of the header: a little-endian length, then `AB CD`.
    package static let magicAtOffset2 = try! FrameFormat(name: "mid", fields: [
        HeaderField(name: "len", width: 2, byteOrder: .littleEndian, role: .length),
        HeaderField(name: "magic", width: 2, expected: 0xABCD...0xABCD),
    ])

    /// A little-endian u16 length after two opaque bytes, payload starting after the length
    /// (the opaque bytes are stripped like Netty's `initialBytesToStrip`).
    package static let opaqueLE = try! FrameFormat(name: "opaque", fields: [
        HeaderField(name: "pad", width: 2, role: .opaque),
        HeaderField(name: "len", width: 2, byteOrder: .littleEndian, role: .length),
    ])

    /// One frame of `format` carrying `body`, at `offset`.
    package static func frame(_ format: FrameFormat, fields: [String: UInt64] = [:], body: [UInt8], offset: UInt64 = 0, crcOK: Bool? = nil) -> Frame {
        let bytes = try! FrameEncoder(format: format).encode(fields: fields, body: body)
        return Frame(offset: offset, bytes: bytes[...], headerLength: format.headerLength, crcOK: crcOK)
    }
}
