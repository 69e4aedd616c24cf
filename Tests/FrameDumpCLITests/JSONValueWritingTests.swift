import Testing
@testable import FrameDumpCLI

@Suite struct JSONValueWritingTests {
    func written(_ text: String, _ layout: JSONValue.Layout) throws -> String {
        var buffer: [UInt8] = []
        try JSONParser.parse(Array(text.utf8)[...]).append(to: &buffer, layout: layout)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func compactSortedDropsWhitespaceAndSortsKeysAtEveryLevel() throws {
        let input = #"{ "b" : [ 1 , { "z": null, "y": true } ], "a": {}, "B": [], "é": false, "a0": "x" }"#
        #expect(try written(input, .compactSorted) == #"{"B":[],"a":{},"a0":"x","b":[1,{"y":true,"z":null}],"é":false}"#)
    }

    @Test func numbersAndStringsAreWrittenAsTheyWereRead() throws {
        let input = #"[1.50e+3, -0, 18446744073709551616, "\/\u00e9\n", "é"]"#
        #expect(try written(input, .compactSorted) == #"[1.50e+3,-0,18446744073709551616,"\/\u00e9\n","é"]"#)
    }

    @Test func duplicateKeysKeepTheirOrderWhenSorted() throws {
        #expect(try written(#"{"b":1,"a":2,"b":3,"a":4}"#, .compactSorted) == #"{"a":2,"a":4,"b":1,"b":3}"#)
    }

    @Test func scalarsStandAlone() throws {
        #expect(try written(" 7 ", .compactSorted) == "7")
        #expect(try written(#" "x" "#, .indented) == #""x""#)
    }

    @Test func indentedKeepsMemberOrder() throws {
        #expect(try written(#"{"b":[{}],"a":1}"#, .indented) == "{\n  \"b\": [\n    {}\n  ],\n  \"a\": 1\n}")
    }
}
