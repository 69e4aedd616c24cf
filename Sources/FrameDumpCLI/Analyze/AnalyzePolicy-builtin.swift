/// The policies `--policy NAME` names.
extension AnalyzePolicy {
    /// The built-in policies' names.
    static let builtInNames = ["im-default"]

    /// The built-in policy called `name`, or `nil`.
    static func builtIn(named name: String) -> AnalyzePolicy? {
        name == "im-default" ? imDefault : nil
    }

    /// `im-default`: an instant-messaging client on h12 (ping 1, pong 2, msg 3 with a JSON body
    /// holding `"id"`, ack 4 carrying the id as a big-endian u32, as `listen --respond` answers).
    ///
    /// Heartbeats every 30 s on Wi-Fi, 15 s on cellular, 10 s on a weak network, 60 s in the
    /// background, ±10 %; a pong within 5 s; 3 missed pongs and the connection is dead, to be
    /// closed and reconnected with backoff 1, 2, 4, 8, 16 s (the cap), each ±0.5 s of jitter;
    /// every msg acknowledged within 5 s, else retransmitted; at most 200 messages sent again
    /// after a reconnect; sessions typed by the first frame's `"session"` (chat, media,
    /// signalling), at most 3 open per type, closed after 5 minutes without a message.
    static let imDefault = AnalyzePolicy(
        name: "im-default",
        frames: FrameRoles(field: "cmd", ping: 1, pong: 2, msg: 3, ack: 4),
        messageID: .json(["id"]),
        ackID: .bodyInteger(count: 4),
        tolerance: 0.1,
        heartbeat: Heartbeat(
            intervals: [("wifi", 30 * second), ("cellular", 15 * second), ("weak", 10 * second), ("background", 60 * second)],
            pongTimeout: 5 * second, missedPongs: 3),
        reconnect: Reconnect(base: 1 * second, factor: 2, cap: 16 * second, jitter: second / 2),
        delivery: Delivery(ackTimeout: 5 * second, offlineQueue: 200),
        sessions: Sessions(typeBy: .firstFrameJSON(["session"]), maxPerType: 3, idleTimeout: 300 * second),
        limits: Limits()
    )

    private static let second: Int64 = 1_000_000_000
}
