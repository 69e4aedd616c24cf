import Testing
@testable import FrameCodec

@Suite("Presets")
struct PresetTests {
    @Test func fefd() {
        let format = FrameFormat.fefd
        #expect(format.name == "fefd")
        #expect(format.fields == [
            HeaderField(name: "magic", width: 2, expected: 0xFEFD...0xFEFD),
            HeaderField(name: "len", width: 2, role: .length),
        ])
        #expect(format.headerLength == 4)
        #expect(format.magicFieldIndex == 0)
        #expect(format.lengthCounts == .body)
        #expect(format.maxFrameLength == 16 * 1024 * 1024)
    }

    @Test func h12() {
        let format = FrameFormat.h12
        #expect(format.fields.map(\.name) == ["magic", "ver", "cmd", "len", "crc"])
        #expect(format.fields.map(\.width) == [2, 1, 1, 4, 4])
        #expect(format.headerLength == 12)
        #expect(format.fields[0].expected == 0x55AA...0x55AA)
        #expect(format.fields[4].role == .checksum(.crc32, .body))
        #expect(format.fields.allSatisfy { $0.byteOrder == .bigEndian })
        #expect(format.lengthFieldIndex == 3)
    }

    @Test func bareLengths() {
        #expect(FrameFormat.u16.fields == [HeaderField(name: "len", width: 2, role: .length)])
        #expect(FrameFormat.u32.fields == [HeaderField(name: "len", width: 4, role: .length)])
        #expect(FrameFormat.u16.magicFieldIndex == nil)
    }

    @Test func tls() {
        let format = FrameFormat.tls
        #expect(format.fields.map(\.name) == ["type", "version", "len"])
        #expect(format.fields[0].expected == 20...24)
        #expect(format.fields[1].expected == 0x0300...0x0304)
        #expect(format.headerLength == 5)
        #expect(format.maxFrameLength == 5 + 16384 + 2048)
        // A range is checked but is not a magic to scan for.
        #expect(format.magicFieldIndex == nil)
    }

    @Test func everyPresetEqualsItsDocumentedSpec() throws {
        let specs = [
            "fefd": "magic:u16=0xFEFD len:u16",
            "h12": "magic:u16=0x55AA ver:u8 cmd:u8{1=ping,2=pong,3=msg,4=ack} len:u32 crc:crc32",
            "u16": "len:u16",
            "u32": "len:u32",
            "tls": "type:u8=20..24 version:u16=0x0300..0x0304 len:u16 max=18437",
            "varint": "len:varint5",
            "lines": "delim=\\n,\\r\\n max=64K",
            "mqtt": "type:b4=1..15 flags:b4 len:varint4 max=268435460",
        ]
        for preset in FrameFormat.presets {
            let parsed = try FrameFormat(spec: try #require(specs[preset.name]))
            #expect(parsed.fields == preset.fields, "\(preset.name)")
            #expect(parsed.maxFrameLength == preset.maxFrameLength, "\(preset.name)")
            #expect(parsed.lengthCounts == preset.lengthCounts && parsed.lengthAdjustment == preset.lengthAdjustment)
            #expect(parsed.payloadOffset == preset.payloadOffset)
            #expect(parsed.delimiters == preset.delimiters && parsed.keepsDelimiter == preset.keepsDelimiter, "\(preset.name)")
        }
    }

    @Test func lookupByName() {
        #expect(FrameFormat.presets.map(\.name) == ["fefd", "h12", "u16", "u32", "tls", "varint", "lines", "mqtt"])
        for preset in FrameFormat.presets {
            #expect(FrameFormat.preset(named: preset.name) == preset)
        }
        #expect(FrameFormat.preset(named: "nope") == nil)
        #expect(FrameFormat.preset(named: "") == nil)
    }
}

@Suite("Preset detection")
struct PresetDetectionTests {
    @Test func fefdFromTheDocumentedHeader() {
        #expect(FrameFormat.detect([0xFE, 0xFD, 0x00, 0xF9, 0x7B, 0x22]) == .fefd)
        #expect(FrameFormat.detect([0xFE, 0xFD]) == .fefd)
    }

    @Test func h12() {
        let header: [UInt8] = [0x55, 0xAA, 0x01, 0x02, 0x00, 0x00, 0x00, 0x05, 0xDE, 0xAD, 0xBE, 0xEF]
        #expect(FrameFormat.detect(header) == .h12)
        #expect(FrameFormat.detect(header.prefix(2)) == .h12)
        // A length beyond 16 MiB is not an h12 header.
        var huge = header
        huge[4] = 0xFF
        #expect(FrameFormat.detect(huge) == nil)
    }

    @Test func tlsRecords() {
        // A TLS 1.2 ClientHello record header: handshake, 0x0301, length 0x00C8.
        #expect(FrameFormat.detect([0x16, 0x03, 0x01, 0x00, 0xC8, 0x01]) == .tls)
        #expect(FrameFormat.detect([0x17, 0x03, 0x03]) == .tls)
        // Content type out of range, version out of range, length over 2^14 + 2048.
        #expect(FrameFormat.detect([0x19, 0x03, 0x03, 0x00, 0x10]) == nil)
        #expect(FrameFormat.detect([0x16, 0x03, 0x05, 0x00, 0x10]) == nil)
        #expect(FrameFormat.detect([0x16, 0x03, 0x03, 0x48, 0x01]) == nil)
        #expect(FrameFormat.detect([0x16, 0x03, 0x03, 0x48, 0x00]) == .tls)
    }

    @Test func neverGuessesBareLengths() {
        #expect(FrameFormat.detect([0x00, 0x0C, 0x48, 0x45, 0x4C, 0x4C, 0x4F]) == nil)
        #expect(FrameFormat.detect([UInt8]()) == nil)
        #expect(FrameFormat.detect([0xFE]) == nil)
        #expect(FrameFormat.detect([0x16, 0x03]) == nil)
    }

    @Test func acceptsAnyCollection() {
        let slice: ArraySlice<UInt8> = [0x00, 0xFE, 0xFD, 0x00][1...]
        #expect(FrameFormat.detect(slice) == .fefd)
    }
}

/// The worked examples in docs/formats.md, decoded end to end.
@Suite("Documented examples")
struct DocumentedExampleTests {
    private func decode(_ hex: String, _ format: FrameFormat) throws -> [FrameDecoderOutput] {
        var decoder = FrameDecoder(format: format)
        var outputs: [FrameDecoderOutput] = []
        decoder.process(try HexDump.parse(hex)) { outputs.append($0) }
        decoder.finish { outputs.append($0) }
        return outputs
    }

    @Test func fefdJSONMessage() throws {
        let hex = "fefd00f9" + String(repeating: "20", count: 249)
        let outputs = try decode(hex, .fefd)
        guard outputs.count == 1, case .frame(let frame) = outputs[0] else {
            Issue.record("expected one frame, got \(outputs)")
            return
        }
        #expect(frame.bytes.count == 253)
        #expect(frame.body.count == 249)
        #expect(FrameFormat.fefd.value(ofField: "len", in: frame.header) == 249)
    }

    @Test func h12CommandWithCRC() throws {
        let outputs = try decode("55aa 01 02 0000000b a7d45f90 7b226f6b223a747275657d", .h12)
        guard outputs.count == 1, case .frame(let frame) = outputs[0] else {
            Issue.record("expected one frame, got \(outputs)")
            return
        }
        #expect(frame.bytes.count == 23)
        #expect(frame.crcOK == true)
        #expect(Array(frame.body) == Array(#"{"ok":true}"#.utf8))
        #expect(FrameFormat.h12.value(ofField: "ver", in: frame.header) == 1)
        #expect(FrameFormat.h12.value(ofField: "cmd", in: frame.header) == 2)
        #expect(FrameFormat.h12.value(ofField: "crc", in: frame.header) == 0xA7D4_5F90)
    }

    @Test func littleEndianWholeFrameLength() throws {
        let format = try FrameFormat(spec: "ver:u8 len:u32le flags:u16 ; counts=frame max=64K")
        #expect(format.headerLength == 7)
        let frame = "01 20000000 0000" + String(repeating: " ab", count: 25)
        let outputs = try decode(frame + frame, format)
        #expect(outputs.count == 2)
        for output in outputs {
            guard case .frame(let decoded) = output else {
                Issue.record("expected frames, got \(output)")
                continue
            }
            #expect(decoded.bytes.count == 32)
        }
    }
}
