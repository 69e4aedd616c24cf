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
        #expect(policy.frames.field == "op" && policy.frames.ping == 9 && policy.frames.pong == 2)
        #expect(policy.messageID == .field("seq") && policy.ackID == .json(["ack", "id"]))
        #expect(policy.sessions.typeBy == .serverPort([5222: "chat", 3478: "media"]))
        #expect(policy.reconnect.cap == 2_500_000_000 && policy.reconnect.base == 1_000_000_000)
    }

    @Test(arguments: [
        (#"{"heartbeat":{"pong_timeout":5}}"#, "heartbeat.pong_timeout: expected a known key"),
        (#"{"reconnect":{"base_s":"1"}}"#, "reconnect.base_s: expected a number of seconds ≥ 0"),
        (#"{"message_id":{"msg":{"body_uint":9}}}"#, "message_id.msg.body_uint: expected a byte count from 1 to 8"),
        (#"{"message_id":{"msg":{"json":"a..b"}}}"#, "message_id.msg.json: expected a key path"),
        (#"{"frames":[1]}"#, "frames: expected a JSON object"),
        (#"{"sessions":{"type_by":{}}}"#, "sessions.type_by: expected one of server_port, field (with values), json"),
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
