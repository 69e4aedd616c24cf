import PacketDecoding

/// Sessions per client host and type: how many are open at once against the per-type
/// maximum, how long each sat idle (no msg, no ack; heartbeats do not count) against the idle
/// timeout, and how often a client opened a new session of a type soon after closing one
/// (reopening where it could have reused).
///
/// Open sessions are counted per client host and type: one entry per pair, bounded by the
/// reassembler's connection limit. Each pair keeps its open count over time (a change per open
/// and close, at most ``maxSteps``) for the `sessions` measure record and the report.
struct SessionPoolTracker {
    struct Key: Hashable, Comparable {
        var client: IPAddress
        var type: String

        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.client, lhs.type) < (rhs.client, rhs.type) }
    }

    struct Pool {
        var open = 0
        var mostOpen = 0
        var opened = 0
        var reopened = 0
        var lastClosed: Timestamp?
        /// The open count after each change: (capture time in nanoseconds, count).
        var steps: [(at: Int64, count: Int)] = []
        /// Changes past ``SessionPoolTracker/maxSteps`` not kept.
        var stepsNotKept = 0

        mutating func step(at time: Timestamp) {
            // A session counts from its SYN, but is typed at its first frame, after a close of
            // another may have been counted: the series stays in time order.
            let at = max(time.nanoseconds, steps.last?.at ?? .min)
            if steps.count < SessionPoolTracker.maxSteps { steps.append((at, open)) } else { stepsNotKept += 1 }
        }
    }

    /// The most open-count changes kept per client host and type.
    static let maxSteps = 4_096

    private(set) var pools: [Key: Pool] = [:]
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
        pool.step(at: connection.openedAt)
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
            pools[key]?.step(at: time)
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

    /// Changes of the open counts not kept, over every client host and type.
    var stepsNotKept: Int { pools.values.reduce(0) { $0 + $1.stepsNotKept } }

    /// Per client host and type: opened, most open at once, reopened within the idle timeout.
    var figures: [Figure] {
        pools.sorted { ($0.key.client, $0.key.type) < ($1.key.client, $1.key.type) }.map { key, pool in
            Figure("\(key.client) \(key.type)", .group([
                Figure("opened", .count(pool.opened)), Figure("most_open", .count(pool.mostOpen)), Figure("reopened", .count(pool.reopened)),
            ]))
        }
    }
}
