import FrameCodec
import PacketCapture
import PacketDecoding

/// Checks a capture's connections against an ``AnalyzePolicy``: fed the framing engine's frames
/// (through ``AnalyzeRenderer``) and the capture's TCP events (opens, FINs, RSTs, refusals), it
/// measures heartbeats, pongs, dead connections, reconnects, delivery and sessions, and ends
/// with one ``Verdict`` per rule and the measure records (``AnalysisResult``).
///
/// ```
/// CaptureEvent ─┬─> DecodeSession ─> FramingEngine ─> AnalyzeRenderer ─┐
///               └─> connection events ─────────────────────────────────┴─> Analyzer ─> AnalysisResult
/// ```
///
/// A class: the renderer (inside the session) and the command both hold it.
/// State is bounded: open connections by the reassembler's limit, pings per connection
/// (``ConnectionAnalysis/maxPendingPings``), message ids (``DeliveryTracker``), samples
/// (``Distribution``) and kept connection records (``AnalyzePolicy/Limits/connections``).
final class Analyzer {
    let policy: AnalyzePolicy
    private var classifiers: [FrameClassifier] = []
    private var open: [Int: ConnectionAnalysis] = [:]
    /// Ended connections, kept for the per-connection records and the report (at most the limit).
    private(set) var ended: [ConnectionAnalysis] = []
    /// Connections whose records were not kept (the limit was reached).
    private(set) var connectionsNotKept = 0
    /// Pings dropped unanswered from a full wait list (``ConnectionAnalysis/maxPendingPings``).
    private(set) var pingsNotFollowed = 0
    /// Ladder frames and events of kept connections counted but not kept as rows.
    private(set) var ladderRowsNotKept = 0
    private var reconnects: ReconnectTracker
    private var delivery: DeliveryTracker
    private var sessions: SessionPoolTracker
    private var heartbeatRule = RuleRecord("heartbeat_interval")
    private var pongRule = RuleRecord("pong_timeout")
    private var deadRule = RuleRecord("dead_connection")
    private var intervals: Distribution
    private var pongRTT: Distribution
    private(set) var firstTime: Timestamp?
    private(set) var lastTime: Timestamp?
    /// Ladder rows the report may still keep, over all connections.
    private var ladderRowsLeft = Analyzer.maxLadderRows
    /// The most ladder rows kept for the report, over all connections (``LadderTimeline``).
    static let maxLadderRows = 50_000
    /// What the policy names that a stream's format lacks (``FrameClassifier/problems``), once each:
    /// its frames could not all be told apart, so the analysis is incomplete.
    private(set) var policyProblems: [String] = []
    /// Frames whose stream had no connection (cannot happen with a capture; counted, not dropped silently).
    private(set) var framesWithoutConnection = 0

    /// How long after the dead moment the client may take to close (one pong timeout, with tolerance).
    private var reactionWindow: Int64 { policy.tolerant(policy.heartbeat.pongTimeout) }

    init(policy: AnalyzePolicy) {
        self.policy = policy
        reconnects = ReconnectTracker(policy.reconnect)
        delivery = DeliveryTracker(policy: policy)
        sessions = SessionPoolTracker(policy: policy)
        intervals = Distribution(limit: policy.limits.samples)
        pongRTT = Distribution(limit: policy.limits.samples)
    }

    /// Registers a frame format; frames of it are read with the returned index.
    func add(_ format: FrameFormat) -> Int {
        let classifier = FrameClassifier(format: format, policy: policy)
        for problem in classifier.problems where !policyProblems.contains(problem) { policyProblems.append(problem) }
        classifiers.append(classifier)
        return classifiers.count - 1
    }

    private func see(_ time: Timestamp) {
        if firstTime == nil { firstTime = time }
        lastTime = time
    }

    // MARK: TCP events

    /// Takes one capture event (after the session has framed it).
    func observe(_ event: CaptureEvent, at time: Timestamp) {
        guard case .stream(let stream) = event else { return }
        switch stream {
        case .connectionOpened(let number, let client, let server, let roles):
            see(time)
            let connection = ConnectionAnalysis(number: number, client: client, server: server, openedAt: time, sawSYN: roles == .syn)
            if case .serverPort(let types) = policy.sessions.typeBy {
                connection.sessionType = types[server.port]
                sessions.typed(connection, evidence: Evidence(connection: number, direction: .clientToServer, offset: 0, time: time, note: "SYN"))
            }
            open[number] = connection
            reconnects.opened(connection)
        case .directionClosed(let number, let direction, let offset, let reason):
            see(time)
            guard let connection = open[number] else { return }
            if connection.endedAt == nil, reason == .fin {
                end(connection, by: direction, with: .fin, at: time, offset: offset, established: true)
            }
            connection.note(LadderEntry(time: time, direction: direction, label: reason == .fin ? "FIN" : "RST", mark: reason == .fin ? .fin : .reset),
                            budget: &ladderRowsLeft)
        case .connectionClosed(let summary, let reason):
            see(time)
            guard let connection = open.removeValue(forKey: summary.connection) else { return }
            connection.established = summary.wasEstablished
            if connection.endedAt == nil, let resetBy = summary.resetBy {
                end(connection, by: resetBy, with: .reset, at: time, offset: 0, established: connection.established)
            }
            if !connection.established {
                // Refused (the server's RST to the SYN) or never answered (the client gave up after its last SYN).
                reconnects.ended(connection, refusedOrUnanswered: true, at: reason == .reset ? time : summary.lastSeen, wasReset: reason == .reset)
            }
            finishConnection(connection, at: time, closed: reason != .endOfCapture)
        case .gap(let number, let direction, _, let length, _):
            open[number]?.note(LadderEntry(time: time, direction: direction, label: "gap \(length) B", mark: .gap), budget: &ladderRowsLeft)
        default:
            break
        }
    }

    /// The connection's first end: who, how (`offset`: the FIN's stream offset; an RST's is not
    /// reported, 0); the dead-connection reaction is judged here.
    private func end(_ connection: ConnectionAnalysis, by direction: StreamDirection, with reason: DirectionCloseReason, at time: Timestamp,
                     offset: UInt64, established: Bool) {
        connection.expirePings(now: time, pongTimeout: policy.heartbeat.pongTimeout, threshold: policy.heartbeat.missedPongs)
        connection.endedAt = time
        connection.endedBy = direction
        connection.endedWith = reason
        if let deadAt = connection.deadAt, !connection.reactionJudged, direction == .clientToServer {
            connection.reactionJudged = true
            let after = time.nanoseconds - deadAt.nanoseconds
            if after <= reactionWindow {
                deadRule.see(connection.number)
            } else {
                deadRule.fail(Evidence(connection: connection.number, direction: direction, offset: offset, time: time,
                                       note: "closed \(Seconds(after)) after \(policy.heartbeat.missedPongs) missed pongs made it dead"))
            }
        }
        if established { reconnects.ended(connection, refusedOrUnanswered: false, at: time, wasReset: reason == .reset) }
    }

    private func finishConnection(_ connection: ConnectionAnalysis, at time: Timestamp, closed: Bool) {
        connection.expirePings(now: time, pongTimeout: policy.heartbeat.pongTimeout, threshold: policy.heartbeat.missedPongs)
        if let deadAt = connection.deadAt, !connection.reactionJudged, time.nanoseconds - deadAt.nanoseconds > reactionWindow,
           connection.endedBy != .serverToClient {
            connection.reactionJudged = true
            let ping = connection.deadPing!
            deadRule.fail(Evidence(connection: connection.number, direction: .clientToServer, offset: ping.offset, time: ping.time,
                                   note: "dead after \(policy.heartbeat.missedPongs) missed pongs, still open \(Seconds(time.nanoseconds - deadAt.nanoseconds)) later"))
        }
        judgeHeartbeats(connection)
        judgeSilence(connection, until: connection.endedAt ?? time, closed: connection.endedAt != nil)
        sessions.ended(connection, at: connection.endedAt ?? time, closed: closed)
        if connection.resentFromEarlier > 0 {
            if connection.resentFromEarlier > policy.delivery.offlineQueue {
                delivery.offlineQueue.fail(Evidence(connection: connection.number, direction: .clientToServer, offset: 0, time: connection.openedAt,
                                               note: "\(connection.resentFromEarlier) messages sent again after the reconnect (at most \(policy.delivery.offlineQueue))"))
            } else {
                delivery.offlineQueue.see(connection.number)
            }
        }
        pingsNotFollowed += connection.pingsDropped
        if ended.count < policy.limits.connections {
            ended.append(connection)
            ladderRowsNotKept += connection.ladder.rowsNotKept
        } else {
            connectionsNotKept += 1
            // Its ladder is not drawn: its rows go back to the others.
            ladderRowsLeft += connection.ladder.keptCount
        }
    }

    /// Holds a connection's ping intervals not yet judged to the policy interval nearest their
    /// median, and forgets them.
    private func judgeHeartbeats(_ connection: ConnectionAnalysis) {
        guard !connection.intervals.isEmpty else { return }
        defer { connection.intervals.removeAll(keepingCapacity: true) }
        for interval in connection.intervals { intervals.add(interval.nanoseconds) }
        let (name, expected) = expectedInterval(connection)
        connection.expectedInterval = name
        let low = policy.tolerant(expected, late: false), high = policy.tolerant(expected)
        var failed = false
        for interval in connection.intervals where interval.nanoseconds < low || interval.nanoseconds > high {
            failed = true
            heartbeatRule.fail(Evidence(connection: connection.number, direction: .clientToServer, offset: interval.offset, time: interval.time,
                                        note: "ping \(Seconds(interval.nanoseconds)) after the last (expected \(name) \(Seconds(expected)) ± \(Int(policy.tolerance * 100)) %)"))
        }
        if !failed { heartbeatRule.see(connection.number) }
    }

    /// A connection whose client stopped pinging — silent from its last ping to its close (or to
    /// the end of the capture) for longer than its interval allows — fails `heartbeat_interval`:
    /// it was kept open without the heartbeat that shows it alive.
    private func judgeSilence(_ connection: ConnectionAnalysis, until end: Timestamp, closed: Bool) {
        guard let name = connection.expectedInterval, let lastPing = connection.lastPing,
              let expected = policy.heartbeat.intervals.first(where: { $0.name == name })?.nanoseconds else { return }
        let silence = end.nanoseconds - lastPing.nanoseconds
        guard silence > policy.tolerant(expected) else { return }
        heartbeatRule.fail(Evidence(connection: connection.number, direction: .clientToServer, offset: 0, time: end,
                                    note: "no ping for \(Seconds(silence)) before \(closed ? "the close" : "the end of the capture") (expected \(name) \(Seconds(expected)))"))
    }

    /// The policy interval nearest (by ratio) the median of a connection's intervals not yet judged.
    private func expectedInterval(_ connection: ConnectionAnalysis) -> (name: String, nanoseconds: Int64) {
        let sorted = connection.intervals.map(\.nanoseconds).sorted()
        let median = Double(max(1, sorted[sorted.count / 2]))
        func distance(_ interval: Int64) -> Double {
            let ratio = Double(interval) / median
            return max(ratio, 1 / ratio)
        }
        return policy.heartbeat.intervals.min { distance($0.nanoseconds) < distance($1.nanoseconds) }!
    }

    // MARK: Frames

    /// One frame or decoder event of `label`'s stream, completed at `time`.
    func receive(_ output: FrameDecoderOutput, format: Int, label: StreamLabel, time: Timestamp) {
        see(time)
        guard let connection = open[label.connection] else { framesWithoutConnection += 1; return }
        guard case .frame(let frame) = output else {
            if case .gap = output { return }
            connection.note(LadderEntry(time: time, direction: label.direction, label: "bad bytes", mark: .gap), budget: &ladderRowsLeft)
            return
        }
        let classifier = classifiers[format]
        let direction = label.direction
        connection.frames += 1
        connection.expirePings(now: time, pongTimeout: policy.heartbeat.pongTimeout, threshold: policy.heartbeat.missedPongs)
        if direction == .clientToServer, !connection.sawFirstClientFrame {
            connection.sawFirstClientFrame = true
            if case .serverPort = policy.sessions.typeBy {} else {
                connection.sessionType = classifier.sessionType(of: frame)
                sessions.typed(connection, evidence: Evidence(connection: connection.number, direction: direction, offset: frame.offset, time: time,
                                                              note: "first frame"))
            }
        }
        let role = classifier.role(of: frame)
        // Labels are made only while the ladder has room: no string per frame past it.
        let drawing = connection.ladder.wouldKeep(time, budget: &ladderRowsLeft)
        var entry = LadderEntry(time: time, direction: direction, label: role.rawValue, mark: .none)
        switch role {
        case .ping where direction == .clientToServer:
            if connection.deadAt != nil, !connection.reactionJudged {
                connection.reactionJudged = true
                deadRule.fail(Evidence(connection: connection.number, direction: direction, offset: frame.offset, time: time,
                                       note: "ping after \(policy.heartbeat.missedPongs) missed pongs made the connection dead (expected a close)"))
            }
            connection.ping(offset: frame.offset, time: time, key: FrameClassifier.key(of: frame.body))
            if connection.intervals.count >= ConnectionAnalysis.maxPendingIntervals { judgeHeartbeats(connection) }
        case .pong where direction == .serverToClient:
            if let (rtt, late) = connection.pong(time: time, key: FrameClassifier.key(of: frame.body), pongTimeout: policy.heartbeat.pongTimeout) {
                pongRTT.add(rtt)
                if late {
                    entry.mark = .late
                    pongRule.fail(Evidence(connection: connection.number, direction: direction, offset: frame.offset, time: time,
                                           note: "pong \(Seconds(rtt)) after its ping (pong timeout \(Seconds(policy.heartbeat.pongTimeout)))"))
                } else {
                    pongRule.see(connection.number)
                }
            }
        case .msg:
            connection.messages += 1
            sessions.activity(connection, evidence: Evidence(connection: connection.number, direction: direction, offset: frame.offset, time: time, note: ""))
            if let id = classifier.id(of: frame, isAck: false) {
                if drawing { entry.label = "msg \(id)" }
                switch delivery.message(id, client: connection.client.address, direction: direction, connection: connection,
                                        offset: frame.offset, time: time) {
                case .retransmission, .afterReconnect: entry.mark = .retransmission
                case .premature: entry.mark = .premature
                case .duplicate: entry.mark = .duplicate
                case .first, .untracked: break
                }
            }
        case .ack:
            connection.acks += 1
            sessions.activity(connection, evidence: Evidence(connection: connection.number, direction: direction, offset: frame.offset, time: time, note: ""))
            if let id = classifier.id(of: frame, isAck: true) {
                if drawing { entry.label = "ack \(id)" }
                delivery.ack(id, client: connection.client.address, direction: direction, connection: connection.number, offset: frame.offset, time: time)
            }
        case .other where drawing:
            entry.label = classifier.roleValue(of: frame).map { "\(policy.frames.field) \($0)" } ?? "frame"
        case .ping, .pong, .other:
            break
        }
        connection.note(entry, budget: &ladderRowsLeft)
    }

    // MARK: The end

    /// Ends the analysis: connections still open are judged as of the last packet.
    func finish() -> AnalysisResult {
        let end = lastTime ?? Timestamp(nanoseconds: 0)
        for connection in open.values.sorted(by: { $0.number < $1.number }) {
            finishConnection(connection, at: end, closed: false)
        }
        open = [:]
        delivery.finish(at: end)
        ended.sort { $0.number < $1.number }
        return AnalysisResult(analyzer: self, reconnects: reconnects, delivery: delivery, sessions: sessions,
                              rules: [heartbeatRule, pongRule, deadRule], intervals: intervals, pongRTT: pongRTT)
    }
}
