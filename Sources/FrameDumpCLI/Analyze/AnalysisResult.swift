import PacketDecoding

/// What `analyze` found: one verdict per rule, the measure records per connection and per
/// client host, and what the HTML report draws.
struct AnalysisResult {
    /// In the order docs/analyze.md lists the rules.
    var verdicts: [Verdict]
    /// Per-connection and per-client-host records: a scope (`connection`, `client`, `limit`) and figures.
    var measures: [(scope: String, figures: [Figure])]
    /// Connections with their ladders, in connection order (at most the policy's connection limit).
    var connections: [ConnectionAnalysis]
    /// Reconnect delays per client host.
    var reconnectDelays: [(client: IPAddress, delays: [ReconnectTracker.Delay])]
    var intervals: Distribution
    var pongRTT: Distribution
    var ackLatency: Distribution
    /// Sessions open per client host and type over time, in (client, type) order.
    var sessionPools: [(key: SessionPoolTracker.Key, pool: SessionPoolTracker.Pool)]
    var policy: AnalyzePolicy
    var firstTime: Timestamp?
    var lastTime: Timestamp?

    /// Whether any rule failed.
    var failed: Bool { verdicts.contains { $0.outcome == .fail } }

    init(analyzer: Analyzer, reconnects: ReconnectTracker, delivery: DeliveryTracker, sessions: SessionPoolTracker,
         rules: [RuleRecord], intervals: Distribution, pongRTT: Distribution) {
        let policy = analyzer.policy
        self.policy = policy
        self.intervals = intervals
        self.pongRTT = pongRTT
        ackLatency = delivery.latency
        sessionPools = sessions.pools.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        connections = analyzer.ended
        firstTime = analyzer.firstTime
        lastTime = analyzer.lastTime
        reconnectDelays = reconnects.delays.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let rule = Dictionary(uniqueKeysWithValues: rules.map { ($0.rule, $0) })
        let (backoff, jitter, inStep) = Self.judgeReconnects(reconnectDelays, policy: policy)
        let herdNotCompared = Self.notComparedForHerd(reconnectDelays)
        let allDelays = reconnectDelays.flatMap(\.delays)
        let connections = self.connections
        verdicts = [
            rule["heartbeat_interval"]!.verdict(intervals.summary + [
                Figure("expected", .text(policy.heartbeat.intervals.map { "\($0.name) \(Seconds($0.nanoseconds))" }.joined(separator: ", "))),
                Figure("tolerance", .ratio(policy.tolerance)),
            ]),
            rule["pong_timeout"]!.verdict(pongRTT.summary + [
                Figure("missed", .count(connections.reduce(0) { $0 + $1.missedPongs })),
                Figure("late", .count(connections.reduce(0) { $0 + $1.latePongs })),
                Figure("timeout", .seconds(policy.heartbeat.pongTimeout)),
            ]),
            rule["dead_connection"]!.verdict([
                Figure("dead", .count(connections.count { $0.deadAt != nil })),
                Figure("closed_by_client", .count(connections.count { $0.deadAt != nil && $0.closedByClient })),
                Figure("missed_pongs", .count(policy.heartbeat.missedPongs)),
            ]),
            backoff.verdict([
                Figure("attempts", .count(allDelays.count)),
                Figure("refused", .count(reconnects.refused)),
                Figure("unanswered", .count(reconnects.unanswered)),
                Figure("delays", .durations(allDelays.map(\.measured))),
                Figure("expected", .durations(allDelays.map(\.expected))),
                Figure("cap", .seconds(policy.reconnect.cap)),
            ]),
            jitter.verdict([
                Figure("deviations", .durations(allDelays.map { $0.measured - $0.expected })),
                Figure("jitter", .seconds(policy.reconnect.jitter)),
                Figure("in_step", .count(inStep)),
            ]),
            delivery.ackLatency.verdict(delivery.latency.summary + [
                Figure("sent", .count(delivery.sent)), Figure("acked", .count(delivery.acked)),
                Figure("missing", .count(delivery.missingAcks)), Figure("timeout", .seconds(policy.delivery.ackTimeout)),
            ]),
            delivery.retransmit.verdict([
                Figure("due", .count(delivery.dueRetransmissions)), Figure("premature", .count(delivery.prematureRetransmissions)),
                Figure("after_reconnect", .count(delivery.resentAfterReconnect)),
                Figure("never_retransmitted", .count(delivery.neverRetransmitted)),
            ]),
            delivery.duplicate.verdict([Figure("duplicate_acks", .count(delivery.duplicateAcks)), Figure("unmatched_acks", .count(delivery.unmatchedAcks))]),
            delivery.reorder.verdict([Figure("ids", .count(delivery.ids))]),
            delivery.offlineQueue.verdict([
                Figure("resent_after_reconnect", .count(delivery.resentAfterReconnect)), Figure("lost", .count(delivery.lostFromQueue)),
                Figure("limit", .count(policy.delivery.offlineQueue)),
            ]),
            sessions.pool.verdict([Figure("max_per_type", .count(policy.sessions.maxPerType))] + sessions.figures),
            sessions.idle.verdict(sessions.idleTimes.summary + [Figure("idle_timeout", .seconds(policy.sessions.idleTimeout))]),
        ]
        measures = connections.map(Self.measure)
        for (client, delays) in reconnectDelays {
            measures.append(("client", [
                Figure("client", .text("\(client)")),
                Figure("reconnect_delays", .durations(delays.map(\.measured))),
                Figure("expected", .durations(delays.map(\.expected))),
            ]))
        }
        let origin = firstTime?.nanoseconds ?? 0
        for (key, pool) in sessionPools {
            measures.append(("sessions", [
                Figure("client", .text("\(key.client)")), Figure("session", .text(key.type)),
                Figure("max_per_type", .count(policy.sessions.maxPerType)), Figure("most_open", .count(pool.mostOpen)),
                Figure("open", .steps(pool.steps.map { ($0.at - origin, $0.count) })),
            ]))
        }
        var limits: [Figure] = []
        if sessions.stepsNotKept > 0 { limits.append(Figure("session_steps_not_kept", .count(sessions.stepsNotKept))) }
        if analyzer.connectionsNotKept > 0 { limits.append(Figure("connections_not_kept", .count(analyzer.connectionsNotKept))) }
        if delivery.idsNotTracked > 0 { limits.append(Figure("message_ids_not_tracked", .count(delivery.idsNotTracked))) }
        let sampledConnections = connections.count { $0.heartbeat.isSampled || $0.pongRTT.isSampled }
        if sampledConnections > 0 { limits.append(Figure("connection_samples_sampled", .count(sampledConnections))) }
        if herdNotCompared.hosts > 0 { limits.append(Figure("herd_hosts_not_compared", .count(herdNotCompared.hosts))) }
        if herdNotCompared.retries > 0 { limits.append(Figure("herd_retries_not_compared", .count(herdNotCompared.retries))) }
        if analyzer.pingsNotFollowed > 0 { limits.append(Figure("pings_not_followed", .count(analyzer.pingsNotFollowed))) }
        if analyzer.ladderRowsNotKept > 0 { limits.append(Figure("ladder_rows_not_kept", .count(analyzer.ladderRowsNotKept))) }
        for (name, distribution) in [("heartbeat_intervals", intervals), ("pong_rtt", pongRTT), ("ack_latency", delivery.latency)] where distribution.isSampled {
            limits.append(Figure("\(name)_sampled", .count(distribution.samples.count)))
        }
        if !limits.isEmpty { measures.append(("limit", limits)) }
    }

    /// One connection's measure record.
    private static func measure(_ connection: ConnectionAnalysis) -> (scope: String, figures: [Figure]) {
        var figures = [
            Figure("conn", .count(connection.number)),
            Figure("client", .text("\(connection.client)")),
            Figure("server", .text("\(connection.server)")),
            Figure("frames", .count(connection.frames)),
        ]
        if connection.heartbeat.count > 0 {
            figures.append(Figure("heartbeat", .group(connection.heartbeat.summary + [Figure("expected", .text(connection.expectedInterval ?? ""))])))
        }
        if connection.pongRTT.count > 0 { figures.append(Figure("pong_rtt", .group(connection.pongRTT.summary))) }
        figures.append(Figure("missed_pongs", .count(connection.missedPongs)))
        figures.append(Figure("dead", .text(connection.deadAt == nil ? "no" : "yes")))
        figures.append(Figure("closed_by", .text(connection.endedBy.map { $0 == .clientToServer ? "client" : "server" } ?? "open")))
        if let how = connection.endedWith { figures.append(Figure("close", .text(how == .fin ? "fin" : "rst"))) }
        if let type = connection.sessionType { figures.append(Figure("session", .text(type))) }
        figures += [Figure("msgs", .count(connection.messages)), Figure("acks", .count(connection.acks)),
                    Figure("longest_idle", .seconds(connection.longestIdle))]
        return ("connection", figures)
    }

    /// Client hosts and retries per host compared for reconnecting in step (the comparison is quadratic).
    static let maxHerdHosts = 200
    static let maxHerdRetries = 64

    /// What the in-step comparison leaves out: client hosts past ``maxHerdHosts``, and retries
    /// past ``maxHerdRetries`` of the hosts it compares.
    static func notComparedForHerd(_ perClient: [(client: IPAddress, delays: [ReconnectTracker.Delay])]) -> (hosts: Int, retries: Int) {
        let compared = perClient.prefix(maxHerdHosts)
        return (perClient.count - compared.count, compared.reduce(0) { $0 + max(0, $1.delays.count - maxHerdRetries) })
    }

    /// The backoff and jitter verdicts, and how many pairs of client hosts reconnected in step.
    private static func judgeReconnects(_ perClient: [(client: IPAddress, delays: [ReconnectTracker.Delay])],
                                        policy: AnalyzePolicy) -> (RuleRecord, RuleRecord, Int) {
        var backoff = RuleRecord("reconnect_backoff"), jitter = RuleRecord("reconnect_jitter")
        let reconnect = policy.reconnect
        for (client, delays) in perClient {
            for delay in delays {
                let allowed = policy.backoffSlack(delay.expected)
                if abs(delay.measured - delay.expected) <= allowed {
                    backoff.see(delay.evidence.connection)
                } else {
                    var evidence = delay.evidence
                    let capped = delay.measured > reconnect.cap + allowed ? ", above the cap \(Seconds(reconnect.cap))" : ""
                    evidence.note = "SYN \(Seconds(delay.measured)) after the failure, retry \(delay.attempt + 1): expected \(Seconds(delay.expected)) ± \(Seconds(allowed))\(capped)"
                    backoff.fail(evidence)
                }
            }
            // Jitter shows as spread in the delays' deviations from the schedule.
            guard reconnect.jitter > 0, delays.count >= 3 else { continue }
            let deviations = delays.map { $0.measured - $0.expected }
            let spread = deviations.max()! - deviations.min()!
            if spread < reconnect.jitter / 2 {
                var evidence = delays[0].evidence
                evidence.note = "\(client): \(delays.count) reconnect delays within \(Seconds(spread)) of the schedule (jitter ± \(Seconds(reconnect.jitter)))"
                jitter.fail(evidence)
            } else {
                jitter.see(delays[0].evidence.connection)
            }
        }
        // The thundering herd: two client hosts whose retries land together (within a tenth of the
        // jitter) three times or more reconnect in step, as clients without jitter do after a
        // shared failure; random jitter makes one such meeting likely among many clients, not three.
        let window = max(1, reconnect.jitter / 10)
        var inStep = 0
        let hosts = perClient.prefix(Self.maxHerdHosts).map { ($0.client, $0.delays.prefix(Self.maxHerdRetries)) }
        for (index, first) in hosts.enumerated() {
            for second in hosts[(index + 1)...] {
                let together = first.1.filter { a in second.1.contains { abs($0.evidence.time.nanoseconds - a.evidence.time.nanoseconds) < window } }
                guard together.count >= 3 else { continue }
                inStep += 1
                var evidence = together[2].evidence
                evidence.note = "\(first.0) and \(second.0) reconnected within \(Seconds(window)) of each other \(together.count) times (in step: no jitter between them)"
                jitter.fail(evidence)
            }
        }
        return (backoff, jitter, inStep)
    }
}
