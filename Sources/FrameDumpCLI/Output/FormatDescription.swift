import FrameCodec

/// A ``FrameFormat`` written back as a text spec (grammar in docs/formats.md), for
/// `framedump formats` and messages.
///
/// The text parses back to the same layout: `FrameFormat(spec: FormatDescription.spec(f))`
/// equals `f` in everything but the name.
enum FormatDescription {
    /// `magic:u16=0xFEFD len:u16`, then options that differ from the defaults
    /// (`counts=frame adjust=-4 max=18437 strip=4`, and `lenfield=NAME` when the length field
    /// is not called `len`).
    static func spec(_ format: FrameFormat) -> String {
        if format.isDelimited { return delimiterSpec(format) }
        var words = format.fields.map(field)
        let lengths = format.lengthFieldIndices.map { format.fields[$0] }
        if lengths.count > 1 || lengths[0].lengthMultiplier != 1 {
            words.append("length=" + lengths.map { $0.lengthMultiplier == 1 ? $0.name : "\($0.name)*\($0.lengthMultiplier)" }
                .joined(separator: "+"))
        } else if lengths[0].name != "len" {
            words.append("lenfield=\(lengths[0].name)")
        }
        if format.lengthCounts == .wholeFrame { words.append("counts=frame") }
        if format.lengthAdjustment != 0 { words.append("adjust=\(format.lengthAdjustment)") }
        if format.maxFrameLength != FrameFormat.defaultMaxFrameLength { words.append("max=\(format.maxFrameLength)") }
        if let strip = format.payloadOffset { words.append("strip=\(strip)") }
        return words.joined(separator: " ")
    }

    /// `delim=\n,\r\n`, then `keepdelim=yes`, `max=` and `strip=` when they differ from the defaults.
    private static func delimiterSpec(_ format: FrameFormat) -> String {
        var words = ["delim=" + format.delimiters.map(escaped).joined(separator: ",")]
        if format.keepsDelimiter { words.append("keepdelim=yes") }
        if format.maxFrameLength != FrameFormat.defaultMaxFrameLength { words.append("max=\(format.maxFrameLength)") }
        if let strip = format.payloadOffset { words.append("strip=\(strip)") }
        return words.joined(separator: " ")
    }

    /// A delimiter in the spec's escapes: printable ASCII as itself, `\n \r \t \0 \s`, other bytes `\xHH`.
    private static func escaped(_ delimiter: [UInt8]) -> String {
        var text = ""
        for byte in delimiter {
            switch byte {
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x00: text += "\\0"
            case 0x20: text += "\\s"
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: ","): text += "\\,"
            case 0x21...0x7E where byte != UInt8(ascii: ";"): text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return text
    }

    /// `name:type[=value|=low..high][{value=name,…}]`.
    private static func field(_ field: HeaderField) -> String {
        let order = field.width > 1 && field.byteOrder == .littleEndian ? "le" : ""
        var text = field.name + ":"
        switch (field.role, field.encoding) {
        case (.opaque, _):
            return text + "bytes\(field.width)"
        case (.checksum(let algorithm, let coverage), _):
            text += (algorithm == .crc32 ? "crc32" : "crc32c") + order
            return coverage == .headerAndBody ? text + "/frame" : text
        case (_, .varint):
            text += field.width == FrameFormat.maxVarintWidth ? "varint" : "varint\(field.width)"
        case (_, .bits(let count)):
            text += "b\(count)"
        case (_, .fixed):
            text += "u\(field.width * 8)" + order
        }
        if let expected = field.expected {
            text += "=" + number(expected.lowerBound, width: field.width)
            if expected.upperBound != expected.lowerBound {
                text += ".." + number(expected.upperBound, width: field.width)
            }
        }
        if !field.valueNames.isEmpty {
            text += "{" + field.valueNames.map { "\($0.value)=\($0.name)" }.joined(separator: ",") + "}"
        }
        return text
    }

    /// Decimal for 1-byte fields, zero-padded upper-case hex (as in protocol docs) for wider ones.
    private static func number(_ value: UInt64, width: Int) -> String {
        guard width > 1 else { return String(value) }
        let hex = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, width * 2 - hex.count)) + hex
    }
}
