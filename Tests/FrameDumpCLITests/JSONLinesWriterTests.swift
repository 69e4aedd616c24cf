import FrameCodec
import Foundation
import Testing
@testable import FrameDumpCLI

@Suite struct JSONLinesWriterTests {
    @Test func frameWithChecksumInFixedKeyOrder() {
        var writer = JSONLinesWriter(format: TestFormats.h12, includesPayload: true)
        let frame = TestFormats.frame(TestFormats.h12, fields: ["ver": 1, "cmd": 3], body: Array("hi".utf8), offset: 40, crcOK: true)
        let crc = CRC32.checksum(Array("hi".utf8))
        #expect(writer.text([.frame(frame)]) == """
        {"type":"frame","offset":40,"length":2,"fields":{"magic":21930,"ver":1,"cmd":3,"len":2,"crc":\(crc)},"crc_ok":true,"payload_hex":"6869","frame_length":14}

        """)
    }

    @Test func crcOKOnlyForFormatsWithAChecksumAndFalseWhenBad() {
        var writer = JSONLinesWriter(format: TestFormats.h12, includesPayload: false)
        let bad = TestFormats.frame(TestFormats.h12, body: [], crcOK: false)
        #expect(writer.text([.frame(bad)]).contains(#","crc_ok":false,"frame_length":12}"#))
        var plain = JSONLinesWriter(format: TestFormats.opaqueLE, includesPayload: true)
        let frame = TestFormats.frame(TestFormats.opaqueLE, body: [0xAB])
        #expect(!plain.text([.frame(frame)]).contains("crc_ok"))
    }

    @Test func aSingleValuedFieldShowsTheValueTheFrameHoldsEvenWhenItIsNotTheExpectedOne() throws {
        // The magic's key and digits are written as one piece only when the frame holds them;
        // a frame built by hand may hold another value, in a fixed and in a walked layout.
        let fixed = TestFormats.h12
        var writer = JSONLinesWriter(format: fixed, includesPayload: false)
        var bytes = TestFormats.frame(fixed, fields: ["ver": 1, "cmd": 3], body: [7]).bytes
        bytes[bytes.startIndex] = 0x12
        let frame = Frame(offset: 0, bytes: bytes, headerLength: 12, crcOK: true)
        #expect(writer.text([.frame(frame)]).contains(#""fields":{"magic":4778,"ver":1,"cmd":3,"len":1,"#))
        let walked = try FrameFormat(spec: "magic:u8=0xC0 len:varint")
        var walkedWriter = JSONLinesWriter(format: walked, includesPayload: false)
        let held = Frame(offset: 0, bytes: [0xC0, 0x01, 0x09][...], headerLength: 2, crcOK: nil)
        let other = Frame(offset: 3, bytes: [0xC1, 0x01, 0x09][...], headerLength: 2, crcOK: nil)
        #expect(walkedWriter.text([.frame(held), .frame(other)]) == """
        {"type":"frame","offset":0,"length":1,"fields":{"magic":192,"len":1},"frame_length":3}
        {"type":"frame","offset":3,"length":1,"fields":{"magic":193,"len":1},"frame_length":3}

        """)
    }

    @Test func opaqueFieldsAreLeftOutAndLittleEndianIsRead() {
        var writer = JSONLinesWriter(format: TestFormats.opaqueLE, includesPayload: true)
        let frame = Frame(offset: 0, bytes: [0xEE, 0xEE, 0x03, 0x00, 0x61, 0x62, 0x63][...], headerLength: 4, crcOK: nil)
        #expect(writer.text([.frame(frame)]) == #"{"type":"frame","offset":0,"length":3,"fields":{"len":3},"payload_hex":"616263","frame_length":7}"# + "\n")
    }

    @Test func payloadStartsWhereTheFormatStrips() throws {
        var format = TestFormats.opaqueLE
        format.payloadOffset = 2
        var writer = JSONLinesWriter(format: format, includesPayload: true)
        let frame = Frame(offset: 0, bytes: [0xEE, 0xEE, 0x01, 0x00, 0x61][...], headerLength: 4, crcOK: nil)
        #expect(writer.text([.frame(frame)]).hasSuffix(#""length":3,"fields":{"len":1},"payload_hex":"010061","frame_length":5}"# + "\n"))
    }

    @Test func frameLengthAccountsForTheFrameWhenStripPassesItsEnd() {
        var format = TestFormats.opaqueLE
        format.payloadOffset = 10
        var writer = JSONLinesWriter(format: format, includesPayload: true)
        let frame = Frame(offset: 7, bytes: [0xEE, 0xEE, 0x01, 0x00, 0x61][...], headerLength: 4, crcOK: nil)
        // The payload is empty, yet offset + frame_length is where the next record starts.
        #expect(writer.text([.frame(frame)]).hasSuffix(#""offset":7,"length":0,"fields":{"len":1},"payload_hex":"","frame_length":5}"# + "\n"))
    }

    @Test func eventsCarryOffsetLengthAndDeclared() {
        var writer = JSONLinesWriter(format: TestFormats.h12, includesPayload: true)
        #expect(writer.text([
            .skip(offset: 20, byteCount: 11),
            .oversize(offset: 148, declaredLength: .max),
            .truncated(offset: 180, byteCount: 32),
            .gap(offset: 4096, byteCount: 1448),
        ]) == """
        {"type":"skip","offset":20,"length":11}
        {"type":"oversize","offset":148,"length":1,"declared":18446744073709551615}
        {"type":"truncated","offset":180,"length":32}
        {"type":"gap","offset":4096,"length":1448}

        """)
    }

    @Test func fieldNamesAreEscapedAndEveryLineIsValidJSON() throws {
        let format = try FrameFormat(name: "odd", fields: [HeaderField(name: "a\"b\\c", width: 1, role: .length)])
        var writer = JSONLinesWriter(format: format, includesPayload: true)
        let text = writer.text([.frame(Frame(offset: 0, bytes: [1, 0x7F][...], headerLength: 1, crcOK: nil))])
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let fields = object?["fields"] as? [String: Any]
        #expect(fields?["a\"b\\c"] as? Int == 1)
        #expect(object?["payload_hex"] as? String == "7f")
    }

    @Test func finishWritesNothing() {
        var writer = JSONLinesWriter(format: TestFormats.h12, includesPayload: true)
        #expect(writer.text([], summary: DecodeSummary()) == "")
    }
}
