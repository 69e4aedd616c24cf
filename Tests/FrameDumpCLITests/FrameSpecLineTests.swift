import Testing
@testable import FrameDumpCLI

@Suite struct FrameSpecLineTests {
    func parse(_ line: String) throws(FrameSpecLine.ParseError) -> FrameSpecLine {
        try FrameSpecLine.parse(Array(line.utf8)[...])
    }

    func message(_ line: String) -> String? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func fieldValuesAreExactUpToUInt64Max() throws {
        let line = try parse(#"{"fields":{"cmd":18446744073709551615,"seq":9007199254740993,"ver":0}}"#)
        #expect(line.fields == ["cmd": .max, "seq": 9_007_199_254_740_993, "ver": 0])
        #expect(line.body.isEmpty)
    }

    @Test func fieldValuesMustBeNonNegativeIntegers() {
        for (value, shown) in [("-1", "-1"), ("-0", "-0"), ("1.0", "1.0"), ("1e2", "1e2"), ("true", "true"), ("null", "null"),
                               (#""7""#, #""7""#), ("18446744073709551616", "18446744073709551616"), (#"{"b":1,"a":2}"#, #"{"a":2,"b":1}"#)] {
            #expect(message(#"{"fields":{"cmd":\#(value)}}"#) == "expected field 'cmd' to be a non-negative integer, found \(shown)")
        }
        #expect(message(#"{"fields":[1]}"#) == "expected \"fields\" to be an object of field name → integer")
    }

    @Test func bodiesInEachForm() throws {
        #expect(try parse(#"{"body_hex":"00 ff\t10"}"#).body == [0x00, 0xFF, 0x10])
        #expect(try parse(#"{"body_text":"h\u00e9\n"}"#).body == Array("hé\n".utf8))
        #expect(try parse(#"{"body_json":{"to":["bob"], "id":7.50, "s":"\/"}}"#).body == Array(#"{"id":7.50,"s":"\/","to":["bob"]}"#.utf8))
        #expect(try parse(#"{"body_json":null}"#).body == Array("null".utf8))
        #expect(try parse("{}") == FrameSpecLine(fields: [:], body: []))
    }

    @Test func linesThatAreNotFramesSayWhatWasExpected() {
        #expect(message("[1]") == #"expected a JSON object, e.g. {"fields":{"cmd":1},"body_hex":"00ff"}"#)
        #expect(message(#"{"fields":{"cmd":1}"#) == "expected a JSON object (column 20: expected ',' or '}', found the end of the text)")
        #expect(message(#"{"body_text":"\ud800"}"#) == #"expected a JSON object (column 15: expected a surrogate pair, \ud800...\udbff then \udc00...\udfff, found \ud800 alone)"#)
        #expect(message(#"{"bdy_hex":"00"}"#) == "unknown key 'bdy_hex'; expected fields, body_hex, body_text or body_json")
        #expect(message(#"{"body_text":"a","body_hex":"00"}"#) == "expected one body key, found body_hex and body_text")
        #expect(message(#"{"body_text":"a","body_text":"b"}"#) == "expected each key once in the line, found 'body_text' twice")
        #expect(message(#"{"fields":{"cmd":1,"cmd":2}}"#) == "expected each key once in \"fields\", found 'cmd' twice")
        #expect(message(#"{"body_hex":7}"#) == "expected \"body_hex\" to be a string")
        #expect(message(#"{"body_text":[]}"#) == "expected \"body_text\" to be a string")
        #expect(message(#"{"body_hex":"0"}"#) == "expected an even number of hex digits in \"body_hex\"")
    }

    @Test func jsonBodyTakesAnyValueAndSaysWhereItIsNotJSON() throws {
        #expect(try FrameSpecLine.jsonBody(#" {"b": 1, "a": [1, 2]} "#) == Array(#"{"a":[1,2],"b":1}"#.utf8))
        #expect(try FrameSpecLine.jsonBody("42") == Array("42".utf8))
        #expect(throws: FrameSpecLine.ParseError(message: "expected a JSON value (line 2, column 1: expected a string key, found '}')")) {
            try FrameSpecLine.jsonBody("{\"a\":1,\n}")
        }
    }
}
