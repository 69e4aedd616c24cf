import Testing
@testable import FrameDumpCLI

@Suite struct BodyPresentationTests {
    func present(_ bytes: [UInt8]) -> BodyPresentation { BodyPresentation(bytes[...]) }

    @Test func jsonObjectsAndArraysArePrettyPrinted() {
        #expect(present(Array(#"{"a":1}"#.utf8)) == .json(Array("{\n  \"a\": 1\n}".utf8)))
    }

    @Test func printableUTF8IsText() {
        #expect(present(Array("hello wörld".utf8)) == .text(["hello wörld"]))
        #expect(present(Array("a\tb\r\nc\n".utf8)) == .text(["a\tb", "c"]))
        #expect(present(Array("a\n\nb".utf8)) == .text(["a", "", "b"]))
        #expect(present(Array("42".utf8)) == .text(["42"]))
    }

    @Test func controlsAndInvalidUTF8AreBinary() {
        #expect(present([0x00, 0x41]) == .binary)
        #expect(present(Array("a\rb".utf8)) == .binary)
        #expect(present(Array("ab\r".utf8)) == .binary)
        #expect(present(Array("\u{1B}[31m".utf8)) == .binary)
        #expect(present(Array("\u{85}".utf8)) == .binary)
        #expect(present([0xff, 0xfe]) == .binary)
        #expect(present([0x7f]) == .binary)
    }
}

@Suite struct HexASCIIDumpTests {
    func dump(_ bytes: [UInt8], indent: String = "") -> String {
        var buffer: [UInt8] = []
        HexASCIIDump.append(bytes[...], indent: indent, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    // Expected lines produced by `hexdump -C` (util-linux) on the same bytes, closing total line removed.
    @Test func matchesHexdumpC() {
        #expect(dump(Array("0123456789abcdef".utf8)) == "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n")
        #expect(dump(Array("Hello\n".utf8)) == "00000000  48 65 6c 6c 6f 0a                                 |Hello.|\n")
        #expect(dump(Array("0123456789abcdefXYZ\u{7f}".utf8)) == """
        00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|
        00000010  58 59 5a 7f                                       |XYZ.|

        """)
    }

    @Test func indentAndSliceOffsets() {
        let bytes: [UInt8] = [0, 1, 2, 3, 4]
        var buffer: [UInt8] = []
        HexASCIIDump.append(bytes[2...], indent: "  ", to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "  00000000  02 03 04                                          |...|\n")
        #expect(dump([]) == "")
    }
}
