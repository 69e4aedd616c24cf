import Testing
@testable import FrameDumpCLI

@Suite struct ByteFormattingTests {
    func text(_ build: (inout [UInt8]) -> Void) -> String {
        var buffer: [UInt8] = []
        build(&buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func decimal() {
        for value: UInt64 in [0, 7, 9, 10, 99, 100, 65277, 4_294_967_295, .max] {
            #expect(text { ByteFormatting.appendDecimal(value, to: &$0) } == String(value))
        }
    }

    @Test func hexOfBytes() {
        #expect(text { ByteFormatting.appendHex([0x00, 0x0f, 0xa5, 0xff][...], to: &$0) } == "000fa5ff")
        #expect(text { ByteFormatting.appendHex([UInt8]()[...], to: &$0) } == "")
        let all = (0...255).map { UInt8($0) }
        #expect(text { ByteFormatting.appendHex(all[...], to: &$0) } == all.map { String(format2: $0) }.joined())
    }

    @Test func hexOfValuePadsAndGrows() {
        #expect(text { ByteFormatting.appendHex(UInt64(0xfefd), digits: 4, to: &$0) } == "fefd")
        #expect(text { ByteFormatting.appendHex(UInt64(0x1), digits: 8, to: &$0) } == "00000001")
        #expect(text { ByteFormatting.appendHex(UInt64(0x12345), digits: 2, to: &$0) } == "12345")
        #expect(text { ByteFormatting.appendHex(UInt64.max, digits: 2, to: &$0) } == "ffffffffffffffff")
    }

    @Test func jsonStringEscapes() {
        #expect(text { JSONString.append("a\"b\\c\n\t\u{01}é", to: &$0) } == "\"a\\\"b\\\\c\\n\\t\\u0001é\"")
    }
}

private extension String {
    init(format2 byte: UInt8) {
        let hex = String(byte, radix: 16)
        self = hex.count == 1 ? "0" + hex : hex
    }
}
