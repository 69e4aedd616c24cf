import Testing
@testable import BodyViews

/// Records the decoder's events as text lines, so a test states the whole expected reading.
struct RecordingVisitor: ProtobufRawVisitor {
    var events: [String] = []
    mutating func varint(_ number: UInt32, _ value: UInt64) { events.append("\(number) varint \(value)") }
    mutating func fixed64(_ number: UInt32, _ value: UInt64) { events.append("\(number) i64 \(value)") }
    mutating func fixed32(_ number: UInt32, _ value: UInt32) { events.append("\(number) i32 \(value)") }
    mutating func lengthDelimited(_ number: UInt32, _ bytes: UnsafeRawBufferPointer, isUTF8: Bool) {
        events.append("\(number) \(isUTF8 ? "string" : "bytes") \(Array(bytes))")
    }
    mutating func beginMessage(_ number: UInt32, isGroup: Bool) { events.append("\(number) \(isGroup ? "group" : "message") {") }
    mutating func endMessage() { events.append("}") }
}

@Suite struct ProtobufRawDecoderTests {
    func decode(_ bytes: [UInt8]) throws -> [String] {
        var visitor = RecordingVisitor()
        try bytes.withUnsafeBytes { raw in try ProtobufRawDecoder.decode(raw, into: &visitor) }
        return visitor.events
    }

    func failure(_ bytes: [UInt8]) -> BodyViewError? {
        var visitor = RecordingVisitor()
        do {
            try bytes.withUnsafeBytes { raw in try ProtobufRawDecoder.decode(raw, into: &visitor) }
            return nil
        } catch {
            #expect(visitor.events.isEmpty, "nothing is reported for a body that is not a message")
            return error as? BodyViewError
        }
    }

    /// The encoding guide's examples (https://protobuf.dev/programming-guides/encoding/).
    @Test func encodingGuideExamples() throws {
        #expect(try decode([0x08, 0x96, 0x01]) == ["1 varint 150"])
        #expect(try decode([0x12, 0x07] + Array("testing".utf8)) == ["2 string \(Array("testing".utf8))"])
        #expect(try decode([0x1A, 0x03, 0x08, 0x96, 0x01]) == ["3 message {", "1 varint 150", "}"])
    }

    @Test func everyWireType() throws {
        let bytes: [UInt8] = [0x0D, 1, 0, 0, 0, 0x11, 2, 0, 0, 0, 0, 0, 0, 0, 0x1B, 0x08, 0x01, 0x1C, 0x22, 0x00, 0x2A, 0x02, 0xFF, 0x00]
        #expect(try decode(bytes) == ["1 i32 1", "2 i64 2", "3 group {", "1 varint 1", "}", "4 string []", "5 bytes [255, 0]"])
    }

    @Test func tenByteVarintsAndWideTags() throws {
        #expect(try decode([0x08] + Array(repeating: 0xFF, count: 9) + [0x01]) == ["1 varint \(UInt64.max)"])
        // Field number 2^29 - 1, the largest.
        #expect(try decode([0xF8, 0xFF, 0xFF, 0xFF, 0x0F, 0x00]) == ["536870911 varint 0"])
    }

    @Test(arguments: [
        ([0x08], "truncated varint at byte 1"),
        ([0x08] + Array(repeating: UInt8(0xFF), count: 10) + [0x01], "varint longer than 10 bytes at byte 1"),
        ([0x00], "field number 0 at byte 0"),
        ([0x0E], "wire type 6 (only 0-5 exist) at byte 0"),
        ([0x0D, 1, 2], "truncated fixed32 at byte 1"),
        ([0x12, 0x05, 0x61], "length 5 past the end (1 bytes left) at byte 1"),
        ([0x0C], "group end with no group open at byte 1"),
        ([0x0B, 0x08, 0x01], "group 1 not closed at byte 1"),
        ([0x0B, 0x14], "group 1 closed by the end of group 2 at byte 1"),
    ] as [([UInt8], String)])
    func bodiesThatAreNotMessagesSayWhereAndWhy(_ bytes: [UInt8], _ expected: String) {
        #expect(failure(bytes)?.description == expected)
    }

    @Test func guessesStopAtProtocsDepth() throws {
        // 12 levels of field 1 wrapping a varint: protoc tries 10 levels as messages.
        var message: [UInt8] = [0x08, 0x01]
        for _ in 0..<12 { message = [0x0A, UInt8(message.count)] + message }
        let events = try decode(message)
        #expect(events.prefix(10).allSatisfy { $0 == "1 message {" })
        #expect(events[10].hasPrefix("1 bytes") || events[10].hasPrefix("1 string"))
    }

    @Test func deepGroupsAreRefusedNotRecursedForever() {
        let depth = 100_000
        let bytes = Array(repeating: UInt8(0x0B), count: depth) + Array(repeating: UInt8(0x0C), count: depth)
        #expect(failure(bytes)?.reason == "groups nested too deep")
    }
}
