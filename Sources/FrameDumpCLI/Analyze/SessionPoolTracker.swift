import PacketDecoding

/// Sessions per client host and type: how many are open at once against the per-type
/// maximum, how long each sat idle (no msg, no ack; heartbeats do not count) against the idle
/// timeout, and how often a client opened a new session of a type soon after closing one
/// (reopening where it could have reused).
///
/// Open sessions are counted per client host and type: one entry per pair, bounded by the
/// reassembler's connection limit.
struct SessionPoolTracker {
    private struct Key: Hashable {
        var client: IPAddress
        var type: String
    }

    private struct Pool {
        var open = 0
        var mostOpen = 0
        var opened = 0
        var reopened = 0
        var lastClosed: Timestamp?
    }

    private var pools: [Key: Pool] = [:]
    let maxPerType: Int
    let idleTimeout: Int64
    let idleLimit: Int64
    var pool = RuleRecord("session_pool")
    var idle = RuleRecord("session_idle")
    var idleTimes: Distribution

    init(policy: AnalyzePolicy) {
        maxPerType = policy.sessions.maxPerType
        idleTimeout = policy.sessions.idleTimeout
        idleLimit = policy.tolerant(policy.sessions.idleTimeout)
        idleTimes = Distribution(limit: policy.limits.samples)
    }

    /// `connection`'s type became known from `evidence`'s frame.
    mutating func typed(_ connection: ConnectionAnalysis, evidence: Evidence) {
        guard let type = connection.sessionType else { return }
        let key = Key(client: connection.client.address, type: type)
        var pool = pools[key, default: Pool()]
        pool.open += 1
        pool.opened += 1
        pool.mostOpen = max(pool.mostOpen, pool.open)
        if let closed = pool.lastClosed, connection.openedAt.nanoseconds - closed.nanoseconds < idleTimeout { pool.reopened += 1 }
        pools[key] = pool
        if pool.open > maxPerType {
            var evidence = evidence
            evidence.note = "\(pool.open) \(type) sessions open at once from \(connection.client.address) (at most \(maxPerType))"
            self.pool.fail(evidence)
        } else {
            self.pool.see(connection.number)
        }
    }

    /// A msg or ack on `connection` at `time`: the idle stretch it ends.
    mutating func activity(_ connection: ConnectionAnalysis, evidence: Evidence) {
        judgeIdle(connection, until: evidence.time, evidence: evidence, ending: false)
        connection.lastActivity = evidence.time
    }

    /// `connection` ended (or the capture did, `closed: false`) at `time`.
    mutating func ended(_ connection: ConnectionAnalysis, at time: Timestamp, closed: Bool) {
        guard let type = connection.sessionType else { return }
        let evidence = Evidence(connection: connection.number, direction: connection.endedBy ?? .clientToServer, offset: 0, time: time,
                                note: closed ? "closed" : "still open at the end of the capture")
        judgeIdle(connection, until: time, evidence: evidence, ending: true)
        if closed {
            let key = Key(client: connection.client.address, type: type)
            pools[key]?.open -= 1
            pools[key]?.lastClosed = time
        }
    }

    private mutating func judgeIdle(_ connection: ConnectionAnalysis, until time: Timestamp, evidence: Evidence, ending: Bool) {
        guard connection.sessionType != nil else { return }
        let stretch = time.nanoseconds - connection.lastActivity.nanoseconds
        connection.longestIdle = max(connection.longestIdle, stretch)
        if ending { idleTimes.add(stretch) }
        if stretch > idleLimit {
            var evidence = evidence
            evidence.note = "session idle \(Seconds(stretch)) (idle timeout \(Seconds(idleTimeout)))" + (ending ? ", " + evidence.note : ", then used")
            idle.fail(evidence)
        } else if ending {
            idle.see(connection.number)
        }
    }

    /// Per client host and type: opened, most open at once, reopened within the idle timeout.
    var figures: [Figure] {
        pools.sorted { ($0.key.client, $0.key.type) < ($1.key.client, $1.key.type) }.map { key, pool in
            Figure("\(key.client) \(key.type)", .group([
                Figure("opened", .count(pool.opened)), Figure("most_open", .count(pool.mostOpen)), Figure("reopened", .count(pool.reopened)),
            ]))
        }
    }
}
