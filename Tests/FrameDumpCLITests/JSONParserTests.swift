import Testing
@testable import FrameDumpCLI

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8)[...])
    }

    func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes[...])
    }

    /// The error `text` gives; the test fails when it parses.
    func failure(_ text: String) -> JSONParseError? {
        failure(bytes: Array(text.utf8))
    }

    func failure(bytes: [UInt8]) -> JSONParseError? {
        do {
            let value = try parse(bytes: bytes)
            Issue.record("parsed as \(value)")
            return nil
        } catch {
            return error
        }
    }

    func text(_ value: String) -> JSONValue {
        var literal: [UInt8] = []
        JSONString.append(value, to: &literal)
        return .string(JSONValue.Text(value: value, literal: literal[...]))
    }

    func key(_ name: String, _ value: JSONValue) -> JSONValue.Member {
        guard case .string(let text) = text(name) else { fatalError("text() gives a string") }
        return JSONValue.Member(key: text, value: value)
    }

    // MARK: Valid documents

    @Test func objectsKeepTheirMembersInOrderWithDuplicates() throws {
        let value = try parse(#" {"b": [1, true, false, null], "a": {}, "b": "x"} "#)
        #expect(value == .object([
            key("b", .array([.number("1"), .bool(true), .bool(false), .null])),
            key("a", .object([])),
            key("b", text("x")),
        ]))
        #expect(value["b"] == text("x"))
        #expect(value["a"] == .object([]))
        #expect(value["none"] == nil)
        #expect(JSONValue.array([])["b"] == nil)
    }

    @Test func anyValueMayStandAlone() throws {
        #expect(try parse("42") == .number("42"))
        #expect(try parse(#""hi""#) == text("hi"))
        #expect(try parse("\t\r\n null \n") == .null)
        #expect(try parse("[]") == .array([]))
    }

    @Test func numbersKeepTheirExactText() throws {
        for number in ["0", "-0", "7", "-12", "0.5", "1.50e+3", "2E-7", "1e10", "18446744073709551615",
                       "18446744073709551616", "123456789012345678901234567890.000000000000000000001"] {
            #expect(try parse(number) == .number(number))
            #expect(try parse("[\(number)]") == .array([.number(number)]))
        }
    }

    @Test func stringsAreDecodedAndKeepTheirLiteral() throws {
        let literal = #""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC é""#
        guard case .string(let decoded) = try parse(literal) else {
            Issue.record("not a string")
            return
        }
        #expect(decoded.value == "a\"b\\c/d\u{08}\u{0C}\n\r\tAé€ é")
        #expect(Array(decoded.literal) == Array(literal.utf8))
    }

    @Test func surrogatePairsDecodeToOneScalar() throws {
        #expect(try parse(#""\ud83d\ude00""#) == text("😀"))
        #expect(try parse(#""\uD834\uDD1E!""#) == text("𝄞!"))
        #expect(try parse(#""😀""#) == text("😀"))
    }

    @Test func objectsAndArraysMayNestToTheLimit() throws {
        let limit = String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)
        var value = try parse(limit)
        var depth = 0
        while case .array(let elements) = value, let first = elements.first {
            value = first
            depth += 1
        }
        #expect(depth == JSONValue.maxDepth - 1)
        let objects = String(repeating: #"{"a":"#, count: JSONValue.maxDepth) + "1" + String(repeating: "}", count: JSONValue.maxDepth)
        #expect(throws: Never.self) { try parse(objects) }
    }

    @Test func parsesASliceInTheMiddleOfAFrame() throws {
        let frame = Array(#"HDR{"id":7}TAIL"#.utf8)
        #expect(try JSONParser.parse(frame[3..<11]) == .object([key("id", .number("7"))]))
        // Offsets count from the slice's start.
        do {
            _ = try JSONParser.parse(frame[3..<10])
            Issue.record("an unclosed object parsed")
        } catch {
            #expect(error.offset == 7)
            #expect(error.column == 8)
        }
    }

    // MARK: Errors: where and what

    @Test func syntaxErrorsSayWhereAndWhatWasExpected() {
        let cases: [(text: String, offset: Int, found: JSONParseError.Found, expected: String)] = [
            ("", 0, .end, "a JSON value"),
            ("   ", 3, .end, "a JSON value"),
            ("hello", 0, .byte(UInt8(ascii: "h")), "a JSON value"),
            ("[1,]", 3, .byte(UInt8(ascii: "]")), "a JSON value"),
            ("[1 2]", 3, .byte(UInt8(ascii: "2")), "',' or ']'"),
            ("[1", 2, .end, "',' or ']'"),
            ("{", 1, .end, "a string key or '}'"),
            ("{1:2}", 1, .byte(UInt8(ascii: "1")), "a string key or '}'"),
            (#"{"a":1,}"#, 7, .byte(UInt8(ascii: "}")), "a string key"),
            (#"{"a"}"#, 4, .byte(UInt8(ascii: "}")), "':' after the key"),
            (#"{"a":1 "b":2}"#, 7, .byte(UInt8(ascii: "\"")), "',' or '}'"),
            (#"{"a":}"#, 5, .byte(UInt8(ascii: "}")), "a JSON value"),
            (#"{"a":1} x"#, 8, .byte(UInt8(ascii: "x")), "the end of the JSON text"),
            ("[01]", 2, .byte(UInt8(ascii: "1")), "',' or ']'"),
            ("[1.]", 3, .byte(UInt8(ascii: "]")), "a digit"),
            ("[-]", 2, .byte(UInt8(ascii: "]")), "a digit"),
            ("1e", 2, .end, "a digit"),
            ("1e+x", 3, .byte(UInt8(ascii: "x")), "a digit"),
            ("+1", 0, .byte(UInt8(ascii: "+")), "a JSON value"),
            (".5", 0, .byte(UInt8(ascii: ".")), "a JSON value"),
            ("NaN", 0, .byte(UInt8(ascii: "N")), "a JSON value"),
            ("[tru]", 4, .byte(UInt8(ascii: "]")), "'true'"),
            ("nul", 3, .end, "'null'"),
            ("fals e", 4, .byte(0x20), "'false'"),
            (#"["open"#, 6, .end, "'\"' to close the string"),
            ("[\"a\u{01}\"]", 3, .byte(0x01), "a string character (control characters must be escaped, e.g. \\n, \\u0001)"),
            ("\"tab\there\"", 4, .byte(0x09), "a string character (control characters must be escaped, e.g. \\n, \\u0001)"),
            (#"["\x"]"#, 3, .byte(UInt8(ascii: "x")), #"an escape: \" \\ \/ \b \f \n \r \t or \u and four hex digits"#),
            (#""\"#, 2, .end, #"an escape: \" \\ \/ \b \f \n \r \t or \u and four hex digits"#),
            (#"["\u12"]"#, 6, .byte(UInt8(ascii: "\"")), "four hex digits after \\u"),
            (#""\u00g0""#, 5, .byte(UInt8(ascii: "g")), "four hex digits after \\u"),
        ]
        for (text, offset, found, expected) in cases {
            let error = failure(text)
            #expect(error?.offset == offset, "\(text)")
            #expect(error?.found == found, "\(text)")
            #expect(error?.expected == expected, "\(text)")
        }
    }

    @Test func unpairedSurrogatesAreRefusedAtTheirEscape() {
        let cases: [(text: String, offset: Int, unit: UInt16)] = [
            (#""\ud800""#, 1, 0xD800),
            (#""ab\uDBFFx""#, 3, 0xDBFF),
            (#""\ud800\u0041""#, 1, 0xD800),
            (#""\ud800\ud800""#, 1, 0xD800),
            (#""\udc00""#, 1, 0xDC00),
            (#""\ude00\ud83d""#, 1, 0xDE00),
        ]
        for (text, offset, unit) in cases {
            let error = failure(text)
            #expect(error?.offset == offset, "\(text)")
            #expect(error?.found == .unpairedSurrogate(unit), "\(text)")
            #expect(error?.expected == "a surrogate pair, \\ud800...\\udbff then \\udc00...\\udfff", "\(text)")
        }
        // A high surrogate followed by \u and bad hex: the hex is the error.
        #expect(failure(#""\ud800\uzzzz""#)?.expected == "four hex digits after \\u")
    }

    @Test func bytesThatAreNotUTF8AreRefusedWhereTheyStart() {
        let quote = UInt8(ascii: "\""), a = UInt8(ascii: "a")
        let cases: [(bytes: [UInt8], offset: Int)] = [
            ([quote, 0xFF, quote], 1),
            ([quote, a, 0xC3, a, quote], 2),           // a lead byte without its continuation
            ([quote, 0x80, quote], 1),                 // a lone continuation byte
            ([quote, 0xC0, 0xAF, quote], 1),           // an overlong "/"
            ([quote, 0xED, 0xA0, 0x80, quote], 1),     // a surrogate encoded in UTF-8
            ([quote, 0xC3, 0xA9, a, 0xF4, 0x90, 0x80, 0x80, quote], 4), // é, a, then above U+10FFFF
            ([quote, a, UInt8(ascii: "\\"), UInt8(ascii: "n"), 0xFE, quote], 4), // after an escape
        ]
        for (bytes, offset) in cases {
            let error = failure(bytes: bytes)
            #expect(error?.offset == offset, "\(bytes)")
            #expect(error?.found == .invalidUTF8, "\(bytes)")
            #expect(error?.expected == "UTF-8 text")
        }
        // Outside strings any non-ASCII byte is simply not JSON.
        #expect(failure(bytes: [0xC3, 0xA9])?.found == .byte(0xC3))
    }

    @Test func nestingDeeperThanTheLimitIsRefusedAtTheOpeningBracket() {
        let deep = String(repeating: "[", count: JSONValue.maxDepth + 1) + String(repeating: "]", count: JSONValue.maxDepth + 1)
        let error = failure(deep)
        #expect(error?.offset == JSONValue.maxDepth)
        #expect(error?.found == .tooDeep)
        #expect(error?.description == "column 65: expected at most 64 levels of nested objects and arrays, found level 65")
        // Without reading the rest: an endless document fails the same way.
        #expect(failure(String(repeating: #"{"a":"#, count: 10_000))?.found == .tooDeep)
    }

    @Test func linesAndColumnsCountLineFeedsAndScalars() {
        let error = failure("{\n  \"é€😀\": 1,\n  \"b\" 2\n}")
        #expect(error?.line == 3)
        #expect(error?.column == 7)
        #expect(error?.offset == 26)
        #expect(error?.description == "line 3, column 7: expected ':' after the key, found '2'")
        #expect(failure(#"{"é": x}"#)?.column == 7)
    }

    @Test func descriptionsNameWhatWasFound() {
        #expect(failure("[1 2]")?.description == "column 4: expected ',' or ']', found '2'")
        #expect(failure("[1")?.description == "column 3: expected ',' or ']', found the end of the text")
        #expect(failure("[\"\u{01}\"]")?.description.hasSuffix(", found byte 0x01") == true)
        #expect(failure("[1 ]x")?.description == "column 5: expected the end of the JSON text, found 'x'")
        #expect(failure(#""\udc00""#)?.description == "column 2: expected a surrogate pair, \\ud800...\\udbff then \\udc00...\\udfff, found \\udc00 alone")
        #expect(failure(bytes: [UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")])?.description == "column 2: expected UTF-8 text, found bytes that are not UTF-8")
    }
}
