import PacketDecoding

/// Everything `analyze` follows on one TCP connection: its ends, its heartbeats and pongs, its
/// session type and activity, and its frames over time for the report's ladder.
///
/// A class: the analyzer looks it up once per frame and changes it in place.
final class ConnectionAnalysis {
    let number: Int
    let client: Endpoint
    let server: Endpoint
    let openedAt: Timestamp
    /// Whether the capture holds the client's SYN (the connection was opened inside the capture).
    let sawSYN: Bool

    /// The first sign of the end: the first FIN reached, or the RST.
    var endedAt: Timestamp?
    /// Who ended it first (`clientToServer`: the client) and how.
    var endedBy: StreamDirection?
    var endedWith: DirectionCloseReason?
    /// Whether the handshake completed (anything beyond SYN and SYN-ACK).
    var established = false
    /// Whether a retry of the same client showed this attempt unanswered (``ReconnectTracker``).
    var judgedUnanswered = false
    /// The client's latest retry after this connection failed (``ReconnectTracker``): messages
    /// left unacknowledged here are owed to it from the offline queue. Weak, so that a run of
    /// reconnects does not keep every connection of it alive.
    weak var reconnectedBy: ConnectionAnalysis?
    var frames = 0

    // Heartbeats.
    /// Ping intervals not yet judged, with the ping that ended each (for evidence once the
    /// expected interval is known); judged and emptied at the end, or at ``maxPendingIntervals``.
    var intervals: [(nanoseconds: Int64, offset: UInt64, time: Timestamp)] = []
    /// Every ping interval, for the connection's measure record.
    var heartbeat = Distribution(limit: ConnectionAnalysis.sampleLimit)
    /// The policy interval the connection was last held to.
    var expectedInterval: String?
    var lastPing: Timestamp?
    var pongRTT: Distribution
    /// Pings waiting for a pong: time, offset and a hash of the body (pongs echo it).
    var outstanding: [(time: Timestamp, offset: UInt64, key: UInt64)] = []
    /// The latest pings that went unanswered in time, for matching a late pong.
    var recentlyMissed: [(time: Timestamp, offset: UInt64, key: UInt64)] = []
    var consecutiveMissed = 0
    /// Pings dropped from a full `outstanding` (neither answered nor counted missed).
    var pingsDropped = 0
    var missedPongs = 0
    var latePongs = 0
    /// When the connection became dead (the deadline of the last of `missedPongs` consecutive missed pings).
    var deadAt: Timestamp?
    var deadPing: (offset: UInt64, time: Timestamp)?
    /// Whether the client's reaction to the dead connection has been judged.
    var reactionJudged = false

    // Sessions and delivery.
    var sessionType: String?
    var sawFirstClientFrame = false
    var lastActivity: Timestamp
    var longestIdle: Int64 = 0
    var messages = 0
    var acks = 0
    /// Messages first sent on an earlier connection and sent again on this one.
    var resentFromEarlier = 0

    /// The report's ladder: every frame and event counted over time, the first of each window kept.
    var ladder = LadderTimeline()
    /// Outstanding and recently missed pings kept per connection.
    static let maxPendingPings = 64
    /// Ping intervals held for judging before they are judged in a batch.
    static let maxPendingIntervals = 4096
    /// Samples per distribution of one connection (its measure record's percentiles).
    static let sampleLimit = 1024

    init(number: Int, client: Endpoint, server: Endpoint, openedAt: Timestamp, sawSYN: Bool) {
        self.number = number
        self.client = client
        self.server = server
        self.openedAt = openedAt
        self.sawSYN = sawSYN
        lastActivity = openedAt
        pongRTT = Distribution(limit: Self.sampleLimit)
    }

    /// Whether the client ended the connection first.
    var closedByClient: Bool { endedBy == .clientToServer }

    /// Adds `entry` to the ladder, its row taken from `budget` while it lasts.
    func note(_ entry: LadderEntry, budget: inout Int) {
        ladder.add(entry, budget: &budget)
    }

    /// Counts the pings whose pong deadline passed by `now` as missed; the connection is dead at
    /// the deadline of the `threshold`-th consecutive one.
    func expirePings(now: Timestamp, pongTimeout: Int64, threshold: Int) {
        while let ping = outstanding.first, ping.time.nanoseconds + pongTimeout < now.nanoseconds {
            outstanding.removeFirst()
            missedPongs += 1
            consecutiveMissed += 1
            if recentlyMissed.count == 8 { recentlyMissed.removeFirst() }
            recentlyMissed.append(ping)
            ladder.mark(clientEntryAt: ping.time, as: .missed)
            if consecutiveMissed >= threshold, deadAt == nil {
                deadAt = Timestamp(nanoseconds: ping.time.nanoseconds + pongTimeout)
                deadPing = (ping.offset, ping.time)
            }
        }
    }

    /// A ping from the client: the interval since the last one, and a pong to wait for.
    func ping(offset: UInt64, time: Timestamp, key: UInt64) {
        if let last = lastPing {
            intervals.append((time.nanoseconds - last.nanoseconds, offset, time))
            heartbeat.add(time.nanoseconds - last.nanoseconds)
        }
        lastPing = time
        if outstanding.count == Self.maxPendingPings {
            outstanding.removeFirst()
            pingsDropped += 1
        }
        outstanding.append((time, offset, key))
    }

    /// A pong from the server, matched to its ping by body, else to the oldest one waiting.
    ///
    /// - Returns: The round-trip time and whether it came after the pong timeout; `nil` when no
    ///   ping waits for it.
    func pong(time: Timestamp, key: UInt64, pongTimeout: Int64) -> (rtt: Int64, late: Bool)? {
        if let index = outstanding.firstIndex(where: { $0.key == key }) ?? (outstanding.isEmpty ? nil : 0) {
            let ping = outstanding.remove(at: index)
            // Pings before the answered one were not answered: the server answers in order.
            consecutiveMissed = 0
            let rtt = time.nanoseconds - ping.time.nanoseconds
            pongRTT.add(rtt)
            return (rtt, false)
        }
        if let index = recentlyMissed.lastIndex(where: { $0.key == key }) ?? (recentlyMissed.isEmpty ? nil : 0) {
            let ping = recentlyMissed.remove(at: index)
            latePongs += 1
            let rtt = time.nanoseconds - ping.time.nanoseconds
            pongRTT.add(rtt)
            return (rtt, true)
        }
        return nil
    }
}
