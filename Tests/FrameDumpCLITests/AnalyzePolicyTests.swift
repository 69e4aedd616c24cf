import Foundation
import TestSupport
import Testing
@testable import FrameDumpCLI

/// The analyze policy: the file format (read by the project's JSON parser), the built-in
/// im-default, time scaling, and the pieces the rules are computed with.
@Suite struct AnalyzePolicyTests {
    func parse(_ text: String) throws(AnalyzePolicy.ParseError) -> AnalyzePolicy {
        try AnalyzePolicy.parse(Array(text.utf8)[...])
    }

    /// docs/analyze.md's example file is im-default, key for key.
    @Test func theExampleFileIsTheBuiltInPolicy() throws {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/analyze/im-default.policy.json")
        let policy = try AnalyzePolicy.parse(Array(try Data(contentsOf: url))[...])
        #expect(policy == AnalyzePolicy.imDefault)
        #expect(AnalyzePolicy.builtIn(named: "im-default") == policy)
    }

    @Test func keysOverrideTheDefaults() throws {
        let policy = try parse(#"""
        {"frames":{"field":"op","ping":"9"},"message_id":{"msg":{"field":"seq"},"ack":{"json":"ack.id"}},
         "sessions":{"type_by":{"server_port":{"5222":"chat","3478":"media"}}},"reconnect":{"cap_s":2.5}}
        """#)
        #expect(policy.frames.field == "op" && policy.frames.ping.map(\.value) == [.number(9)] && policy.frames.pong.map(\.field) == ["op"])
        #expect(policy.messageID == .field("seq") && policy.ackID == .json(["ack", "id"]))
        #expect(policy.sessions.typeBy == .serverPort([5222: "chat", 3478: "media"]))
        #expect(policy.reconnect.cap == 2_500_000_000 && policy.reconnect.base == 1_000_000_000)
    }

    @Test(arguments: [
        (#"{"heartbeat":{"pong_timeout":5}}"#, "heartbeat.pong_timeout: expected a known key"),
        (#"{"reconnect":{"base_s":"1"}}"#, "reconnect.base_s: expected a number of seconds ≥ 0"),
        // A number too large once said only "≥ 0" or "≥ 1", which it is.
        (#"{"heartbeat":{"intervals_s":{"wifi":1e308}}}"#, "heartbeat.intervals_s.wifi: expected a number of seconds ≥ 0 and under 1000000000"),
        (#"{"heartbeat":{"missed_pongs":99999999999999999999}}"#, "heartbeat.missed_pongs: expected a whole number from 1 to 9223372036854775807"),
        (#"{"message_id":{"msg":{"body_uint":9}}}"#, "message_id.msg.body_uint: expected a byte count from 1 to 8"),
        (#"{"message_id":{"msg":{"json":"a..b"}}}"#, "message_id.msg.json: expected a key path"),
        (#"{"frames":[1]}"#, "frames: expected a JSON object, at line 1, column 2"),
        ("{\n \"frames\": {\"ping\": true}}", "frames.ping: expected a value of cmd (a number or a value name), or an object of header fields and their values, at line 2, column 13"),
        (#"{"frames":{"ping":{"cmd":[1]}}}"#, "frames.ping.cmd: expected a value of cmd (a number or a value name), at line 1, column 20"),
        (#"{"message_id":{"msg":{"protobuf":[0]}}}"#, "message_id.msg.protobuf: expected a list of protobuf field numbers"),
        (#"{"message_id":{"msg":{"protobuf":[]}}}"#, "message_id.msg.protobuf: expected a list of protobuf field numbers"),
        (#"{"heartbeat":{"pong_timeout":5}}"#, "heartbeat.pong_timeout: expected a known key (intervals_s, pong_timeout_s, missed_pongs), at line 1, column 15"),
        ("{\"heartbeat\":{\"pong_timeout_s\":5,\n \"pong_timeout_s\":9}}", "heartbeat.pong_timeout_s: expected each key once in an object ('pong_timeout_s' is repeated), at line 2, column 2"),
        (#"{"heartbeat":{"intervals_s":{"fg":5,"fg":9}}}"#, "heartbeat.intervals_s.fg: expected each key once in an object ('fg' is repeated), at line 1, column 37"),
        (#"{"sessions":{"type_by":{}}}"#, "sessions.type_by: expected one of server_port, field (with values), json, protobuf"),
        ("{\"name\":", "expected a JSON object (column 9: expected a JSON value"),
    ])
    func errorsNameTheKey(_ text: String, _ message: String) {
        #expect(throws: AnalyzePolicy.ParseError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    /// Roles by the spec's value names (`cmd:u8{1=ping,…}`) or by several header fields; ids and
    /// session types by a protobuf field number path.
    @Test func rolesByNameAndIDsByProtobufPath() throws {
        let policy = try parse(#"""
        {"frames":{"ping":{"cmd":"ping"},"pong":"pong","msg":{"cmd":3,"ver":"1"},"ack":"ack"},
         "message_id":{"msg":{"protobuf":[2,1]},"ack":{"protobuf":[1]}},"sessions":{"type_by":{"protobuf":[2,2]}}}
        """#)
        #expect(policy.frames.ping == [AnalyzePolicy.FieldCondition(field: "cmd", value: .name("ping"), path: "")])
        #expect(policy.frames.pong == [AnalyzePolicy.FieldCondition(field: "cmd", value: .name("pong"), path: "")])
        #expect(policy.frames.msg.map(\.field) == ["cmd", "ver"] && policy.frames.msg.map(\.value) == [.number(3), .number(1)])
        #expect(policy.frames.ping.first?.location?.description == "line 1, column 20")
        #expect(policy.messageID == .protobuf([2, 1]) && policy.ackID == .protobuf([1]))
        #expect(policy.sessions.typeBy == .firstFrameProtobuf([2, 2]))
        // h12 names cmd's values, so every role resolves.
        #expect(FrameClassifier(format: .h12, policy: policy).problems.isEmpty)
    }

    /// A name the format does not define, or a field it lacks: the key path, what the format
    /// has, and where the policy file says it.
    @Test func unknownNamesAreReportedWithTheirPlace() throws {
        let policy = try parse("{\"frames\": {\n  \"ping\": {\"cmd\": \"pingg\"},\n  \"pong\": {\"op\": 2}}}")
        let problems = FrameClassifier(format: .h12, policy: policy).problems
        #expect(problems == [
            "frames.ping.cmd: cmd of format h12 has no value named 'pingg' (its names: ping, pong, msg, ack), at line 2, column 12",
            "frames.pong.op: format h12 has no field 'op' (its fields: magic, ver, cmd, len, crc), at line 3, column 12",
        ])
        let unnamed = try parse(#"{"frames":{"field":"len","ping":"ping"}}"#)
        #expect(FrameClassifier(format: .h12, policy: unnamed).problems.first?.contains("has no value named 'ping' (it names no values)") == true)
    }

    /// The protobuf reader: the field at the path, the last occurrence, nested messages, texts,
    /// and nothing for a body that is not protobuf.
    @Test func protobufPathsFindTheirField() {
        // {1: 7, 2: {1: 42, 2: "chat"}, 1: 9}
        let body: [UInt8] = [0x08, 7, 0x12, 0x08, 0x08, 42, 0x12, 0x04] + Array("chat".utf8) + [0x08, 9]
        #expect(ProtobufIDReader.value(at: [1], in: body[...]) == .number(9))
        #expect(ProtobufIDReader.value(at: [2, 1], in: body[...]) == .number(42))
        #expect(ProtobufIDReader.value(at: [2, 2], in: body[...]) == .text("chat"))
        #expect(ProtobufIDReader.value(at: [3], in: body[...]) == nil)
        #expect(ProtobufIDReader.value(at: [1, 1], in: body[...]) == nil)
        // Field 1 of a message that is not field 2 is not [2, 1].
        let other: [UInt8] = [0x1A, 0x02, 0x08, 5]
        #expect(ProtobufIDReader.value(at: [2, 1], in: other[...]) == nil)
        #expect(ProtobufIDReader.value(at: [1], in: Array(#"{"id":1}"#.utf8)[...]) == nil)
        // fixed32 and fixed64, little-endian.
        let fixed: [UInt8] = [0x0D, 1, 0, 0, 0, 0x11, 2, 0, 0, 0, 0, 0, 0, 0]
        #expect(ProtobufIDReader.value(at: [1], in: fixed[...]) == .number(1) && ProtobufIDReader.value(at: [2], in: fixed[...]) == .number(2))
    }

    @Test func scalingMultipliesEveryTime() {
        let scaled = AnalyzePolicy.imDefault.scaled(by: 0.05)
        #expect(scaled.heartbeat.intervals.map(\.nanoseconds) == [1_500_000_000, 750_000_000, 500_000_000, 3_000_000_000])
        #expect(scaled.heartbeat.pongTimeout == 250_000_000)
        #expect((scaled.reconnect.base, scaled.reconnect.cap, scaled.reconnect.jitter) == (50_000_000, 800_000_000, 25_000_000))
        #expect(scaled.delivery.ackTimeout == 250_000_000 && scaled.sessions.idleTimeout == 15_000_000_000)
        #expect(scaled.reconnect.factor == 2 && scaled.heartbeat.missedPongs == 3 && scaled.sessions.maxPerType == 3)
    }

    @Test func backoffScheduleGrowsToTheCap() {
        let schedule = (0..<8).map { AnalyzePolicy.imDefault.reconnect.expectedDelay(attempt: $0) / 1_000_000_000 }
        #expect(schedule == [1, 2, 4, 8, 16, 16, 16, 16])
        #expect(AnalyzePolicy.imDefault.backoffSlack(2_000_000_000) == 700_000_000)
    }

    @Test func distributionPercentilesAreNearestRank() {
        var distribution = Distribution(limit: 3)
        for value in [5, 1, 4, 2, 3] as [Int64] { distribution.add(value) }
        #expect(distribution.count == 5 && distribution.min == 1 && distribution.max == 5)
        #expect(distribution.isSampled && distribution.samples == [5, 1, 4])
        #expect(distribution.percentile(50) == 4 && distribution.percentile(95) == 5 && distribution.percentile(0) == 1)
    }

    @Test func secondsReadAsPeopleWriteThem() {
        #expect(Seconds(1_500_000_000).description == "1.500 s")
        #expect(Seconds(12_340_000).description == "12.3 ms")
        #expect(Seconds(250_000).description == "250 µs")
        #expect(Seconds(-25_000_000).description == "-25.0 ms")
        #expect(Seconds(1_500_000_000).json == "1.500000" && Seconds(-1).json == "-0.000000")
    }
}
