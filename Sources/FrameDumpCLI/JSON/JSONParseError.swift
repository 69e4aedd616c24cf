/// Why a text is not JSON: where (byte offset, line and column) and what was expected there.
///
/// Its description reads `column 9: expected ',' or '}', found ']'` (`line 3, column 9: ...`
/// when the text has several lines), for messages such as `<stdin>:4: expected a JSON object
/// (column 9: ...)`.
struct JSONParseError: Error, Equatable, CustomStringConvertible {
    /// What stood where something else was expected.
    enum Found: Equatable {
        /// The text ended.
        case end
        /// This byte.
        case byte(UInt8)
        /// Bytes in a string that are not UTF-8 (RFC 8259 §8.1).
        case invalidUTF8
        /// A `\uXXXX` escape of a UTF-16 surrogate without its other half (RFC 8259 §7).
        case unpairedSurrogate(UInt16)
        /// An object or array nested one level deeper than ``JSONValue/maxDepth``.
        case tooDeep
    }

    /// Bytes from the start of the text (0-based).
    var offset: Int
    /// The line (1-based; lines end at line feeds).
    var line: Int
    /// The column (1-based), in Unicode scalars from the start of the line.
    var column: Int
    var found: Found
    /// What the grammar allows here, e.g. `',' or '}'`.
    var expected: String

    /// The error at `offset` bytes into `text`, its line and column counted from `text`.
    init(at offset: Int, in text: ArraySlice<UInt8>, found: Found, expected: String) {
        self.offset = offset
        self.found = found
        self.expected = expected
        let before = text.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        // UTF-8 continuation bytes (10xxxxxx) do not start a scalar.
        column = before[lineStart...].count(where: { $0 & 0xC0 != 0x80 }) + 1
    }

    var description: String {
        let place = line == 1 ? "column \(column)" : "line \(line), column \(column)"
        return "\(place): expected \(expected), found \(foundText)"
    }

    private var foundText: String {
        switch found {
        case .end:
            return "the end of the text"
        case .byte(let byte) where (0x21...0x7E).contains(byte):
            return "'\(Character(Unicode.Scalar(byte)))'"
        case .byte(let byte):
            return "byte 0x\(Self.hex(UInt64(byte), digits: 2))"
        case .invalidUTF8:
            return "bytes that are not UTF-8"
        case .unpairedSurrogate(let unit):
            return "\\u\(Self.hex(UInt64(unit), digits: 4)) alone"
        case .tooDeep:
            return "level \(JSONValue.maxDepth + 1)"
        }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        var text: [UInt8] = []
        ByteFormatting.appendHex(value, digits: digits, to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
