import PacketDecoding

/// Per message id: send → ack latency, missing acks, retransmissions (due or premature),
/// duplicates, reordering and messages sent again on a later connection.
///
/// Ids are kept per client host and direction. An id's state expires with the ack timeout:
/// one ack timeout after its ack (later copies within it are duplicates), or two after its
/// last send when no ack came (it is then a missing ack) — unless the connection it was sent on
/// has ended: then it waits in the client's offline queue for a later connection, for two ack
/// timeouts and four backoff caps after its last send. Latency runs from the first copy sent on
/// the connection the ack comes on (a message sent again after a reconnect starts afresh). An id
/// that expires unacknowledged after its connection failed, although the client reconnected (a
/// retry that carried frames or was established), was lost from the offline queue: an
/// `offline_queue` failure, not a missing ack. At most ``AnalyzePolicy/Limits/messageIDs`` ids
/// are tracked at once; past that new ids are not followed and ``idsNotTracked`` counts them
/// (a `limit` record).
struct DeliveryTracker {
    struct Key: Hashable {
        var client: IPAddress
        var direction: StreamDirection
        var id: MessageID
    }

    private struct Message {
        /// The first copy on the connection it was last sent on.
        var firstSent: Timestamp
        var lastSent: Timestamp
        var connection: ConnectionAnalysis
        var offset: UInt64
        var sends = 1
        var ackedAt: Timestamp?
    }

    private var messages: [Key: Message] = [:]
    /// The highest numeric id first sent, per client host and direction.
    private var highestID: [ReorderKey: UInt64] = [:]
    private struct ReorderKey: Hashable {
        var client: IPAddress
        var direction: StreamDirection
    }
    private var lastSweep: Timestamp?

    let ackTimeout: Int64
    /// How soon after its ack a copy still counts as crossing the ack (the tolerance of the ack timeout).
    let crossingWindow: Int64
    /// How long an unacknowledged id whose connection ended waits for a reconnect.
    let offlineLife: Int64
    let policy: AnalyzePolicy
    let limit: Int

    var latency: Distribution
    var ackLatency = RuleRecord("ack_latency")
    var retransmit = RuleRecord("retransmit")
    var duplicate = RuleRecord("duplicate")
    var reorder = RuleRecord("reorder")
    var offlineQueue = RuleRecord("offline_queue")
    private(set) var sent = 0
    /// Distinct ids sent (first copies).
    private(set) var ids = 0
    private(set) var acked = 0
    private(set) var missingAcks = 0
    private(set) var dueRetransmissions = 0
    private(set) var prematureRetransmissions = 0
    private(set) var duplicateAcks = 0
    private(set) var unmatchedAcks = 0
    private(set) var resentAfterReconnect = 0
    private(set) var idsNotTracked = 0
    /// Messages whose ack never came and that were never sent again.
    private(set) var neverRetransmitted = 0
    /// Messages unacknowledged when their connection failed and not sent again after the reconnect.
    private(set) var lostFromQueue = 0

    init(policy: AnalyzePolicy) {
        ackTimeout = policy.delivery.ackTimeout
        offlineLife = 2 * policy.delivery.ackTimeout + 4 * policy.reconnect.cap
        crossingWindow = Int64(Double(policy.delivery.ackTimeout) * policy.tolerance)
        self.policy = policy
        limit = policy.limits.messageIDs
        latency = Distribution(limit: policy.limits.samples)
    }

    /// What a msg frame was to delivery.
    enum Outcome {
        case first, retransmission, premature, duplicate, afterReconnect, untracked
    }

    /// A msg with `id` on `connection`.
    mutating func message(_ id: MessageID, client: IPAddress, direction: StreamDirection, connection: ConnectionAnalysis,
                          offset: UInt64, time: Timestamp) -> Outcome {
        sweep(now: time)
        sent += 1
        let key = Key(client: client, direction: direction, id: id)
        let evidence = { (note: String) in Evidence(connection: connection.number, direction: direction, offset: offset, time: time, note: note) }
        guard var message = messages[key] else {
            guard messages.count < limit else { idsNotTracked += 1; return .untracked }
            messages[key] = Message(firstSent: time, lastSent: time, connection: connection, offset: offset)
            ids += 1
            duplicate.see(connection.number)
            if let number = id.number {
                let order = ReorderKey(client: client, direction: direction)
                if let highest = highestID[order], number < highest {
                    reorder.fail(evidence("msg \(id) first sent after msg \(highest)"))
                } else {
                    reorder.see(connection.number)
                    highestID[order] = number
                }
            }
            return .first
        }
        defer { messages[key] = message }
        let since = time.nanoseconds - message.lastSent.nanoseconds
        message.sends += 1
        // A copy sent just after the ack went out crossed it on the wire (the client had not read
        // it yet): a retransmission, not a duplicate.
        if let ackedAt = message.ackedAt, time.nanoseconds - ackedAt.nanoseconds >= crossingWindow {
            duplicate.fail(evidence("msg \(id) sent again \(Seconds(time.nanoseconds - ackedAt.nanoseconds)) after its ack"))
            message.lastSent = time
            return .duplicate
        }
        duplicate.see(connection.number)
        message.lastSent = time
        if message.connection !== connection {
            message.connection = connection
            message.firstSent = time
            resentAfterReconnect += 1
            connection.resentFromEarlier += 1
            retransmit.see(connection.number)
            return .afterReconnect
        }
        if since < policy.tolerant(ackTimeout, late: false) {
            prematureRetransmissions += 1
            retransmit.fail(evidence("msg \(id) sent again \(Seconds(since)) after the last copy, before the ack timeout \(Seconds(ackTimeout))"))
            return .premature
        }
        dueRetransmissions += 1
        retransmit.see(connection.number)
        return .retransmission
    }

    /// An ack for `id` travelling in `direction` (the reverse of its msg's).
    mutating func ack(_ id: MessageID, client: IPAddress, direction: StreamDirection, connection: Int, offset: UInt64, time: Timestamp) {
        sweep(now: time)
        let key = Key(client: client, direction: direction.reversed, id: id)
        guard var message = messages[key] else { unmatchedAcks += 1; return }
        guard message.ackedAt == nil else { duplicateAcks += 1; return }
        message.ackedAt = time
        messages[key] = message
        acked += 1
        let measured = time.nanoseconds - message.firstSent.nanoseconds
        latency.add(measured)
        if measured > policy.tolerant(ackTimeout) {
            ackLatency.fail(Evidence(connection: connection, direction: direction, offset: offset, time: time,
                                     note: "ack \(id) \(Seconds(measured)) after its msg (timeout \(Seconds(ackTimeout)))"))
        } else {
            ackLatency.see(connection)
        }
    }

    /// Forgets expired ids (an unacknowledged one is then a missing ack), at most once per ack
    /// timeout of capture time, so the cost per frame stays constant.
    mutating func sweep(now: Timestamp) {
        guard let last = lastSweep else { lastSweep = now; return }
        guard now.nanoseconds - last.nanoseconds >= ackTimeout else { return }
        lastSweep = now
        var kept: [Key: Message] = [:]
        kept.reserveCapacity(messages.count)
        var expired: [(Key, Message)] = []
        for (key, message) in messages {
            if let ackedAt = message.ackedAt {
                if now.nanoseconds - ackedAt.nanoseconds <= ackTimeout { kept[key] = message }
            } else if now.nanoseconds - message.lastSent.nanoseconds <= (message.connection.endedAt == nil ? 2 * ackTimeout : offlineLife) {
                kept[key] = message
            } else {
                expired.append((key, message))
            }
        }
        noteMissing(expired)
        messages = kept
    }

    /// Ends the capture at `end`: unacknowledged messages whose timeout passed are missing acks.
    mutating func finish(at end: Timestamp) {
        noteMissing(messages.filter { $0.value.ackedAt == nil && end.nanoseconds - $0.value.lastSent.nanoseconds > policy.tolerant(ackTimeout) }
            .map { ($0.key, $0.value) })
        messages = [:]
    }

    /// Judges expired unacknowledged messages in the order they were first sent (the dictionary's
    /// order changes from run to run; the evidence must not).
    private mutating func noteMissing(_ expired: [(Key, Message)]) {
        for (key, message) in expired.sorted(by: { ($0.1.firstSent.nanoseconds, $0.1.offset) < ($1.1.firstSent.nanoseconds, $1.1.offset) }) {
            noteMissing(message, key: key)
        }
    }

    private mutating func noteMissing(_ message: Message, key: Key) {
        if message.connection.endedAt != nil, let retry = message.connection.reconnectedBy, retry.frames > 0 || retry.established {
            lostFromQueue += 1
            offlineQueue.fail(Evidence(connection: message.connection.number, direction: key.direction, offset: message.offset, time: message.firstSent,
                                       note: "msg \(key.id) lost: unacknowledged when conn \(message.connection.number) ended, not sent again on conn \(retry.number)"))
            return
        }
        missingAcks += 1
        if message.sends == 1 { neverRetransmitted += 1 }
        ackLatency.fail(Evidence(connection: message.connection.number, direction: key.direction, offset: message.offset, time: message.firstSent,
                                 note: "msg \(key.id): no ack (sent \(message.sends)×)"))
    }
}
