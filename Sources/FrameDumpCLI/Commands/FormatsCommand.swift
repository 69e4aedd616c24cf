import FrameCodec

/// `framedump formats`: the presets, each with its layout and an example frame, and a summary
/// of the spec grammar (the full grammar is docs/formats.md).
enum FormatsCommand: Command {
    static let spec = CommandSpec(
        name: "formats",
        summary: "List the preset frame formats and the --format spec grammar.",
        discussion: "",
        options: [],
        positionals: []
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        context.output.write(text())
        return .success
    }

    /// The whole listing.
    static func text() -> String {
        let presets = FrameFormat.presets
        let width = presets.map(\.name.count).max() ?? 0
        let indent = String(repeating: " ", count: width + 4)
        var text = "presets (--format NAME); decode detects fefd, h12, tls and an MQTT CONNECT from the first bytes:\n\n"
        for format in presets {
            text += "  " + format.name + String(repeating: " ", count: width - format.name.count) + "  "
            text += "\(headerWords(format)): \(FormatDescription.spec(format))\n"
            text += indent + "example frame, body \"hi\": \(example(format))\n"
        }
        text += """

        spec grammar (--format SPEC; the full grammar with examples is docs/formats.md):

          fields   NAME:TYPE[=VALUE|=LOW..HIGH][{V=NAME,...}] ...   header fields in wire order
          TYPE     u8 u16 u24 u32 u40 u48 u56 u64       an integer; add be (default) or le
                   varint varintN                       a LEB128 varint of at most 10 (N) bytes
                   bN                                   N bits; bit fields in a row fill whole bytes
                   bytesN                               N bytes that carry no integer
                   crc32 crc32c [be|le] [/body|/frame]  a checksum of the body (default)
                                                        or of the whole frame
          =VALUE   a magic: after bad bytes, decode scans for it; =LOW..HIGH: allowed values
          {V=NAME} names for values of an integer field, shown as cmd=ping(1): cmd:u8{1=ping,2=pong}
          length   the field named len, the one lenfield=NAME names, or a sum:
                   length=head_length+body_length, length=ihl*4+8
          options  counts=body|frame adjust=N max=N[K|M|G] strip=N lenfield=NAME length=SUM
                   after the fields, optionally after a ';'
          delim    delim=\\n,\\r\\n [keepdelim=yes] [max=N]: frames end at a delimiter (no fields)
          example  --format 'magic:u16=0x55AA ver:u8 cmd:u8 len:u32be crc:crc32be'

        """
        return text
    }

    /// The hex of a frame with body "hi" (header fields with allowed values get the lowest one),
    /// header and body separated by a space; for a delimiter format, body and delimiter.
    private static func example(_ format: FrameFormat) -> String {
        var fields: [String: UInt64] = [:]
        for field in format.fields {
            if let expected = field.expected { fields[field.name] = expected.lowerBound }
        }
        guard let frame = try? FrameEncoder(format: format).encode(fields: fields, body: Array("hi".utf8)) else {
            return "(cannot encode)"
        }
        // Where the space goes: after the header (a varint's own length comes from decoding the
        // frame back), or before a delimiter format's delimiter.
        var split = format.isDelimited ? frame.count - format.delimiters[0].count : format.headerLength
        var decoder = FrameDecoder(format: format)
        decoder.process(frame) { output in
            if case .frame(let decoded) = output, !format.isDelimited { split = decoded.headerLength }
        }
        var hex: [UInt8] = []
        ByteFormatting.appendHex(frame[..<split], to: &hex)
        hex.append(UInt8(ascii: " "))
        ByteFormatting.appendHex(frame[split...], to: &hex)
        return String(decoding: hex, as: UTF8.self)
    }

    /// `12-byte header`, `1- to 5-byte header` (varints), or `delimited` (no header).
    private static func headerWords(_ format: FrameFormat) -> String {
        if format.isDelimited { return "delimited" }
        let shortest = format.minimumHeaderLength
        return shortest == format.headerLength ? "\(shortest)-byte header" : "\(shortest)- to \(format.headerLength)-byte header"
    }
}
