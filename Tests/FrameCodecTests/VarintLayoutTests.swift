import Testing
import TestSupport
@testable import FrameCodec

/// Varint fields (protobuf / MQTT LEB128), bit fields and lengths computed from several
/// fields: spec, decoder, encoder.
@Suite("Varint, bit-field and computed-length layouts")
struct VarintLayoutTests {
    /// protobuf's own examples (Encoding guide, "Base 128 Varints"): 1 → 01, 150 → 96 01.
    @Test func readsProtobufVarints() {
        let cases: [([UInt8], UInt64, Int)] = [
            ([0x01], 1, 1), ([0x96, 0x01], 150, 2), ([0x7F], 127, 1), ([0x80, 0x01], 128, 2),
            ([0xFF, 0xFF, 0xFF, 0x7F], 268_435_455, 4), ([0x80, 0x00], 0, 2),
            ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], UInt64.max, 10),
        ]
        for (bytes, value, count) in cases {
            let read = bytes.withUnsafeBytes { FrameLayout.readVarint($0.baseAddress!, available: $0.count, maxBytes: 10) }
            guard case .value(let got, let gotCount) = read else {
                Issue.record("\(bytes) did not read")
                continue
            }
            #expect(got == value && gotCount == count, "\(bytes)")
        }
        let overlong: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]
        let read = overlong.withUnsafeBytes { FrameLayout.readVarint($0.baseAddress!, available: $0.count, maxBytes: 10) }
        guard case .malformed = read else { Issue.record("a value over 64 bits must be malformed"); return }
    }

    /// protobuf `writeDelimitedTo`: a varint length, then the message. A 300-byte message has
    /// the prefix AC 02.
    @Test func varintPresetFramesDelimitedMessages() {
        let message = [UInt8](repeating: 0x42, count: 300)
        let stream: [UInt8] = [0x03, 0x08, 0x96, 0x01] + [0xAC, 0x02] + message + [0x00]
        for chunks in [[stream], stream.map { [$0] }] {
            let outputs = decodeAll(.varint, chunks)
            #expect(outputs.compactMap(\.frame).map { [$0.offset, UInt64($0.headerLength), UInt64($0.body.count)] }
                == [[0, 1, 3], [4, 2, 300], [306, 1, 0]])
            #expect(isContiguous(outputs, length: UInt64(stream.count)))
        }
        #expect(FrameFormat.varint.value(ofField: 0, in: [0xAC, 0x02][...]) == 300)
    }

    /// Netty's ProtobufVarint32FrameDecoder rejects a sixth varint byte ("malformed varint"):
    /// so does `varint5`, as one oversize event; decoding resyncs on the next byte.
    @Test func anOverlongVarintIsOversize() throws {
        let stream: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0x01, 0xAA]
        let outputs = decodeAll(try FrameFormat(spec: "len:varint5 ; max=16"), [stream])
        #expect(outputs.first == .oversize(offset: 0, declaredLength: .max))
        // Resyncing: the lengths read from bytes 1...4 are too long and join one skip.
        #expect(outputs.dropFirst().first == .skip(offset: 1, byteCount: 4))
        #expect(isContiguous(outputs, length: UInt64(stream.count)))
        #expect(outputs.last?.frame.map { [$0.offset, UInt64($0.bytes.count)] } == [5, 3])
    }

    /// A varint value field shifts the fields after it: `seq` sits after a 1- or 3-byte `id`.
    @Test func fieldsAfterAVarintShift() throws {
        let format = try FrameFormat(spec: "magic:u8=0xC0 id:varint seq:u16 len:varint4")
        let encoder = FrameEncoder(format: format)
        var stream: [UInt8] = []
        try encoder.encode(fields: ["id": 5, "seq": 0x0102], body: [0xEE], into: &stream)
        try encoder.encode(fields: ["id": 20000, "seq": 7], body: [UInt8](repeating: 1, count: 200), into: &stream)
        #expect(Array(stream.prefix(6)) == [0xC0, 0x05, 0x01, 0x02, 0x01, 0xEE])
        let frames = decodeAll(format, [stream]).compactMap(\.frame)
        #expect(frames.map(\.headerLength) == [5, 8])
        #expect(frames.map { format.fieldValues(in: $0.header) } == [[0xC0, 5, 0x0102, 1], [0xC0, 20000, 7, 200]])
        #expect(format.value(ofField: "seq", in: frames[1].header) == 7)
    }

    /// MQTT's fixed header: type and flags are bit fields; PUBLISH QoS 1 is 0x32.
    @Test func mqttFixedHeaderFields() throws {
        let publish: [UInt8] = [0x32, 0x09, 0x00, 0x03, 0x61, 0x2F, 0x62, 0x00, 0x01, 0x68, 0x69]
        let frames = decodeAll(.mqtt, [publish]).compactMap(\.frame)
        #expect(frames.count == 1)
        #expect(FrameFormat.mqtt.fieldValues(in: frames[0].header) == [3, 2, 9])
        #expect(try FrameEncoder(format: .mqtt).encode(fields: ["type": 3, "flags": 2], body: publish[2...]) == publish)
        // A varint of N bytes holds 7N bits: 128 needs a second byte.
        #expect(throws: FrameEncoderError.lengthNotRepresentable(frameLength: 129)) {
            try FrameEncoder(format: try FrameFormat(spec: "len:varint1")).encode(body: [UInt8](repeating: 0, count: 128))
        }
        // A fifth Remaining Length byte is malformed.
        let overlong = decodeAll(.mqtt, [[0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]])
        #expect(overlong.first == .oversize(offset: 0, declaredLength: .max))
        // Packet type 0 is reserved: not a header.
        #expect(decodeAll(.mqtt, [[0x00, 0x00, 0xC0, 0x00]]) == [
            .skip(offset: 0, byteCount: 2),
            .frame(Frame(offset: 2, bytes: [0xC0, 0x00][...], headerLength: 2, crcOK: nil)),
        ])
    }

    /// Detection: a CONNECT with protocol name MQTT (3.1.1, 5.0) or MQIsdp (3.1), nothing else.
    @Test func detectsAnMQTTConnect() {
        let connect311: [UInt8] = [0x10, 0x10, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x04, 0x02, 0x00, 0x3C]
        let connect31: [UInt8] = [0x10, 0x12, 0x00, 0x06, 0x4D, 0x51, 0x49, 0x73, 0x64, 0x70, 0x03, 0x02]
        #expect(FrameFormat.detect(connect311) == .mqtt)
        #expect(FrameFormat.detect(connect311.prefix(8)) == .mqtt)
        #expect(FrameFormat.detect(connect311.prefix(7)) == nil)
        #expect(FrameFormat.detect(connect31) == .mqtt)
        // A PUBLISH first, a wrong name, or a remaining length shorter than the name: not guessed.
        #expect(FrameFormat.detect([0x30, 0x10, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54]) == nil)
        #expect(FrameFormat.detect([0x10, 0x10, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x55]) == nil)
        #expect(FrameFormat.detect([0x10, 0x03, 0x00, 0x04, 0x4D, 0x51, 0x54, 0x54]) == nil)
        // Every existing guess stays: TLS's first byte 0x16 is not MQTT's.
        #expect(FrameFormat.detect([0x16, 0x03, 0x01, 0x00, 0xC8, 0x01]) == .tls)
    }

    /// Tencent Mars: 20-byte header, frame = head_length + body_length.
    @Test func marsFrameLengthIsASum() throws {
        let spec = "head_length:u32 client_version:u32 cmdid:u32 seq:u32 body_length:u32 ; length=head_length+body_length counts=frame"
        let format = try FrameFormat(spec: spec)
        #expect(format.lengthFieldIndices == [0, 4])
        let encoder = FrameEncoder(format: format)
        let frame = try encoder.encode(fields: ["head_length": 20, "client_version": 0x1001, "cmdid": 6, "seq": 9],
                                       body: [UInt8](repeating: 0xAB, count: 7))
        #expect(frame.count == 27)
        #expect(format.fieldValues(in: frame.prefix(20)) == [20, 0x1001, 6, 9, 7])
        // A header extended past 20 bytes by its sender: the extra bytes are in the frame.
        let extended = try encoder.encode(fields: ["head_length": 24, "seq": 1], body: [1, 2, 3, 4, 5, 6])
        #expect(format.value(ofField: "body_length", in: extended.prefix(20)) == 2)
        let outputs = decodeAll(format, [frame + extended])
        #expect(outputs.compactMap(\.frame).map(\.bytes.count) == [27, 26])
    }

    /// IPv4-style: a 4-bit IHL counting 32-bit words, then a total length.
    @Test func ihlTimesFour() throws {
        let format = try FrameFormat(spec: "ver:b4=4 ihl:b4 tos:u8 rest:u16 ; length=ihl*4+rest counts=frame")
        #expect(format.fields[1].lengthMultiplier == 4)
        // ihl 5 (20 bytes) + rest 3 = a 23-byte frame.
        let stream: [UInt8] = [0x45, 0x00, 0x00, 0x03] + [UInt8](repeating: 0, count: 19)
        let frames = decodeAll(format, [stream, [0x46, 0x00]]).compactMap(\.frame)
        #expect(frames.map(\.bytes.count) == [23])
        // The encoder computes the last length field; ihl*4 must be given.
        let encoded = try FrameEncoder(format: format).encode(fields: ["ihl": 5], body: [UInt8](repeating: 7, count: 30))
        #expect(Array(encoded.prefix(4)) == [0x45, 0x00, 0x00, 0x0E])
        #expect(decodeAll(format, [encoded]).compactMap(\.frame).map(\.bytes.count) == [34])
    }

    /// A computed length whose last field has a multiplier only encodes whole units.
    @Test func aMultiplierOnTheComputedFieldNeedsWholeUnits() throws {
        let format = try FrameFormat(spec: "words:u8 ; length=words*4 counts=frame")
        let encoder = FrameEncoder(format: format)
        #expect(try encoder.encode(body: [1, 2, 3]) == [1, 1, 2, 3])
        #expect(throws: FrameEncoderError.lengthNotRepresentable(frameLength: 3)) { try encoder.encode(body: [1, 2]) }
    }

    /// A varint length that counts the whole frame counts its own bytes too: the encoder
    /// settles the varint's size and value together (126 + 1 = 127 fits one byte; 127 + 1 needs two).
    @Test func aWholeFrameVarintCountsItself() throws {
        let format = try FrameFormat(spec: "len:varint ; counts=frame")
        let encoder = FrameEncoder(format: format)
        #expect(try encoder.encode(body: [UInt8](repeating: 0, count: 126)).prefix(1) == [127])
        #expect(try encoder.encode(body: [UInt8](repeating: 0, count: 127)).prefix(2) == [0x81, 0x01])
        let stream = try encoder.encode(body: [UInt8](repeating: 9, count: 127)) + encoder.encode(body: [])
        #expect(decodeAll(format, [stream]).compactMap(\.frame).map(\.bytes.count) == [129, 1])
    }

    /// Spec grammar: varint widths, bit counts, length= terms, and the errors for each.
    @Test func specGrammar() throws {
        #expect(try FrameFormat(spec: "len:varint").fields[0] == HeaderField(name: "len", width: 10, role: .length, encoding: .varint))
        #expect(try FrameFormat(spec: "a:b3 b:b5 len:u8").fields[1].encoding == .bits(5))
        #expect(try FrameFormat(spec: "a:u8 b:u8 ; length=2*a+b-3").lengthAdjustment == -3)
        #expect(try FrameFormat(spec: "a:u8 b:u8 ; length=2*a+b-3").fields[0].lengthMultiplier == 2)
        // `len` is a plain value when length= names other fields.
        #expect(try FrameFormat(spec: "len:u8 b:u8 ; length=b").lengthFieldIndices == [1])
        let table: [(String, Int, String)] = [
            ("len:varint11", 11, "a byte limit from 1 to 10 after 'varint', like varint4, or nothing (10 bytes)"),
            ("a:b4 len:u8", 3, "bit fields that fill whole bytes (8, 16, … bits in a row): the bit fields ending at field 1 do not fill whole bytes"),
            ("a:b65 len:u8", 4, "a bit count from 1 to 64 after 'b', like b4"),
            ("a:b4=16 b:b4 len:u8", 6, "a value from 0 to 15 (fits in 4 bits), decimal or 0x hex"),
            ("len:varint2=20000", 13, "a value from 0 to 16383 (fits in 14 bits), decimal or 0x hex"),
            ("a:u8 ; length=b", 15, "the name of a field in this spec ('b' is not one)"),
            ("a:u8 ; length=a+a", 17, "each field once in 'length=' ('a' is already in it)"),
            ("a:u8 ; length=3-a", 17, "'+' before a field in 'length=' (only constants may be subtracted)"),
            ("a:u8 ; length=a*0", 17, "a multiplier from 1 to 4294967295 after '*'"),
            ("a:u8 ; length=4", 15, "at least one field in 'length=', like length=head_length+body_length"),
            ("a:u8 len:u8 ; lenfield=a length=a", 26, "either lenfield= or length=, not both"),
            ("a:bytes2 ; length=a", 19, "an integer field in 'length=' ('a' is not one)"),
        ]
        expectSpecErrors(table)
    }

    /// The encode → decode identity over random layouts with varints, bit fields and a
    /// computed length, every frame with random values, whole and a byte at a time.
    @Test(arguments: propertySeeds)
    func encodeDecodeIdentity(seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        for _ in 0..<20 {
            var fields: [HeaderField] = [HeaderField(name: "k", width: 0, encoding: .bits(3)),
                                         HeaderField(name: "f", width: 0, encoding: .bits(5))]
            if Bool.random(using: &random) { fields.append(HeaderField(name: "id", width: Int.random(in: 1...10, using: &random), encoding: .varint)) }
            fields.append(HeaderField(name: "h", width: 1, role: .length, lengthMultiplier: UInt64.random(in: 1...8, using: &random)))
            fields.insert(HeaderField(name: "len", width: Int.random(in: 2...10, using: &random), role: .length, encoding: .varint),
                          at: Int.random(in: 2...fields.count, using: &random))
            let format = try FrameFormat(name: "random", fields: fields, lengthCounts: Bool.random(using: &random) ? .body : .wholeFrame)
            let encoder = FrameEncoder(format: format)
            var stream: [UInt8] = []
            var expected: [[UInt64]] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let values: [String: UInt64] = ["k": .random(in: 0...7, using: &random), "f": .random(in: 0...31, using: &random),
                                                "h": .random(in: 0...3, using: &random), "id": .random(in: 0...127, using: &random)]
                let given = values.filter { name, _ in format.fields.contains { $0.name == name } }
                let body = random.bytes(Int.random(in: 30...300, using: &random))
                let before = stream.count
                try encoder.encode(fields: given, body: body, into: &stream)
                expected.append(format.fields.map { given[$0.name] ?? 0 } + [UInt64(stream.count - before)])
            }
            for chunks in [[stream], stream.map { [$0] }] {
                let frames = decodeAll(format, chunks).compactMap(\.frame)
                let got = frames.map { frame in
                    var values = format.fieldValues(in: frame.header)
                    values[format.fields.firstIndex { $0.name == "len" }!] = 0
                    return values + [UInt64(frame.bytes.count)]
                }
                #expect(got == expected, "layout \(format.fields.map(\.name))")
            }
        }
    }
}

/// The worked examples of docs/formats.md, byte for byte.
@Suite("docs/formats.md worked examples: computed lengths, varints, bit fields")
struct FormatsDocumentExamplesTests {
    private func onlyFrame(_ spec: String, _ hex: String) throws -> (FrameFormat, Frame) {
        let format = try FrameFormat(nameOrSpec: spec)
        let bytes = try HexDump.parse(hex)
        let outputs = decodeAll(format, [bytes])
        #expect(outputs.count == 1)
        return (format, try #require(outputs.first?.frame))
    }

    @Test func mars() throws {
        let spec = "head_length:u32 client_version:u32 cmdid:u32 seq:u32 body_length:u32 ; length=head_length+body_length counts=frame"
        let (format, frame) = try onlyFrame(spec, "00000014 00000001 0000000b 00000007 00000005 68656c6c6f")
        #expect(format.fieldValues(in: frame.header) == [20, 1, 11, 7, 5])
        #expect(frame.bytes.count == 25 && frame.body == Array("hello".utf8)[...])
    }

    @Test func magicAndThreeSmallFields() throws {
        let (format, frame) = try onlyFrame("magic:u32=0xA1B2C3D4 ver:u8 ser:u8 cmd:u8 len:u32", "a1b2c3d4 01 07 21 00000002 6f6b")
        #expect(format.fieldValues(in: frame.header) == [0xA1B2_C3D4, 1, 7, 33, 2])
        #expect(frame.bytes.count == 13 && frame.body == Array("ok".utf8)[...])
    }

    @Test func mqttPublish() throws {
        let (format, frame) = try onlyFrame("mqtt", "32 09 0003 612f62 0001 6869")
        #expect(format.fieldValues(in: frame.header) == [3, 2, 9])
        #expect(frame.bytes.count == 11)
    }
}
