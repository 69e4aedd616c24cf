/// Turns captured TCP segments into ordered byte streams per connection and direction, with
/// every hole reported as a gap and memory bounded by ``ReassemblyLimits``.
///
/// Feed it every TCP segment in capture order with ``process(_:at:_:)``, then call
/// ``finish(_:)`` at the end of the capture. It calls back with ``ReassemblyEvent`` values:
///
/// ```
/// segments (capture order)          events
/// A→B SYN seq=99                    connectionOpened #1 client A server B (syn)
/// A→B seq=100 "hello"               data #1 c2s offset 0 "hello"
/// A→B seq=110 "world"  (early)      —  (held out of order)
/// A→B seq=105 "there"               data #1 c2s offset 5 "there", data #1 c2s offset 10 "world"
/// A→B seq=115 FIN                   directionClosed #1 c2s offset 15 fin
/// finish()                          connectionClosed #1 end
/// ```
///
/// - Sequence numbers (RFC 9293 §3.4) become absolute `UInt64` stream offsets: 0 is the byte
///   after the ISN when the SYN was seen, else the first byte seen. Serial number arithmetic
///   (RFC 1982) carries them across 2³² wraps. SYN and FIN each take one sequence number and no
///   offset.
/// - Overlaps and retransmissions: delivered bytes stay; where held bytes overlap, the
///   ``OverlapPolicy`` picks the copy; the losing copies are counted in
///   ``StreamStatistics/retransmittedBytes`` and copies that differ are a notice
///   (docs/reassembly.md, "Overlap policies").
/// - A hole becomes a `gap` when the peer acknowledges past it (with data or a FIN waiting
///   behind it). When a RST ends the connection, an out-of-order limit is hit, the connection is
///   evicted or idle, or at ``finish(_:)``, holes the peer acknowledged become gaps and what lies
///   behind an unacknowledged hole is `discarded` (a ``ReassemblyNotice``). Bytes cut by the
///   snaplen (`TCPSegment.missingPayloadLength`) are a gap with cause ``GapCause/notCaptured``.
/// - A RST is taken only at the next expected sequence number or the peer's latest
///   acknowledgment number (RFC 5961 §3.2); others are a notice and the connection goes on.
/// - Data before offset 0 or after the FIN is dropped and counted in
///   ``StreamStatistics/ignoredBytes``.
///
/// Work per segment is O(1) amortized plus the bytes it copies into the out-of-order buffer
/// (only segments that arrive early are copied; in-order data is delivered straight from the
/// segment's buffer).
public struct TCPReassembler {
    /// The bounds in force.
    public let limits: ReassemblyLimits
    /// Which copy of overlapping held bytes is kept.
    public let overlapPolicy: OverlapPolicy
    private var table = FlowTable()
    private var nextConnectionNumber = 1
    /// The latest capture time seen; idle eviction uses it, so capture time never runs backwards.
    private var clock: Timestamp?
    /// Out-of-order memory held by all connections (``ReassemblyLimits/heldChunkOverhead`` included).
    public private(set) var outOfOrderBytesHeld = 0
    /// Memory all connections keep to compare retransmissions with delivered bytes (the
    /// storage's capacity, in bytes).
    public private(set) var retainedBytesHeld = 0
    /// Memory whose bytes stay valid and unchanged for as long as the reassembler lives — a
    /// capture file mapped into memory (`PcapSource.persistentBytes`) — or `nil`. A delivered
    /// payload that lies within it is kept for comparing retransmissions by its address rather
    /// than copied. What is compared, and so every event, is the same either way, except once
    /// ``ReassemblyLimits/maxRetainedBytesTotal`` is reached: bytes kept in place cost only
    /// their pieces' bookkeeping against it, so they reach it later.
    public var persistentBytes: UnsafeRawBufferPointer?

    /// - Parameters:
    ///   - limits: Memory and connection bounds; ``ReassemblyLimits/default`` if omitted.
    ///   - overlapPolicy: Which copy of overlapping held bytes is kept; ``OverlapPolicy/linux``
    ///     if omitted.
    public init(limits: ReassemblyLimits = .default, overlapPolicy: OverlapPolicy = .linux) {
        self.limits = limits
        self.overlapPolicy = overlapPolicy
    }

    /// Connections in the table: open ones and closed ones kept to recognize late segments.
    public var trackedConnectionCount: Int { table.count }

    /// The tracked connections' counters, in connection-number order (O(n log n)).
    public var trackedConnections: [ConnectionSummary] {
        table.slotsByConnectionNumber.map { table[$0].summary }
    }

    /// Takes the next captured segment.
    ///
    /// First evicts connections idle for ``ReassemblyLimits/idleTimeoutNanoseconds``, then
    /// finds or creates the segment's connection, applies its ACK to the opposite direction,
    /// and places its payload, FIN or RST.
    ///
    /// - Parameters:
    ///   - segment: The segment; its payload is only read during this call.
    ///   - time: Its capture time. Times that run backwards are treated as the latest time seen.
    ///   - receive: Called with each event, in order, before `process` returns. A `data`
    ///     event's bytes are valid only during that call.
    /// - Throws: Whatever `receive` throws; the event that threw and the rest of this segment's
    ///   events are lost, but the reassembler stays consistent and can go on.
    public mutating func process(_ segment: TCPSegment, at time: Timestamp,
                                 _ receive: (ReassemblyEvent) throws -> Void) rethrows {
        let now = max(clock ?? time, time)
        clock = now
        try expireIdle(now: now, receive)

        let flags = segment.flags
        let isSYN = flags.contains(.syn)
        let sequenceNumber = SequenceNumber(segment.sequenceNumber)
        let slot = try connectionSlot(for: segment, at: now, receive)
        table.touch(slot)
        let connection = table[slot]
        connection.lastSeen = now
        let direction = connection.direction(from: segment.source)

        if connection.isClosed {
            connection.withStream(direction) { $0.ignore(segment.payload) }
            return
        }
        // An RST alone (a refused SYN) does not establish the connection.
        if !isSYN, !flags.contains(.rst) { connection.isEstablished = true }
        let isReset = flags.contains(.rst)
        if isReset, !connection.withStream(direction, { $0.acceptsReset(sequenceNumber) }) {
            // RFC 5961 §3.2, Linux `tcp_validate_incoming`: the receiver answers with a challenge
            // ACK and drops the RST before looking at its ACK field; the connection goes on.
            try connection.withStream(direction) { try $0.ignoreReset(sequenceNumber, payload: segment.payload, receive) }
            return
        }
        if flags.contains(.ack) {
            let acknowledged = SequenceNumber(segment.acknowledgmentNumber)
            try changingHeldBytes(of: slot, connection) {
                try $0.withStream(direction.reversed) { try $0.acknowledge(acknowledged, receive) }
            }
        }
        if isReset {
            connection.withStream(direction) { $0.ignore(segment.payload) }
            connection.resetBy = direction
            try close(slot, reason: .reset, receive)
            return
        }

        // A SYN's payload (TCP Fast Open, RFC 7413) starts after the sequence number the SYN takes.
        let first = isSYN ? sequenceNumber.advanced(by: 1) : sequenceNumber
        let retention = retainedBytesHeld < limits.maxRetainedBytesTotal ? limits.maxRetainedBytesPerDirection : 0
        let policy = overlapPolicy
        let persists = persistentBytes?.encloses(segment.payload) ?? false
        try changingHeldBytes(of: slot, connection) {
            try $0.withStream(direction) { stream in
                stream.start(sequenceNumber: sequenceNumber, isSYN: isSYN)
                try stream.receive(offset: stream.offset(of: first), payload: segment.payload,
                                   missing: segment.missingPayloadLength, fin: flags.contains(.fin),
                                   policy: policy, retention: retention, payloadPersists: persists, receive)
            }
        }
        try enforceOutOfOrderLimits(slot, connection, direction, receive)
        if connection.bothDirectionsClosed {
            try close(slot, reason: .finished, receive)
        }
    }

    /// Flushes and forgets the connections idle for longer than
    /// ``ReassemblyLimits/idleTimeoutNanoseconds`` at capture time `now`.
    ///
    /// ``process(_:at:_:)`` calls it; call it yourself when capture time advances without
    /// segments (a live capture's timer). Costs O(1) plus O(1) per connection evicted.
    ///
    /// - Parameters:
    ///   - now: The current capture time.
    ///   - receive: Gets each evicted open connection's remaining gaps and its
    ///     `connectionClosed(…, reason: .idleTimeout)`, and each closed one's
    ///     `connectionForgotten`.
    /// - Throws: Whatever `receive` throws; a connection is forgotten only once all its events
    ///   went through, so the rest stay tracked.
    public mutating func expireIdle(now: Timestamp, _ receive: (ReassemblyEvent) throws -> Void) rethrows {
        for closed in [true, false] {
            while let oldest = closed ? table.closedRecency.head : table.recency.head {
                let idle = now.nanoseconds.subtractingReportingOverflow(table[oldest].lastSeen.nanoseconds)
                guard idle.overflow || idle.partialValue > limits.idleTimeoutNanoseconds else { break }
                let wasClosed = table[oldest].isClosed
                try close(oldest, reason: .idleTimeout, receive)
                try forget(oldest, announcing: wasClosed, receive)
            }
        }
    }

    /// Ends the capture: every open connection reports its remaining holes as gaps and closes
    /// with ``ConnectionCloseReason/endOfCapture``, in connection-number order. The table is
    /// empty afterwards; connection numbers keep counting if more segments follow.
    ///
    /// - Parameter receive: Gets every remaining gap and closing event, in order.
    /// - Throws: Whatever `receive` throws; a connection is forgotten only once all its events
    ///   went through, so the rest stay tracked.
    public mutating func finish(_ receive: (ReassemblyEvent) throws -> Void) rethrows {
        for slot in table.slotsByConnectionNumber {
            try close(slot, reason: .endOfCapture, receive)
            table.remove(slot)
        }
    }

    /// The slot of the segment's connection, opening a new connection when none is tracked or
    /// a SYN reuses the 4-tuple (RFC 9293 §3.5).
    private mutating func connectionSlot(for segment: TCPSegment, at now: Timestamp,
                                         _ receive: (ReassemblyEvent) throws -> Void) rethrows -> Int32 {
        let key = ConnectionKey(segment)
        let isSYN = segment.flags.contains(.syn), isACK = segment.flags.contains(.ack)
        if let slot = table.slot(for: key) {
            guard isSYN, table[slot].isReplaced(bySYNFrom: segment.source, sequenceNumber: SequenceNumber(segment.sequenceNumber),
                                                acknowledges: isACK) else { return slot }
            try close(slot, reason: .replaced, receive)
            table.remove(slot)
        }
        while table.count >= limits.maxConnections, let oldest = table.evictionCandidate {
            if !table[oldest].isClosed {
                try receive(.limitHit(.maxConnections, connection: table[oldest].number, direction: nil))
            }
            let wasClosed = table[oldest].isClosed
            try close(oldest, reason: .evicted, receive)
            try forget(oldest, announcing: wasClosed, receive)
        }
        let client, server: Endpoint
        let roles: RoleEvidence
        if isSYN, isACK {
            (client, server, roles) = (segment.destination, segment.source, .synAck)
        } else {
            (client, server, roles) = (segment.source, segment.destination, isSYN ? .syn : .firstPacket)
        }
        let number = nextConnectionNumber
        nextConnectionNumber += 1
        let slot = table.insert(TCPConnection(number: number, key: key, client: client, server: server, roles: roles, at: now))
        try receive(.connectionOpened(connection: number, client: client, server: server, roles: roles))
        return slot
    }

    /// Removes a connection from the table; one that had closed before (`announcing`) says so
    /// with its latest counters (`connectionForgotten`).
    private mutating func forget(_ slot: Int32, announcing: Bool, _ receive: (ReassemblyEvent) throws -> Void) rethrows {
        if announcing { try receive(.connectionForgotten(summary: table[slot].summary)) }
        table.remove(slot)
    }

    /// Reports what the connection still holds (holes as gaps) and emits `connectionClosed`,
    /// once; the entry stays in the table until removed.
    private mutating func close(_ slot: Int32, reason: ConnectionCloseReason,
                                _ receive: (ReassemblyEvent) throws -> Void) rethrows {
        guard !table[slot].isClosed else { return }
        table[slot].isClosed = true
        table.noteClosed(slot)
        if reason == .reset { table[slot].wasReset = true }
        let closing: DirectionCloseReason? = reason == .reset ? .reset : nil
        try changingHeldBytes(of: slot, table[slot]) { connection in
            for direction in StreamDirection.allCases {
                try connection.withStream(direction) { try $0.flush(closing: closing, receive) }
            }
            connection.releaseBuffers()
        }
        try receive(.connectionClosed(summary: table[slot].summary, reason: reason))
    }

    /// Applies the out-of-order limits after `direction` of `connection` (at `slot`) took a
    /// segment: first the direction's own bound, then the total — which flushes the
    /// connections that have held bytes longest, since their holes are the least likely to fill.
    private mutating func enforceOutOfOrderLimits(_ slot: Int32, _ connection: TCPConnection, _ direction: StreamDirection,
                                                  _ receive: (ReassemblyEvent) throws -> Void) rethrows {
        func cost(_ connection: TCPConnection, _ direction: StreamDirection) -> Int {
            connection.withStream(direction) { $0.held.cost }
        }
        if cost(connection, direction) > limits.maxOutOfOrderBytesPerDirection {
            try receive(.limitHit(.outOfOrderBytesPerDirection, connection: connection.number, direction: direction))
            while cost(connection, direction) > limits.maxOutOfOrderBytesPerDirection {
                try changingHeldBytes(of: slot, connection) { try $0.withStream(direction) { try $0.declareFirstHole(receive) } }
            }
        }
        while outOfOrderBytesHeld > limits.maxOutOfOrderBytesTotal, let oldest = table.holders.head {
            for victim in StreamDirection.allCases
            where outOfOrderBytesHeld > limits.maxOutOfOrderBytesTotal && cost(table[oldest], victim) > 0 {
                try receive(.limitHit(.outOfOrderBytesTotal, connection: table[oldest].number, direction: victim))
                while outOfOrderBytesHeld > limits.maxOutOfOrderBytesTotal,
                      try changingHeldBytes(of: oldest, table[oldest], { try $0.withStream(victim) { try $0.declareFirstHole(receive) } }) {}
            }
        }
    }

    /// Runs `change` on `connection`, the one at `slot` (passed in so that the caller's
    /// reference is reused rather than retained again), and keeps the out-of-order and
    /// retained byte accounting in step.
    @discardableResult
    private mutating func changingHeldBytes<Result>(of slot: Int32, _ connection: TCPConnection,
                                                    _ change: (TCPConnection) throws -> Result) rethrows -> Result {
        let before = connection.heldCost, retainedBefore = connection.retainedCount
        defer {
            let after = connection.heldCost
            if after != before {
                outOfOrderBytesHeld += after - before
                table.noteHeldCost(slot)
            }
            retainedBytesHeld += connection.retainedCount - retainedBefore
        }
        return try change(connection)
    }
}
