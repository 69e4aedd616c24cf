/// JSON string literals (RFC 8259 §7), escaped by hand into a byte buffer.
enum JSONString {
    /// Appends `text` as a quoted JSON string: `"` and `\` escaped, control characters as
    /// `\n`, `\t`, ... or `\u00XX`; everything else as its UTF-8 bytes.
    static func append(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): buffer.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): buffer.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): buffer.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): buffer.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                buffer.append(contentsOf: "\\u00".utf8)
                ByteFormatting.appendHex(byte, to: &buffer)
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
