/// Reads one JSON text (RFC 8259) into a ``JSONValue``, or says where and why it is not JSON.
///
/// Strict: the whole input must be one value with optional whitespace around it (§2); numbers
/// follow §6 (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, no leading zeros, no `+`, no
/// `NaN`); strings (§7) must be UTF-8 (§8.1) with control characters escaped, and `\u`
/// escapes of UTF-16 surrogates must come in high-low pairs. Objects and arrays nested deeper
/// than ``JSONValue/maxDepth`` are refused. Cost is linear in the input size.
///
/// ```
/// {"id":7, "to":["bob"]}   →   .object([id: .number("7"), to: .array([.string("bob")])])
/// {"id":7 "to":["bob"]}    →   column 9: expected ',' or '}', found '"'
/// ```
struct JSONParser {
    private let input: ArraySlice<UInt8>
    private var position: Int

    /// Parses `input` as one JSON text.
    ///
    /// - Parameter input: the text, as UTF-8 bytes; offsets in errors count from its start.
    /// - Returns: the value, of any kind (not only an object or array, RFC 8259 §2).
    /// - Throws: ``JSONParseError`` at the first byte that cannot continue a JSON text.
    static func parse(_ input: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(input: input, position: input.startIndex)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == input.endIndex else { throw parser.error(expected: "the end of the JSON text") }
        return value
    }

    private init(input: ArraySlice<UInt8>, position: Int) {
        self.input = input
        self.position = position
    }

    private func peek() -> UInt8? {
        position < input.endIndex ? input[position] : nil
    }

    /// The error for the byte at the current position (or the end of the input).
    private func error(expected: String) -> JSONParseError {
        error(at: position, found: peek().map { .byte($0) } ?? .end, expected: expected)
    }

    private func error(at index: Int, found: JSONParseError.Found, expected: String) -> JSONParseError {
        JSONParseError(at: index - input.startIndex, in: input, found: found, expected: expected)
    }

    /// Space, tab, line feed, carriage return (§2).
    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    /// A value inside `depth` enclosing objects and arrays, after optional whitespace.
    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), (UInt8(ascii: "0")...UInt8(ascii: "9"))?: return try number()
        default: throw error(expected: "a JSON value")
        }
    }

    /// Steps over the opening bracket of an object or array at `depth`, refusing one too deep.
    private mutating func open(depth: Int) throws(JSONParseError) {
        guard depth < JSONValue.maxDepth else {
            throw error(at: position, found: .tooDeep, expected: "at most \(JSONValue.maxDepth) levels of nested objects and arrays")
        }
        position += 1
        skipWhitespace()
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        try open(depth: depth)
        var members: [JSONValue.Member] = []
        if peek() == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw error(expected: members.isEmpty ? "a string key or '}'" : "a string key")
            }
            let key = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error(expected: "':' after the key") }
            position += 1
            members.append(JSONValue.Member(key: key, value: try value(depth: depth + 1)))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw error(expected: "',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        try open(depth: depth)
        var elements: [JSONValue] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw error(expected: "',' or ']'")
            }
        }
    }

    /// `true`, `false` or `null`, whose first letter is at the current position.
    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for byte in bytes {
            guard peek() == byte else { throw error(expected: "'\(word)'") }
            position += 1
        }
        return value
    }

    /// A number, kept as its text (§6).
    private mutating func number() throws(JSONParseError) -> JSONValue {
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
        return .number(String(decoding: input[start..<position], as: UTF8.self))
    }

    /// One or more decimal digits.
    private mutating func digits() throws(JSONParseError) {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        guard position > start else { throw error(expected: "a digit") }
    }

    /// A string whose opening quote is at the current position, decoded (§7).
    private mutating func string() throws(JSONParseError) -> JSONValue.Text {
        let start = position
        position += 1
        var decoded: [UInt8] = []
        // Bytes copied as they are: from `run` to the current position.
        var run = position
        while true {
            switch peek() {
            case nil:
                throw error(expected: "'\"' to close the string")
            case UInt8(ascii: "\""):
                try appendUTF8(run..<position, to: &decoded)
                position += 1
                return JSONValue.Text(value: String(decoding: decoded, as: UTF8.self), literal: input[start..<position])
            case UInt8(ascii: "\\"):
                try appendUTF8(run..<position, to: &decoded)
                try escape(to: &decoded)
                run = position
            case (0..<0x20)?:
                throw error(expected: "a string character (control characters must be escaped, e.g. \\n, \\u0001)")
            default:
                position += 1
            }
        }
    }

    /// Copies `range` of the input to `decoded`, refusing bytes that are not UTF-8.
    private func appendUTF8(_ range: Range<Int>, to decoded: inout [UInt8]) throws(JSONParseError) {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = input[range].makeIterator()
        var index = range.lowerBound
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar):
                index += scalar.count
            case .emptyInput:
                decoded.append(contentsOf: input[range])
                return
            case .error:
                throw error(at: index, found: .invalidUTF8, expected: "UTF-8 text")
            }
        }
    }

    /// The escape whose backslash is at the current position, decoded to UTF-8.
    private mutating func escape(to decoded: inout [UInt8]) throws(JSONParseError) {
        let start = position
        position += 1
        let simple: UInt8
        switch peek() {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            position += 1
            UTF8.encode(try unicodeEscape(start: start)) { decoded.append($0) }
            return
        default:
            throw error(expected: "an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits")
        }
        position += 1
        decoded.append(simple)
    }

    /// The scalar of a `\uXXXX` escape (its four digits at the current position), and of the
    /// `\uXXXX` low surrogate that must follow a high one.
    private mutating func unicodeEscape(start: Int) throws(JSONParseError) -> Unicode.Scalar {
        let unit = try hexUnit()
        switch unit {
        case 0xD800...0xDBFF:
            if peek() == UInt8(ascii: "\\"), position + 1 < input.endIndex, input[position + 1] == UInt8(ascii: "u") {
                position += 2
                let low = try hexUnit()
                if (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00))!
                }
            }
            throw error(at: start, found: .unpairedSurrogate(unit), expected: Self.surrogatePair)
        case 0xDC00...0xDFFF:
            throw error(at: start, found: .unpairedSurrogate(unit), expected: Self.surrogatePair)
        default:
            return Unicode.Scalar(unit)!
        }
    }

    private static let surrogatePair = "a surrogate pair, \\ud800...\\udbff then \\udc00...\\udfff"

    /// Four hex digits: one UTF-16 code unit.
    private mutating func hexUnit() throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = ByteFormatting.hexDigitValue(byte) else {
                throw error(expected: "four hex digits after \\u")
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }
}
