import PacketDecoding

/// Reconnect attempts per client host and server: after a connection fails (the server
/// closed or reset it, the client closed it as dead, or an attempt was refused or never
/// answered), each new SYN's delay since the failure, against the backoff schedule.
///
/// ```
/// conn 1 established … server RST at 10.0 ──┐ failure, retry 0
/// conn 2 SYN 11.2 (delay 1.2, expected 1±0.5) ─ refused at 11.2: retry 1
/// conn 3 SYN 13.1 (delay 1.9, expected 2±0.5) ─ no answer
/// conn 4 SYN 17.3 (delay 4.2 from conn 3's SYN, expected 4±0.5): conn 3 timed out, retry 2
///                                              ─ established: the run ends
/// ```
struct ReconnectTracker {
    struct Key: Hashable {
        var client: IPAddress
        var server: Endpoint
    }

    /// One measured delay.
    struct Delay {
        var measured: Int64
        var expected: Int64
        /// The retry's number since the failure (0: the first).
        var attempt: Int
        /// The SYN that ended the delay.
        var evidence: Evidence
    }

    /// A failure the client has not yet retried after.
    private struct Pending {
        var failedAt: Timestamp
        var attempt: Int
        /// The established connection whose failure began the run (its messages wait for a retry).
        var origin: ConnectionAnalysis?
    }

    /// Failures waiting for a retry: one per client host and server, so bounded by the
    /// reassembler's connection limit.
    private var pending: [Key: Pending] = [:]
    /// Every delay per client host, in capture order.
    private(set) var delays: [IPAddress: [Delay]] = [:]
    /// Attempts that were refused (RST to the SYN) or never answered.
    private(set) var refused = 0
    private(set) var unanswered = 0
    let reconnect: AnalyzePolicy.Reconnect

    init(_ reconnect: AnalyzePolicy.Reconnect) { self.reconnect = reconnect }

    /// A SYN of `connection`: a retry when a failure of the same client and server waits for one.
    ///
    /// A retry while the previous attempt is still open without a frame ends that attempt as
    /// unanswered (a SYN timeout: the client gave up and tried again), failed at its first SYN:
    /// a connection that was never answered has no close to wait for (the client's give-up sends
    /// nothing), and the capture does not show when the client gave up.
    mutating func opened(_ connection: ConnectionAnalysis) {
        let key = Key(client: connection.client.address, server: connection.server)
        guard connection.sawSYN else { return }
        if let inFlight = attemptInFlight[key], inFlight.connection.frames == 0, inFlight.connection.endedAt == nil {
            inFlight.connection.judgedUnanswered = true
            unanswered += 1
            attemptInFlight[key] = nil
            pending[key] = Pending(failedAt: inFlight.connection.openedAt, attempt: inFlight.attempt + 1, origin: inFlight.origin)
        }
        guard let failure = pending.removeValue(forKey: key) else { return }
        failure.origin?.reconnectedBy = connection
        let delay = Delay(
            measured: connection.openedAt.nanoseconds - failure.failedAt.nanoseconds,
            expected: reconnect.expectedDelay(attempt: failure.attempt), attempt: failure.attempt,
            evidence: Evidence(connection: connection.number, direction: .clientToServer, offset: 0, time: connection.openedAt, note: "SYN"))
        delays[key.client, default: []].append(delay)
        // Until this attempt's outcome is known, a failure of it continues the same run.
        attemptInFlight[key] = (failure.attempt, connection, failure.origin)
    }

    /// Attempts whose outcome is not known yet: their retry number, connection and the run's origin.
    private var attemptInFlight: [Key: (attempt: Int, connection: ConnectionAnalysis, origin: ConnectionAnalysis?)] = [:]

    /// `connection` ended (its first FIN or its RST; a refusal): whether, and from which retry
    /// number on, the client must reconnect.
    ///
    /// - Parameters:
    ///   - connection: The connection, who ended it recorded.
    ///   - refusedOrUnanswered: It never got past the handshake.
    ///   - time: When the client learned of the failure (the RST, the first FIN, its last SYN).
    ///   - wasReset: A refusal: the attempt was answered with RST (else it was never answered).
    mutating func ended(_ connection: ConnectionAnalysis, refusedOrUnanswered: Bool, at time: Timestamp, wasReset: Bool) {
        // Judged unanswered when the client retried; its close at the capture's end says nothing new.
        guard !connection.judgedUnanswered else { return }
        let key = Key(client: connection.client.address, server: connection.server)
        var inFlight: (attempt: Int, connection: ConnectionAnalysis, origin: ConnectionAnalysis?)?
        if let attempt = attemptInFlight[key], attempt.connection === connection {
            inFlight = attempt
            attemptInFlight[key] = nil
        }
        if refusedOrUnanswered {
            if wasReset { refused += 1 } else { unanswered += 1 }
            pending[key] = Pending(failedAt: time, attempt: (inFlight?.attempt ?? -1) + 1, origin: inFlight?.origin)
            return
        }
        // An established connection: a failure unless the client closed it of its own accord.
        let clientChoseToClose = connection.closedByClient && connection.deadAt == nil
        if !clientChoseToClose {
            pending[key] = Pending(failedAt: time, attempt: 0, origin: connection)
        }
    }
}
