/// A JSON value read from text (RFC 8259), with where each value sits in the source.
///
/// Input for `encode` and `connect` is small and written by people, so the reader keeps what
/// error messages and verbatim copies need rather than what is fast: every node knows its byte
/// range, so a `body_json` value is sent exactly as written, and an error names the column.
///
/// Numbers keep their text (no rounding through `Double`): a header field can be a full 64-bit
/// value. Nesting deeper than ``maxDepth`` is refused, so hostile input cannot exhaust the stack.
struct JSONDocument: Equatable {
    /// What a node holds.
    enum Value: Equatable {
        /// Members in source order; a repeated key is kept twice (the caller decides).
        case object([Member])
        case array([JSONDocument])
        /// The decoded text (escapes resolved), always valid UTF-8.
        case string(String)
        /// The number's source text, e.g. `-1.5e3`.
        case number(String)
        case bool(Bool)
        case null
    }

    /// One `"key": value` of an object.
    struct Member: Equatable {
        var key: String
        /// Byte offset of the key's opening quote in the source.
        var keyOffset: Int
        var value: JSONDocument
    }

    /// Where the text is not JSON: the byte offset and what was expected there.
    struct SyntaxError: Error, Equatable {
        /// Offset in bytes from the start of the text.
        var offset: Int
        /// What should have been there, e.g. `"a ',' or '}'"`.
        var expected: String
    }

    /// The deepest nesting of objects and arrays accepted.
    static let maxDepth = 64

    var value: Value
    /// The node's bytes in the source, without surrounding whitespace.
    var range: Range<Int>

    /// Reads exactly one JSON value from `text` (surrounding whitespace allowed).
    ///
    /// - Throws: ``SyntaxError`` at the first byte that does not fit the grammar.
    init(parsing text: [UInt8]) throws(SyntaxError) {
        var reader = Reader(bytes: text)
        reader.skipWhitespace()
        self = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.position == text.count else {
            throw reader.error("the end of the text after the JSON value")
        }
    }

    private init(value: Value, range: Range<Int>) {
        self.value = value
        self.range = range
    }

    /// A recursive-descent reader; positions are offsets into `bytes`.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        func error(_ expected: String) -> SyntaxError {
            SyntaxError(offset: position, expected: expected)
        }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                position += 1
            }
        }

        mutating func expect(_ byte: UInt8, _ description: String) throws(SyntaxError) {
            guard peek() == byte else { throw error(description) }
            position += 1
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONDocument {
            let start = position
            let value: Value
            switch peek() {
            case UInt8(ascii: "{"):
                guard depth < JSONDocument.maxDepth else { throw error("nesting at most \(JSONDocument.maxDepth) deep") }
                value = .object(try members(depth: depth + 1))
            case UInt8(ascii: "["):
                guard depth < JSONDocument.maxDepth else { throw error("nesting at most \(JSONDocument.maxDepth) deep") }
                value = .array(try elements(depth: depth + 1))
            case UInt8(ascii: "\""):
                value = .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                value = .null
            case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
                value = .number(try number())
            default:
                throw error("a JSON value")
            }
            return JSONDocument(value: value, range: start..<position)
        }

        mutating func members(depth: Int) throws(SyntaxError) -> [Member] {
            position += 1
            skipWhitespace()
            var members: [Member] = []
            if peek() == UInt8(ascii: "}") {
                position += 1
                return members
            }
            while true {
                skipWhitespace()
                let keyOffset = position
                guard peek() == UInt8(ascii: "\"") else { throw error("a quoted key") }
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':' after the key")
                skipWhitespace()
                members.append(Member(key: key, keyOffset: keyOffset, value: try value(depth: depth)))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return members
            }
        }

        mutating func elements(depth: Int) throws(SyntaxError) -> [JSONDocument] {
            position += 1
            skipWhitespace()
            var elements: [JSONDocument] = []
            if peek() == UInt8(ascii: "]") {
                position += 1
                return elements
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return elements
            }
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let start = position
            for byte in UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
                guard peek() == byte else {
                    position = start
                    throw error("'\(word)'")
                }
                position += 1
            }
        }

        /// A number per RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        mutating func number() throws(SyntaxError) -> String {
            let start = position
            if peek() == UInt8(ascii: "-") { position += 1 }
            if peek() == UInt8(ascii: "0") {
                position += 1
            } else {
                try digits()
            }
            if peek() == UInt8(ascii: ".") {
                position += 1
                try digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                try digits()
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func digits() throws(SyntaxError) {
            guard let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw error("a digit") }
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        }

        /// A string per RFC 8259 §7, escapes resolved (surrogate pairs joined); raw control
        /// characters, lone surrogates and invalid UTF-8 are errors, not replaced.
        mutating func string() throws(SyntaxError) -> String {
            let start = position
            position += 1
            var utf8: [UInt8] = []
            while true {
                guard let byte = peek() else { throw error("a closing '\"'") }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    guard let text = String(validating: utf8, as: UTF8.self) else {
                        position = start
                        throw error("a string of valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    position += 1
                    try escape(into: &utf8)
                case 0..<0x20:
                    throw error("'\\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))' instead of a raw control character")
                default:
                    utf8.append(byte)
                    position += 1
                }
            }
        }

        mutating func escape(into utf8: inout [UInt8]) throws(SyntaxError) {
            guard let byte = peek() else { throw error("an escape character") }
            position += 1
            let simple: UInt8? = switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
            if let simple {
                utf8.append(simple)
                return
            }
            guard byte == UInt8(ascii: "u") else {
                position -= 1
                throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
            }
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek() == UInt8(ascii: "\\") else { throw error("'\\u' with the low half of a surrogate pair") }
                position += 1
                try expect(UInt8(ascii: "u"), "'u' for the low half of a surrogate pair")
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw error("the low half of a surrogate pair (DC00-DFFF)") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("a Unicode scalar, not a lone surrogate") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        }

        mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek(), let digit = HexDigit.value(byte) else { throw error("4 hex digits after '\\u'") }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }
    }
}
