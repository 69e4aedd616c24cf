import Foundation
import TestSupport
import Testing

/// Every state table of `analyze` has a bound (docs/analyze.md, "Bounds"), and reaching it is
/// said in a `limit` record, never silent: one test per table, its bound made small with the
/// policy's `limits` (or a role that never comes), against counts from the generators' records.
@Suite struct AnalyzeLimitsEndToEndTests {
    /// `analyze --json` with the policy `text`: its verdict records by rule and its limit record.
    static func run(_ fixture: String, policy text: String, scale: Double = 1) throws -> (verdicts: [String: [String: Any]], limit: [String: Any]) {
        // Tests of one fixture run in parallel, so each run has a directory of its own.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = directory.appendingPathComponent("policy.json")
        try Data(text.utf8).write(to: policy)
        let result = try FrameDumpProcess.run(["analyze", "--json", "--time-scale", "\(scale)", "--policy", policy.path, "Fixtures/analyze/\(fixture).pcap"])
        var verdicts: [String: [String: Any]] = [:]
        var limit: [String: Any] = [:]
        for line in result.stdout.split(separator: "\n") {
            let record = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            if record["type"] as? String == "verdict", let rule = record["rule"] as? String { verdicts[rule] = record }
            if record["scope"] as? String == "limit" { limit = record }
        }
        return (verdicts, limit)
    }

    static func json(_ name: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/\(name)"))) as? [String: Any])
    }

    /// Connection records: past `limits.connections`, the rest are counted, not kept.
    @Test func connectionRecords() throws {
        let connections = try #require(try Self.json("hb-many-connections.expected.json")["connections"] as? Int)
        let (_, limit) = try Self.run("hb-many-connections", policy: #"{"limits":{"connections":10}}"#)
        #expect(limit["connections_not_kept"] as? Int == connections - 10, "\(limit)")
    }

    /// Message ids: with `limits.message_ids` below the messages the client had out at once
    /// (its log), new ids are not followed and counted.
    @Test func messageIDs() throws {
        let events = try #require(try Self.json("offline-overflow.log.json")["events"] as? [[String: Any]])
        let ids = Set(events.filter { $0["what"] as? String == "msg" }.compactMap { $0["id"] as? Int })
        let (_, limit) = try Self.run("offline-overflow", policy: #"{"limits":{"message_ids":100}}"#, scale: 0.05)
        let notTracked = try #require(limit["message_ids_not_tracked"] as? Int, "\(limit)")
        #expect(notTracked >= ids.count - 100, "\(notTracked) of \(ids.count) ids")
    }

    /// Samples: percentiles from the first `limits.samples`; the count stays exact (the builder's).
    @Test func distributionSamples() throws {
        let expectations = try Self.json("hb-hour-of-heartbeats.expected.json")
        let count = try #require((expectations["heartbeat_interval"] as? [String: Double])?["count"])
        let (verdicts, limit) = try Self.run("hb-hour-of-heartbeats", policy: #"{"limits":{"samples":10}}"#)
        #expect(limit["heartbeat_intervals_sampled"] as? Int == 10 && limit["pong_rtt_sampled"] as? Int == 10, "\(limit)")
        #expect(verdicts["heartbeat_interval"]?["count"] as? Int == Int(count))
    }

    /// Pings waiting for a pong: 64 per connection. With a pong that never comes (a role value
    /// h12 never sends) and a pong timeout longer than the hour, all but 64 of the builder's
    /// pings are dropped from the wait list, and counted.
    @Test func pingsWaiting() throws {
        let pings = try #require((try Self.json("hb-hour-of-heartbeats.expected.json")["pong_timeout"] as? [String: Double])?["count"])
        let (_, limit) = try Self.run("hb-hour-of-heartbeats", policy: #"{"frames":{"pong":99},"heartbeat":{"pong_timeout_s":100000}}"#)
        #expect(limit["pings_not_followed"] as? Int == Int(pings) - 64, "\(limit)")
    }

    /// Ladder rows: 16 per window of a connection's time (64 windows). The offline-overflow
    /// client's bursts (its log) put far more frames in a window: all but the kept rows are counted.
    @Test func ladderRows() throws {
        let log = try Self.json("offline-overflow.log.json")
        let events = try #require(log["events"] as? [[String: Any]])
        let frames = events.count { ["msg", "ack", "ping", "pong"].contains($0["what"] as? String ?? "") }
        let connections = events.count { $0["what"] as? String == "connected" }
        let (_, limit) = try Self.run("offline-overflow", policy: "{}", scale: 0.05)
        let notKept = try #require(limit["ladder_rows_not_kept"] as? Int, "\(limit)")
        let mostKept = connections * 64 * 16
        // Each frame is an entry, with a few FINs and RSTs besides.
        #expect(notKept >= frames - mostKept && notKept <= frames + 8 * connections, "\(notKept) of \(frames) frames")
    }
}
