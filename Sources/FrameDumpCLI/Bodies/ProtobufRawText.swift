import BodyViews

/// A protobuf message without its schema as text: `protoc --decode_raw`'s layout (protobuf text
/// format), with what the wire cannot say added as `#` comments, which text-format parsers
/// skip:
///
/// ```
/// 1: 150  # zigzag 75
/// 2: "testing"  # guess: string
/// 3 {  # guess: message
///   1: 150  # zigzag 75
/// }
/// 4: 0x3fc00000  # fixed32 1069547520, float 1.5
/// 5: "\377\000"  # guess: bytes
/// ```
///
/// Strings keep their UTF-8 as is (text format's UTF-8 escaping); quotes, backslashes and
/// control bytes are escaped as protoc escapes them, and bytes that are not UTF-8 in octal.
struct ProtobufRawText: ProtobufRawVisitor {
    /// Put before every line (the body's indentation under its heading).
    let indent: [UInt8]
    private(set) var output: [UInt8] = []
    private var depth = 0

    init(indent: String) {
        self.indent = Array(indent.utf8)
    }

    mutating func varint(_ number: UInt32, _ value: UInt64) {
        startLine(number)
        output.append(contentsOf: ": \(value)  # zigzag \(Self.zigzag(value))".utf8)
        if value >= 1 << 63 { output.append(contentsOf: ", int64 \(Int64(bitPattern: value))".utf8) }
        output.append(UInt8(ascii: "\n"))
    }

    mutating func fixed64(_ number: UInt32, _ value: UInt64) {
        startLine(number)
        output.append(contentsOf: ": 0x".utf8)
        output.append(contentsOf: Self.hex(value, digits: 16).utf8)
        output.append(contentsOf: "  # fixed64 \(value)".utf8)
        if value >= 1 << 63 { output.append(contentsOf: ", sfixed64 \(Int64(bitPattern: value))".utf8) }
        output.append(contentsOf: ", double \(Double(bitPattern: value))\n".utf8)
    }

    mutating func fixed32(_ number: UInt32, _ value: UInt32) {
        startLine(number)
        output.append(contentsOf: ": 0x".utf8)
        output.append(contentsOf: Self.hex(UInt64(value), digits: 8).utf8)
        output.append(contentsOf: "  # fixed32 \(value)".utf8)
        if value >= 1 << 31 { output.append(contentsOf: ", sfixed32 \(Int32(bitPattern: value))".utf8) }
        output.append(contentsOf: ", float \(Float(bitPattern: value))\n".utf8)
    }

    mutating func lengthDelimited(_ number: UInt32, _ bytes: UnsafeRawBufferPointer, isUTF8: Bool) {
        startLine(number)
        output.append(contentsOf: ": ".utf8)
        Self.appendQuoted(bytes, keepingUTF8: isUTF8, to: &output)
        output.append(contentsOf: (isUTF8 ? "  # guess: string\n" : "  # guess: bytes\n").utf8)
    }

    mutating func beginMessage(_ number: UInt32, isGroup: Bool) {
        startLine(number)
        output.append(contentsOf: (isGroup ? " {  # group\n" : " {  # guess: message\n").utf8)
        depth += 1
    }

    mutating func endMessage() {
        depth -= 1
        output.append(contentsOf: indent)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        output.append(contentsOf: "}\n".utf8)
    }

    private mutating func startLine(_ number: UInt32) {
        output.append(contentsOf: indent)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        output.append(contentsOf: "\(number)".utf8)
    }

    /// The sint32/sint64 reading: (n >> 1) ^ -(n & 1).
    static func zigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `bytes` as a text-format string literal: `\n \r \t \" \' \\` escaped, other control
    /// bytes and DEL in 3-digit octal (protobuf's `CEscape`), and bytes ≥ 0x80 kept when they
    /// are UTF-8 (`keepingUTF8`), in octal otherwise.
    static func appendQuoted(_ bytes: UnsafeRawBufferPointer, keepingUTF8: Bool, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "\\'".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x20..<0x7F: output.append(byte)
            case 0x80...0xFF where keepingUTF8: output.append(byte)
            default:
                output.append(UInt8(ascii: "\\"))
                output.append(UInt8(ascii: "0") + (byte >> 6))
                output.append(UInt8(ascii: "0") + ((byte >> 3) & 7))
                output.append(UInt8(ascii: "0") + (byte & 7))
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
