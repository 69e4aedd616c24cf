import Foundation
import TestSupport
import Testing

/// `framedump analyze` on the fixtures of Fixtures/analyze: loopback recordings of
/// scripts/policy-reference (a client that follows im-default, and clients that break one rule
/// each) and hand-built captures with exact timestamps (scripts/make-analyze-captures). Every
/// verdict is checked against NAME.expected.json, which the generators derived from what they
/// did, not from framedump's output.
@Suite struct AnalyzeEndToEndTests {
    static let fixtures = FixtureDirectory.files(in: "Fixtures/analyze", endingIn: ".pcap").map { String($0.dropLast(5)) }

    /// The generator's expectations for fixture `name`.
    static func expectations(_ name: String) throws -> [String: Any] {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/analyze/\(name).expected.json")
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The events of a loopback fixture's NAME.log.json: what scripts/policy-reference's client and server did.
    static func loggedEvents(_ name: String) throws -> [[String: Any]] {
        let log = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/\(name).log.json"))) as? [String: Any])
        return try #require(log["events"] as? [[String: Any]])
    }

    /// `analyze --json` of a fixture, at the time scale its generator ran at (with the policy file
    /// it followed, else im-default): the verdict records by rule.
    static func verdicts(_ name: String, scale: Double, policy: String? = nil) throws -> (verdicts: [String: [String: Any]], result: FrameDumpProcess.Result) {
        let policyArguments = policy.map { ["--policy", "Fixtures/analyze/\($0)"] } ?? []
        let result = try FrameDumpProcess.run(["analyze", "--json", "--time-scale", "\(scale)"] + policyArguments + ["Fixtures/analyze/\(name).pcap"])
        var verdicts: [String: [String: Any]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let record = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            if record["type"] as? String == "verdict", let rule = record["rule"] as? String { verdicts[rule] = record }
        }
        return (verdicts, result)
    }

    @Test func everyFixtureHasItsExpectations() {
        #expect(Self.fixtures.count >= 20, "\(Self.fixtures)")
        for name in Self.fixtures {
            #expect(FileManager.default.fileExists(atPath: FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/analyze/\(name).expected.json").path), "\(name)")
        }
    }

    /// Each rule's outcome is the generator's; the exit status is 2 exactly when one fails.
    @Test(arguments: fixtures)
    func verdictsAreTheGenerators(_ name: String) throws {
        let expectations = try Self.expectations(name)
        let expected = try #require(expectations["expected"] as? [String: String])
        let scale = try #require(expectations["scale"] as? Double)
        let (verdicts, result) = try Self.verdicts(name, scale: scale, policy: expectations["policy"] as? String)
        #expect(Set(verdicts.keys).isSuperset(of: expected.keys), "\(result)")
        for (rule, outcome) in expected.sorted(by: { $0.key < $1.key }) {
            let verdict = verdicts[rule]
            #expect(verdict?["outcome"] as? String == outcome, "\(name) \(rule): \(verdict.map { "\($0)" } ?? "missing")")
            if outcome == "fail" {
                let evidence = verdict?["evidence"] as? [[String: Any]] ?? []
                #expect(!evidence.isEmpty && evidence.allSatisfy { $0["conn"] is Int && $0["ts"] is String && $0["offset"] is Int }, "\(name) \(rule)")
            }
        }
        #expect(result.status == (expected.values.contains("fail") ? 2 : 0), "\(name): \(result.stderr)")
    }

    /// The hour of heartbeats: interval figures exactly as built (to the microsecond the JSON carries).
    @Test func hourOfHeartbeatsFigures() throws {
        let expectations = try Self.expectations("hb-hour-of-heartbeats")
        let built = try #require(expectations["heartbeat_interval"] as? [String: Double])
        let (verdicts, _) = try Self.verdicts("hb-hour-of-heartbeats", scale: 1)
        let heartbeat = try #require(verdicts["heartbeat_interval"])
        #expect(heartbeat["count"] as? Int == Int(built["count"]!))
        for key in ["min", "p50", "p95", "max"] {
            #expect(abs((heartbeat[key] as? Double ?? -1) - built[key]!) < 1e-6, "\(key): \(heartbeat[key] ?? "none") vs \(built[key]!)")
        }
        let pong = try #require(verdicts["pong_timeout"])
        #expect(pong["count"] as? Int == (expectations["pong_timeout"] as? [String: Double])?["count"].map(Int.init))
    }

    /// The capped backoff run: each delay and the schedule it is held to, as built.
    @Test func cappedBackoffFigures() throws {
        let expectations = try Self.expectations("hb-capped-backoff")
        let built = try #require(expectations["reconnect_backoff"] as? [String: Any])
        let (verdicts, _) = try Self.verdicts("hb-capped-backoff", scale: 1)
        let backoff = try #require(verdicts["reconnect_backoff"])
        let delays = try #require(backoff["delays"] as? [Double]), builtDelays = try #require(built["delays"] as? [Double])
        #expect(delays.count == builtDelays.count)
        for (measured, sent) in zip(delays, builtDelays) { #expect(abs(measured - sent) < 1e-6, "\(delays) vs \(builtDelays)") }
        #expect(backoff["expected"] as? [Double] == (built["expected"] as? [Int])?.map(Double.init))
        #expect(backoff["refused"] as? Int == built["refused"] as? Int)
    }

    /// SYNs that get no answer (hand-built: loopback answers every SYN unless a firewall rule
    /// drops it): each retry ends the unanswered attempt before it, and the delays, counted from
    /// each attempt's SYN, are the builder's.
    @Test func synTimeoutFigures() throws {
        let expectations = try Self.expectations("hb-syn-timeout")
        let built = try #require(expectations["reconnect_backoff"] as? [String: Any])
        let (verdicts, _) = try Self.verdicts("hb-syn-timeout", scale: 1)
        let backoff = try #require(verdicts["reconnect_backoff"])
        #expect(backoff["unanswered"] as? Int == built["unanswered"] as? Int && backoff["refused"] as? Int == built["refused"] as? Int)
        let delays = try #require(backoff["delays"] as? [Double]), builtDelays = try #require(built["delays"] as? [Double])
        #expect(delays.count == builtDelays.count)
        for (measured, sent) in zip(delays, builtDelays) { #expect(abs(measured - sent) < 1e-6, "\(delays) vs \(builtDelays)") }
        #expect(backoff["expected"] as? [Double] == (built["expected"] as? [Int])?.map(Double.init))
    }

    /// A SYN timeout recorded on loopback (scripts/policy-reference syn-timeout: the server's
    /// accept queue is full, so Linux drops the client's SYNs): in tshark's reading of the capture
    /// each attempt the client logged as timed out is SYNs only, its own retransmission included,
    /// with no answer and no RST; analyze counts those attempts unanswered, and its delays, from
    /// each attempt's first SYN, are the ones the client logged waiting.
    @Test(.requires(.tshark)) func loopbackSynTimeoutIsTheGenerators() throws {
        let events = try Self.loggedEvents("syn-timeout")
        let timedOut = events.filter { $0["what"] as? String == "syn_timeout" }.compactMap { $0["port"] as? Int }
        let attempts = events.filter { $0["what"] as? String == "reconnect_attempt" }.compactMap { $0["delay"] as? Double }
        #expect(!timedOut.isEmpty && attempts.count > timedOut.count)
        for port in timedOut {
            let packets = try ExternalProgram.run("tshark", ["-n", "-r", "\(FrameDumpProcess.packageRoot.path)/Fixtures/analyze/syn-timeout.pcap",
                                                              "-Y", "tcp.port == \(port)", "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.flags"])
            let lines = packets.stdout.split(separator: "\n")
            #expect(lines.count >= 2 && lines.allSatisfy { $0 == "\(port)\t0x0002" }, "port \(port): \(lines)")
        }
        let (verdicts, result) = try Self.verdicts("syn-timeout", scale: try #require(Self.expectations("syn-timeout")["scale"] as? Double))
        let backoff = try #require(verdicts["reconnect_backoff"], "\(result)")
        #expect(backoff["unanswered"] as? Int == timedOut.count && backoff["refused"] as? Int == events.count { $0["what"] as? String == "refused" })
        let delays = try #require(backoff["delays"] as? [Double])
        #expect(delays.count == attempts.count)
        // The log's clock and the capture's differ by the time a packet takes through lo.
        for (measured, logged) in zip(delays, attempts) { #expect(abs(measured - logged) < 0.01, "\(delays) vs \(attempts)") }
    }

    /// Messages the client dropped from its offline queue at a reconnect (scripts/policy-reference
    /// offline-lost, recorded on loopback): offline_queue fails with exactly the ids its log says
    /// it dropped, in the order it sent them, and counts the ones it did send again.
    @Test func lostOfflineMessagesAreTheGenerators() throws {
        let events = try Self.loggedEvents("offline-lost")
        let dropped = events.filter { $0["what"] as? String == "offline_dropped" }.flatMap { $0["ids"] as? [Int] ?? [] }
        let resent = events.count { $0["what"] as? String == "msg" && $0["after_reconnect"] as? Bool == true }
        #expect(!dropped.isEmpty && resent > 0)
        let (verdicts, result) = try Self.verdicts("offline-lost", scale: 0.05)
        let offline = try #require(verdicts["offline_queue"], "\(result)")
        #expect(offline["outcome"] as? String == "fail")
        #expect(offline["lost"] as? Int == dropped.count && offline["resent_after_reconnect"] as? Int == resent, "\(offline)")
        let notes: [String] = (offline["evidence"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
        let words: [[Substring]] = notes.map { $0.split(separator: " ") }
        let lost: [Int] = words.filter { $0.count > 2 && $0[0] == "msg" && $0[2] == "lost:" }.compactMap { Int($0[1]) }
        #expect(lost == dropped, "\(offline)")
        #expect(verdicts["ack_latency"]?["missing"] as? Int == 0, "a lost message is the offline queue's failure, not a missing ack")
    }

    /// The text form: one line per rule, starting with its outcome; a failure's evidence beneath it.
    @Test func textIsOneLinePerRule() throws {
        let result = try FrameDumpProcess.run(["analyze", "--time-scale", "0.05", "Fixtures/analyze/no-cap.pcap"])
        let lines = result.stdout.split(separator: "\n")
        let rules = lines.filter { !$0.hasPrefix(" ") }
        #expect(rules.count == 12, "\(result)")
        #expect(rules.allSatisfy { $0.hasPrefix("PASS ") || $0.hasPrefix("FAIL ") || $0.hasPrefix("NOT SEEN ") })
        let backoff = try #require(rules.first { $0.contains("reconnect_backoff") })
        #expect(backoff.hasPrefix("FAIL "))
        let index = try #require(lines.firstIndex(of: backoff))
        #expect(lines[index + 1].hasPrefix("    conn ") && lines[index + 1].contains("above the cap"), "\(result)")
        #expect(result.status == 2)
    }

    /// A policy file: read with the project's JSON parser; its errors name the key.
    @Test func policyFileAndItsErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-policy-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lenient = directory.appendingPathComponent("lenient.json")
        // Caps at 2 s: the capped run's 16 s delays fail.
        try Data(#"{"name":"short-cap","reconnect":{"cap_s":2}}"#.utf8).write(to: lenient)
        let run = try FrameDumpProcess.run(["analyze", "--json", "--policy", lenient.path, "Fixtures/analyze/hb-capped-backoff.pcap"])
        #expect(run.status == 2)
        #expect(run.stdout.contains(#""rule":"reconnect_backoff","ok":false"#), "\(run)")
        let misspelt = directory.appendingPathComponent("misspelt.json")
        try Data(#"{"heartbeat":{"pong_timeout":5}}"#.utf8).write(to: misspelt)
        let bad = try FrameDumpProcess.run(["analyze", "--policy", misspelt.path, "Fixtures/analyze/hb-capped-backoff.pcap"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("heartbeat.pong_timeout: expected a known key"), "\(bad)")
        let missing = try FrameDumpProcess.run(["analyze", "--policy", "im-nonsense", "Fixtures/analyze/hb-capped-backoff.pcap"])
        #expect(missing.status == 1 && missing.stderr.contains("not a built-in policy (im-default)"), "\(missing)")
        // Times past what nanoseconds hold were a crash (an Int64 conversion trap), not an error.
        let wide = directory.appendingPathComponent("wide.json")
        try Data(#"{"tolerance":1e8,"reconnect":{"factor":1e300}}"#.utf8).write(to: wide)
        let tolerant = try FrameDumpProcess.run(["analyze", "--policy", wide.path, "Fixtures/analyze/hb-capped-backoff.pcap"])
        #expect(tolerant.status == 1 && tolerant.stderr.contains("tolerance: expected a fraction from 0 to 1"), "\(tolerant)")
        let scaled = try FrameDumpProcess.run(["analyze", "--time-scale", "5e7", "Fixtures/analyze/hb-capped-backoff.pcap"])
        #expect(scaled.status == 1 && scaled.stderr.contains("over 10^9 seconds"), "\(scaled)")
        let steep = directory.appendingPathComponent("steep.json")
        try Data(#"{"reconnect":{"factor":1e300}}"#.utf8).write(to: steep)
        let backoff = try FrameDumpProcess.run(["analyze", "--json", "--policy", steep.path, "Fixtures/analyze/hb-capped-backoff.pcap"])
        #expect(backoff.status < 128 && backoff.stdout.contains(#""rule":"reconnect_backoff""#), "\(backoff)")
    }

    /// The well-behaved client's first connection: dead after missed pongs, and the client closed
    /// it with a FIN, as its log says; the reconnect's measure record lists the delays it waited.
    @Test func measureRecordsSayWhoClosedAndHow() throws {
        let log = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/well-behaved.log.json"))) as? [String: Any])
        let events = try #require(log["events"] as? [[String: Any]])
        let closes = events.filter { $0["what"] as? String == "client_close" }
        let waited = events.filter { $0["what"] as? String == "reconnect_attempt" }.compactMap { $0["delay"] as? Double }
        let result = try FrameDumpProcess.run(["analyze", "--json", "--time-scale", "0.05", "Fixtures/analyze/well-behaved.pcap"])
        let records = try result.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let connections = records.filter { $0["scope"] as? String == "connection" }
        let first = try #require(connections.first)
        #expect(first["dead"] as? String == (closes.first?["why"] as? String == "dead" ? "yes" : "no"))
        #expect(first["closed_by"] as? String == "client" && first["close"] as? String == closes.first?["how"] as? String)
        let client = try #require(records.first { $0["scope"] as? String == "client" })
        let delays = try #require(client["reconnect_delays"] as? [Double])
        #expect(delays.count == waited.count)
        // The client's clock and the capture's differ by the time a packet takes through lo.
        for (measured, slept) in zip(delays, waited) { #expect(abs(measured - slept) < 0.005, "\(delays) vs \(waited)") }
    }

    /// Sessions per client host and type over time: the open count after each open and close, as
    /// the generator's log of its connects and closes gives it, at the same moments.
    @Test func sessionSeriesIsTheGenerators() throws {
        let events = try Self.loggedEvents("too-many-sessions")
        let typed = Set(events.filter { $0["what"] as? String == "msg" && $0["session"] is String }.compactMap { $0["port"] as? Int })
        var open = 0
        var logged: [(at: Double, count: Int)] = []
        for event in events {
            let port = (event["local_port"] ?? event["port"]) as? Int
            guard let port, typed.contains(port), let at = event["t"] as? Double else { continue }
            switch event["what"] as? String {
            case "connected": open += 1
            case "client_close", "server_ended": open -= 1
            default: continue
            }
            logged.append((at, open))
        }
        let result = try FrameDumpProcess.run(["analyze", "--json", "--time-scale", "0.05", "Fixtures/analyze/too-many-sessions.pcap"])
        let records = try result.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let series = try #require(records.first { $0["scope"] as? String == "sessions" }, "\(result)")
        #expect(series["client"] as? String == "127.0.0.1" && series["session"] as? String == "chat" && series["max_per_type"] as? Int == 3)
        let steps = try #require(series["open"] as? [[Double]])
        #expect(steps.map { Int($0[1]) } == logged.map(\.count), "\(steps) vs \(logged)")
        #expect(series["most_open"] as? Int == logged.map(\.count).max())
        // The log's clock and the capture's differ by a constant and by the time a packet takes through lo.
        for (step, event) in zip(steps, logged) {
            #expect(abs((step[0] - steps[0][0]) - (event.at - logged[0].at)) < 0.01, "\(steps) vs \(logged)")
        }
    }

    /// Protobuf bodies: the ids the policy's field number paths find are the ones the generator
    /// sent (its log names the message it sent again after its ack); read as JSON (im-default),
    /// the same frames have no ids and the duplicate goes unseen.
    @Test func protobufIDsAreTheGenerators() throws {
        let events = try Self.loggedEvents("protobuf-duplicate")
        let copies = events.filter { $0["what"] as? String == "msg" && $0["again"] as? Bool == true && $0["since"] == nil }
        let duplicated = try #require(copies.first?["id"] as? Int)
        let (verdicts, _) = try Self.verdicts("protobuf-duplicate", scale: 0.05, policy: "protobuf.policy.json")
        let notes = (verdicts["duplicate"]?["evidence"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
        #expect(notes.count == copies.count && notes.allSatisfy { $0.hasPrefix("msg \(duplicated) sent again") }, "\(notes)")
        let sent = Set(events.filter { $0["what"] as? String == "msg" }.compactMap { $0["id"] as? Int })
        #expect(verdicts["reorder"]?["ids"] as? Int == sent.count)
        let (asJSON, _) = try Self.verdicts("protobuf-duplicate", scale: 0.05)
        #expect(asJSON["duplicate"]?["outcome"] as? String == "not_seen", "\(asJSON["duplicate"] ?? [:])")
    }

    /// A value name or field the format lacks: said with the policy file's line and column; a
    /// usage error when --format fixes the format, else the analysis is incomplete (exit 2).
    @Test func unknownValueNamesSayWhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-names-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = directory.appendingPathComponent("names.json")
        try Data("{\"frames\": {\n \"ping\": {\"cmd\": \"pingg\"}}}".utf8).write(to: policy)
        let fixed = try FrameDumpProcess.run(["analyze", "--format", "h12", "--policy", policy.path, "Fixtures/analyze/protobuf-duplicate.pcap"])
        let message = "frames.ping.cmd: cmd of format h12 has no value named 'pingg' (its names: ping, pong, msg, ack), at line 2, column 11"
        #expect(fixed.status == 1 && fixed.stderr.contains(message), "\(fixed)")
        let detected = try FrameDumpProcess.run(["analyze", "--policy", policy.path, "Fixtures/analyze/protobuf-duplicate.pcap"])
        #expect(detected.status == 2 && detected.stderr.contains(message), "\(detected)")
        #expect(detected.stdout.contains("NOT SEEN heartbeat_interval"), "\(detected)")
    }

    @Test func inputThatIsNoCaptureIsAnError() throws {
        let missing = try FrameDumpProcess.run(["analyze", "Fixtures/analyze/no-such.pcap"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read Fixtures/analyze/no-such.pcap: No such file or directory"), "\(missing)")
        let text = try FrameDumpProcess.run(["analyze", "Fixtures/analyze/im-default.policy.json"])
        #expect(text.status == 2 && text.stderr.contains("is not a pcap or pcapng capture"), "\(text)")
    }

    /// Two client hosts with the same jitter reconnect in step: the herd jitter exists to prevent.
    @Test func clientsInStepFailJitter() throws {
        let expectations = try Self.expectations("hb-herd")
        let built = try #require(expectations["reconnect_jitter"] as? [String: Int])
        let (verdicts, _) = try Self.verdicts("hb-herd", scale: 1)
        let jitter = try #require(verdicts["reconnect_jitter"])
        #expect(jitter["in_step"] as? Int == built["in_step"])
        let notes = (jitter["evidence"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
        #expect(notes.contains { $0.hasPrefix("10.0.0.1 and 10.0.0.3 reconnected within") }, "\(notes)")
    }
}
