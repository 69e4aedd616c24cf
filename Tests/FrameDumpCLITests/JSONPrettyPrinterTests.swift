import Testing
@testable import FrameDumpCLI

@Suite struct JSONPrettyPrinterTests {
    func pretty(_ json: String) -> String? {
        JSONPrettyPrinter.format(Array(json.utf8)[...]).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func indentsKeepingKeyOrderAndNumberText() {
        let input = #"{"id":7,"to":["bob",1.50e+3],"ok":true,"none":null,"x":{},"y":[]}"#
        #expect(pretty(input) == """
        {
          "id": 7,
          "to": [
            "bob",
            1.50e+3
          ],
          "ok": true,
          "none": null,
          "x": {},
          "y": []
        }
        """)
    }

    @Test func acceptsSurroundingAndInnerWhitespace() {
        #expect(pretty(" \n[ 1 , -0.5 ]\r\n") == "[\n  1,\n  -0.5\n]")
    }

    @Test func stringsAreCopiedVerbatim() {
        #expect(pretty(#"["a\"b\\u00e9\/é"]"#) == "[\n  \"a\\\"b\\\\u00e9\\/é\"\n]")
    }

    @Test func rejectsWhatIsNotAJSONObjectOrArray() {
        for input in [
            "", "hello", "42", "\"text\"", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "[01]", "[1.]", "[-]",
            "[tru]", "{\"a\":1} x", "[\"\u{01}\"]", "[\"\\x\"]", "[\"\\u12\"]", "{1:2}", "[1 2]", "[\"open",
        ] {
            #expect(pretty(input) == nil, "\(input)")
        }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: JSONPrettyPrinter.maxDepth + 1) + String(repeating: "]", count: JSONPrettyPrinter.maxDepth + 1)
        #expect(pretty(deep) == nil)
        let limit = String(repeating: "[", count: JSONPrettyPrinter.maxDepth) + String(repeating: "]", count: JSONPrettyPrinter.maxDepth)
        #expect(pretty(limit) != nil)
    }
}

extension JSONPrettyPrinterTests {
    @Test func worksOnASliceInTheMiddleOfAFrame() {
        let frame = Array("HDR[1]TAIL".utf8)
        #expect(JSONPrettyPrinter.format(frame[3..<6]).map { String(decoding: $0, as: UTF8.self) } == "[\n  1\n]")
    }
}
