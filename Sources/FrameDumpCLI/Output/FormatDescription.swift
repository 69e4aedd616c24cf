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
        var words = format.fields.map(field)
        let lengthField = format.fields[format.lengthFieldIndex].name
        if lengthField != "len" { words.append("lenfield=\(lengthField)") }
        if format.lengthCounts == .wholeFrame { words.append("counts=frame") }
        if format.lengthAdjustment != 0 { words.append("adjust=\(format.lengthAdjustment)") }
        if format.maxFrameLength != FrameFormat.defaultMaxFrameLength { words.append("max=\(format.maxFrameLength)") }
        if let strip = format.payloadOffset { words.append("strip=\(strip)") }
        return words.joined(separator: " ")
    }

    /// `name:type[=value|=low..high][{value=name,…}]`.
    private static func field(_ field: HeaderField) -> String {
        let order = field.width > 1 && field.byteOrder == .littleEndian ? "le" : ""
        var text = field.name + ":"
        switch field.role {
        case .opaque:
            return text + "bytes\(field.width)"
        case .checksum(let algorithm, let coverage):
            text += (algorithm == .crc32 ? "crc32" : "crc32c") + order
            return coverage == .headerAndBody ? text + "/frame" : text
        case .value, .length:
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
