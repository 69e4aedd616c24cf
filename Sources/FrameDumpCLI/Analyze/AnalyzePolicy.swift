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

    /// Which frames are ping, pong, msg and ack: for each role, the header field values a frame
    /// of it has.
    struct FrameRoles: Equatable {
        /// The field a role given as a bare value is read from, and the one a frame of no role
        /// is labelled by (h12: `cmd`).
        var field: String
        var ping: [FieldCondition]
        var pong: [FieldCondition]
        var msg: [FieldCondition]
        var ack: [FieldCondition]

        /// Each role by one value of `field`.
        init(field: String, ping: UInt64, pong: UInt64, msg: UInt64, ack: UInt64) {
            func only(_ role: String, _ value: UInt64) -> [FieldCondition] { [FieldCondition(field: field, value: .number(value), path: "frames.\(role)")] }
            self.field = field
            self.ping = only("ping", ping)
            self.pong = only("pong", pong)
            self.msg = only("msg", msg)
            self.ack = only("ack", ack)
        }
    }

    /// One header field's value a frame must have: `cmd` = `ping` (a name of the format's
    /// `cmd:u8{1=ping,…}`) or `cmd` = 1.
    ///
    /// A name is resolved against each stream's format (``FrameClassifier``), since a policy is
    /// read before the formats are known; ``path`` and ``location`` say where the policy file
    /// wrote it, for the error when a format has no such field or name. Two conditions are equal
    /// when their field and value are.
    struct FieldCondition: Equatable {
        var field: String
        var value: FieldValue
        /// The key path in the policy file, e.g. `frames.ping.cmd`.
        var path: String
        /// Where in the policy file; `nil` for a built-in policy.
        var location: SourceLocation? = nil

        static func == (lhs: FieldCondition, rhs: FieldCondition) -> Bool {
            lhs.field == rhs.field && lhs.value == rhs.value
        }
    }

    /// A header field's value in a policy: a number, or a name the format's value names give.
    enum FieldValue: Equatable, CustomStringConvertible {
        case number(UInt64)
        case name(String)

        var description: String {
            switch self {
            case .number(let number): String(number)
            case .name(let name): "'\(name)'"
            }
        }
    }

    /// A place in a policy file: 1-based line and column (in Unicode scalars).
    struct SourceLocation: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int

        /// The place of byte `index` of `text` (an index of `text`, not an offset from its start).
        init(_ index: Int, in text: ArraySlice<UInt8>) {
            let before = text[text.startIndex..<index]
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
            line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            // UTF-8 continuation bytes (10xxxxxx) do not start a scalar.
            column = before[lineStart...].count(where: { $0 & 0xC0 != 0x80 }) + 1
        }

        var description: String { "line \(line), column \(column)" }
    }

    /// Where a frame carries a message id.
    enum MessageIDLocation: Equatable {
        /// A header field, by name.
        case field(String)
        /// A member of the JSON object body, by key path (`["meta", "id"]` for `meta.id`).
        case json([String])
        /// The body's first `count` bytes (1...8) as a big-endian unsigned integer (h12's ack).
        case bodyInteger(count: Int)
        /// A field of a protobuf body, by field numbers from the outer message in (`[2, 1]`:
        /// field 1 of the message in field 2), read without a schema (``ProtobufIDReader``).
        case protobuf([UInt32])
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
        /// A string field of the client's first frame's protobuf body, by field number path.
        case firstFrameProtobuf([UInt32])
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
