/// What `framedump analyze` checks a long-connection client against: which frames are
/// heartbeats and messages, where a message's id is, and the keep-alive, reconnect, delivery
/// and session-pool numbers the client promises to follow.
///
/// Read from a JSON file (docs/analyze.md gives every key) or built in (``builtIn(named:)``:
/// `im-default`). Times are nanoseconds of capture time; ``scaled(by:)`` multiplies every one,
/// so a test client that runs the policy 20 times faster is checked against the same file.
struct AnalyzePolicy: Equatable {
    /// The policy's name, as the output names it.
    var name: String
    /// Which header field tells the frame roles apart, and its value for each role.
    var frames: FrameRoles
    /// Where a msg frame carries its message id.
    var messageID: MessageIDLocation
    /// Where an ack frame carries the id of the message it acknowledges.
    var ackID: MessageIDLocation
    /// The fraction by which a measured time may differ from the policy's (0.1: ±10 %).
    var tolerance: Double
    var heartbeat: Heartbeat
    var reconnect: Reconnect
    var delivery: Delivery
    var sessions: Sessions
    var limits: Limits

    /// The header field and its values for ping, pong, msg and ack.
    struct FrameRoles: Equatable {
        /// The field's name in the frame format (h12: `cmd`).
        var field: String
        var ping: UInt64
        var pong: UInt64
        var msg: UInt64
        var ack: UInt64
    }

    /// Where a frame carries a message id.
    enum MessageIDLocation: Equatable {
        /// A header field, by name.
        case field(String)
        /// A member of the JSON object body, by key path (`["meta", "id"]` for `meta.id`).
        case json([String])
        /// The body's first `count` bytes (1...8) as a big-endian unsigned integer (h12's ack).
        case bodyInteger(count: Int)
    }

    /// Keep-alive: how often the client pings and what it does when pongs stop.
    struct Heartbeat: Equatable {
        /// The intervals the client may use, by network condition (`wifi`, `cellular`, …),
        /// nanoseconds; a connection is held to the one nearest its median interval.
        var intervals: [(name: String, nanoseconds: Int64)]
        /// How long a pong may take after its ping before the ping counts as missed.
        var pongTimeout: Int64
        /// Consecutive missed pongs after which the connection is dead and the client must close it.
        var missedPongs: Int

        static func == (lhs: Heartbeat, rhs: Heartbeat) -> Bool {
            lhs.intervals.map(\.name) == rhs.intervals.map(\.name) && lhs.intervals.map(\.nanoseconds) == rhs.intervals.map(\.nanoseconds)
                && lhs.pongTimeout == rhs.pongTimeout && lhs.missedPongs == rhs.missedPongs
        }
    }

    /// Reconnect backoff: the k-th retry after a failure waits `min(base × factor^k, cap) ± jitter`.
    struct Reconnect: Equatable {
        var base: Int64
        var factor: Double
        var cap: Int64
        /// The random spread the client adds to each delay, either way.
        var jitter: Int64

        /// The delay before retry `attempt` (0: the first after the failure), without jitter.
        func expectedDelay(attempt: Int) -> Int64 {
            var delay = Double(base)
            for _ in 0..<min(attempt, 64) where delay < Double(cap) { delay *= factor }
            return delay >= Double(cap) ? cap : Int64(delay)  // a huge factor makes delay infinite
        }
    }

    /// Delivery: acknowledgement and retransmission.
    struct Delivery: Equatable {
        /// How long an ack may take; without one by then the client retransmits the message.
        var ackTimeout: Int64
        /// The most messages the client may send again after a reconnect (its offline queue).
        var offlineQueue: Int
    }

    /// The session pool: how a connection's type is told, the most open per type, the idle timeout.
    struct Sessions: Equatable {
        var typeBy: SessionTypeSource
        /// The most connections of one type a client may have open at once.
        var maxPerType: Int
        /// How long a session may go without a msg or ack before the client closes it.
        var idleTimeout: Int64
    }

    /// How a connection's session type is found.
    enum SessionTypeSource: Equatable {
        /// By the server's port: port → type.
        case serverPort([UInt16: String])
        /// By a header field of the client's first frame: value → type.
        case field(String, [UInt64: String])
        /// A JSON string member of the client's first frame's body, by key path.
        case firstFrameJSON([String])
    }

    /// The bounds of the analysis's state tables; reaching one is reported as a `limit` record.
    struct Limits: Equatable {
        /// Message ids tracked at once per client host and direction.
        var messageIDs = 100_000
        /// Samples kept per distribution for its percentiles (min, max and count stay exact).
        var samples = 100_000
        /// Connections whose figures are kept for the per-connection records and the report.
        var connections = 10_000
    }

    /// The longest of the policy's times, in nanoseconds.
    var longestTime: Double {
        let times = heartbeat.intervals.map(\.nanoseconds)
            + [heartbeat.pongTimeout, reconnect.base, reconnect.cap, reconnect.jitter, delivery.ackTimeout, sessions.idleTimeout]
        return Double(times.max() ?? 0)
    }

    /// The policy with every time multiplied by `factor` (`--time-scale`).
    func scaled(by factor: Double) -> AnalyzePolicy {
        func scale(_ value: Int64) -> Int64 { Int64((Double(value) * factor).rounded()) }
        var policy = self
        policy.heartbeat.intervals = heartbeat.intervals.map { ($0.name, scale($0.nanoseconds)) }
        policy.heartbeat.pongTimeout = scale(heartbeat.pongTimeout)
        policy.reconnect.base = scale(reconnect.base)
        policy.reconnect.cap = scale(reconnect.cap)
        policy.reconnect.jitter = scale(reconnect.jitter)
        policy.delivery.ackTimeout = scale(delivery.ackTimeout)
        policy.sessions.idleTimeout = scale(sessions.idleTimeout)
        return policy
    }

    /// How far a reconnect delay may be from the schedule's `expected`: the jitter, plus the
    /// tolerance of `expected`.
    func backoffSlack(_ expected: Int64) -> Int64 {
        reconnect.jitter + Int64(Double(expected) * tolerance)
    }

    /// `value` with the policy's tolerance added (`late`) or taken away.
    func tolerant(_ value: Int64, late: Bool = true) -> Int64 {
        let slack = Int64(Double(value) * tolerance)
        return late ? value + slack : value - slack
    }
}
