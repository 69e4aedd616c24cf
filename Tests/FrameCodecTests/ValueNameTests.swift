import Testing
@testable import FrameCodec

@Suite("Format spec: value names")
struct ValueNameTests {
    private func error(_ spec: String) -> FormatSpecError? {
        do {
            _ = try FrameFormat(spec: spec)
            return nil
        } catch {
            return error
        }
    }

    @Test func namesFollowTheTypeInSpecOrder() throws {
        let format = try FrameFormat(spec: "cmd:u8{3=msg,1=ping,0x10=big_one,2=two-words} len:u16")
        let cmd = format.fields[0]
        #expect(cmd.valueNames == [
            ValueName(value: 3, name: "msg"), ValueName(value: 1, name: "ping"),
            ValueName(value: 16, name: "big_one"), ValueName(value: 2, name: "two-words"),
        ])
        #expect(cmd.name(ofValue: 16) == "big_one")
        #expect(cmd.name(ofValue: 4) == nil)
        #expect(cmd.value(named: "ping") == 1)
        #expect(cmd.value(named: "PING") == nil)
        #expect(format.fields[1].valueNames.isEmpty)
    }

    @Test func namesGoAfterAnExpectedValueAndOnAMagic() throws {
        let format = try FrameFormat(spec: "type:u8=20..24{20=change_cipher_spec,23=application_data} magic:u16=0xFEFD{0xFEFD=fefd} len:u16")
        #expect(format.fields[0].expected == 20...24)
        #expect(format.fields[0].name(ofValue: 23) == "application_data")
        #expect(format.fields[1].expected == 0xFEFD...0xFEFD)
        #expect(format.magicFieldIndex == 1)
        #expect(format.fields[1].name(ofValue: 0xFEFD) == "fefd")
    }

    @Test func bitFieldsAndVarintsTakeNamesUpToTheirOwnWidth() throws {
        let format = try FrameFormat(spec: "type:b4{1=connect,14=disconnect} flags:b4 len:varint4 id:varint{300=big}")
        #expect(format.fields[0].name(ofValue: 14) == "disconnect")
        #expect(format.fields.last?.name(ofValue: 300) == "big")
        #expect(error("type:b4{16=x} flags:b4 len:u8")?.expected.hasPrefix("a value from 0 to 15 (fits in 4 bits)") == true)
        #expect(error("f:b1{2=x} g:b7 len:u8")?.expected.hasPrefix("a value from 0 to 1 (fits in 1 bit)") == true)
    }

    @Test func theH12PresetNamesItsCommands() {
        let cmd = FrameFormat.h12.fields[2]
        #expect(cmd.name == "cmd")
        #expect([1, 2, 3, 4].map { cmd.name(ofValue: $0) } == ["ping", "pong", "msg", "ack"])
    }

    @Test(arguments: [
        ("cmd:u8{1=ping len:u16", 14, "'}' closing the value names"),
        ("cmd:u8{1=ping, 2=pong} len:u16", 15, "'}' closing the value names"),
        ("cmd:u8{} len:u16", 8, "a value name like 1=ping"),
        ("cmd:u8{1} len:u16", 8, "a value name like 1=ping"),
        ("cmd:u8{1=ping,,2=pong} len:u16", 15, "a value name like 1=ping"),
        ("cmd:u8{1=} len:u16", 10, "a value name (a letter or '_'"),
        ("cmd:u8{1=9lives} len:u16", 10, "a value name (a letter or '_'"),
        ("cmd:u8{256=big} len:u16", 8, "a value from 0 to 255 (fits in 1 byte)"),
        ("cmd:u8{x=big} len:u16", 8, "a value from 0 to 255"),
        ("cmd:u8{1=a,1=b} len:u16", 12, "each value named once (1 already has a name)"),
        ("cmd:u8{1=a,2=a} len:u16", 14, "each name used once ('a' already names a value)"),
        ("len:u16 c:crc32{1=a}", 16, "value names only after an integer field"),
        ("len:u16 p:bytes2{1=a}", 17, "value names only after an integer field"),
    ])
    func badNamesSayWhereAndWhat(_ spec: String, _ column: Int, _ expected: String) {
        let found = error(spec)
        #expect(found?.column == column, "\(spec): \(found.map(String.init(describing:)) ?? "no error")")
        #expect(found?.expected.hasPrefix(expected) == true, "\(spec): \(found?.expected ?? "no error")")
    }

    @Test func theLengthFieldTakesNoNames() {
        // The length field is chosen after the fields are read, so FrameFormat's own check says it.
        let found = error("cmd:u8 len:u16{1=one}")
        #expect(found?.column == 8)
        #expect(found?.expected == "value names only on a value field like cmd:u8{1=ping}: 'len' is the frame's length field")
        #expect(throws: FrameFormatError.invalidValueName(field: 0, "only integer value fields take value names")) {
            try FrameFormat(name: "x", fields: [HeaderField(name: "len", width: 2, role: .length, valueNames: [ValueName(value: 1, name: "one")])])
        }
    }

    @Test func formatsBuiltInCodeAreCheckedToo() {
        #expect(throws: FrameFormatError.invalidValueName(field: 0, "value 256 does not fit in 1 byte")) {
            try FrameFormat(name: "x", fields: [
                HeaderField(name: "cmd", width: 1, valueNames: [ValueName(value: 256, name: "big")]),
                HeaderField(name: "len", width: 2, role: .length),
            ])
        }
        #expect(throws: FrameFormatError.invalidValueName(field: 0, "name 'a' is used twice")) {
            try FrameFormat(name: "x", fields: [
                HeaderField(name: "cmd", width: 1, valueNames: [ValueName(value: 1, name: "a"), ValueName(value: 2, name: "a")]),
                HeaderField(name: "len", width: 2, role: .length),
            ])
        }
    }

    @Test func namesChangeNoFrameBoundary() throws {
        let named = try FrameFormat(spec: "cmd:u8{1=ping} len:u16")
        let plain = try FrameFormat(spec: "cmd:u8 len:u16")
        let bytes: [UInt8] = [1, 0, 2, 0xAA, 0xBB, 9, 0, 0]
        var first = FrameDecoder(format: named)
        var second = FrameDecoder(format: plain)
        var outputs: ([FrameDecoderOutput], [FrameDecoderOutput]) = ([], [])
        first.process(bytes) { outputs.0.append($0) }
        second.process(bytes) { outputs.1.append($0) }
        #expect(outputs.0.count == 2)
        #expect(outputs.0 == outputs.1)
    }
}
