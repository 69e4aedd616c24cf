/// One direction of a connection: maps sequence numbers to stream offsets, delivers bytes in
/// order, holds what arrives early, and turns holes that will not fill into gaps.
///
/// Invariants: every byte before `next` has been reported (as data, gap or discarded); every
/// held chunk starts at or after `next`; nothing is held or delivered at or after `finOffset`.
struct TCPStream {
    let connection: Int
    let direction: StreamDirection
    /// Sequence number of stream offset 0 (ISN + 1, or the first sequence number seen);
    /// `nil` until the direction's first segment.
    private(set) var base: SequenceNumber?
    /// The ISN, when this direction's SYN was seen.
    private(set) var initialSequenceNumber: SequenceNumber?
    /// Stream offset up to which everything has been reported.
    private(set) var next: UInt64 = 0
    /// End of the furthest range seen (data, cut by the snaplen, or FIN position).
    private var highestEnd: UInt64 = 0
    /// Stream offset of the FIN (RFC 9293 §3.6: it occupies the sequence number after the data).
    private(set) var finOffset: UInt64?
    private(set) var held = OutOfOrderBuffer()
    /// Delivered bytes the peer has not acknowledged, to compare retransmissions with.
    private(set) var delivered = DeliveredBytes()
    /// The furthest stream offset the peer acknowledged; `nil` until it acknowledged any.
    private var acknowledgedEnd: UInt64?
    /// The peer's latest acknowledgment number (its RCV.NXT, RFC 9293 §3.3.1), whether or not
    /// it fits the stream; `nil` until the peer sent an ACK.
    private var peerAcknowledgment: SequenceNumber?
    var statistics = StreamStatistics()

    init(connection: Int, direction: StreamDirection) {
        self.connection = connection
        self.direction = direction
    }

    var isClosed: Bool { statistics.closed != nil }

    /// Sets offset 0: the byte after the ISN for a SYN (RFC 9293 §3.4), else the first byte seen.
    mutating func start(sequenceNumber: SequenceNumber, isSYN: Bool) {
        guard base == nil else { return }
        base = isSYN ? sequenceNumber.advanced(by: 1) : sequenceNumber
        if isSYN { initialSequenceNumber = sequenceNumber }
    }

    /// The stream offset of a sequence number, unwrapped near `next` with serial number
    /// arithmetic (RFC 1982), so streams longer than 4 GiB keep counting. Negative means before
    /// offset 0.
    func offset(of sequenceNumber: SequenceNumber) -> Int64 {
        guard let base else { return 0 }
        return Int64(next) + base.advanced(by: next).distance(to: sequenceNumber)
    }

    /// The sequence number of the next byte the receiver expects: after the FIN once the
    /// direction reached it (the FIN takes one). `nil` before the direction's first segment.
    var expectedSequenceNumber: SequenceNumber? {
        base?.advanced(by: next + (statistics.closed == .fin ? 1 : 0))
    }

    /// Whether a RST with `sequenceNumber` from this direction is taken (RFC 5961 §3.2): it is
    /// exactly the next expected byte, or the peer's latest acknowledgment number (the capture
    /// may lack bytes the receiver had). Before the direction's first segment there is nothing
    /// to check it against (RFC 9293 §3.10.7.3: in SYN-SENT a RST is judged by its ACK), so it
    /// is taken. When the capture holds none of the peer's ACKs, the sender's own next sequence
    /// number (after the furthest byte, or FIN, seen) stands in for them.
    func acceptsReset(_ sequenceNumber: SequenceNumber) -> Bool {
        guard let base, let expected = expectedSequenceNumber else { return true }
        if sequenceNumber == expected || sequenceNumber == peerAcknowledgment { return true }
        return peerAcknowledgment == nil && sequenceNumber == base.advanced(by: highestEnd + (finOffset != nil ? 1 : 0))
    }

    /// Counts a RST that was not taken: its payload is ignored, the connection goes on.
    mutating func ignoreReset(_ sequenceNumber: SequenceNumber, payload: UnsafeRawBufferPointer,
                              _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        ignore(payload)
        statistics.resetsIgnored += 1
        let expected = expectedSequenceNumber ?? sequenceNumber
        try emit(.notice(.resetIgnored(sequenceNumber: sequenceNumber.rawValue, expected: expected.rawValue),
                         connection: connection, direction: direction))
    }

    /// Takes one segment's payload, snaplen-cut tail and FIN.
    ///
    /// - Parameters:
    ///   - offset: Stream offset of the first payload byte (``offset(of:)``).
    ///   - payload: The captured payload; a view valid for this call only.
    ///   - missing: Payload bytes sent but cut by the snaplen, following `payload`.
    ///   - fin: Whether the segment carries FIN.
    ///   - policy: Which copy wins where the segment overlaps held bytes.
    ///   - retention: Delivered bytes to keep for comparing retransmissions (0: keep none).
    ///   - payloadPersists: Whether `payload` stays valid and unchanged for the reassembler's
    ///     life (``TCPReassembler/persistentBytes``), so the delivered copy is kept in place.
    mutating func receive(offset: Int64, payload: UnsafeRawBufferPointer, missing: Int, fin: Bool,
                          policy: OverlapPolicy, retention: Int, payloadPersists: Bool,
                          _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard !isClosed else { return ignore(payload) }
        statistics.segments += 1
        statistics.capturedBytes += UInt64(payload.count)
        var payload = payload
        var missing = UInt64(max(0, missing))
        var start = offset
        let end = offset + Int64(payload.count) + Int64(missing)
        if retention == 0 { delivered.removeAll() }
        if start < 0 {
            // Before ISN + 1 or the first byte seen, or 2³¹ or more ahead: nothing to place it
            // against (tshark drops it too). Reported: a stream that jumps loses bytes here.
            guard end >= 0 else {
                statistics.ignoredBytes += UInt64(payload.count)
                guard let base, end > offset else { return }
                try emit(.notice(.outOfWindow(sequenceNumber: base.advanced(by: UInt64(bitPattern: offset)).rawValue,
                                              expected: base.advanced(by: next).rawValue,
                                              byteCount: UInt64(end - offset)),
                                 connection: connection, direction: direction))
                return
            }
            let cut = UInt64(-start)
            let payloadCut = min(cut, UInt64(payload.count))
            statistics.ignoredBytes += payloadCut
            payload = UnsafeRawBufferPointer(rebasing: payload[Int(payloadCut)...])
            missing -= cut - payloadCut
            start = 0
        }
        var first = UInt64(start)
        var last = UInt64(end)
        if fin, finOffset == nil, last >= next {
            finOffset = last
            highestEnd = min(highestEnd, last)
            statistics.ignoredBytes += held.removeAll(from: last)
        }
        if let finOffset, last > finOffset {
            // Bytes after the FIN are not part of the stream (RFC 9293 §3.10.7.4: segment text
            // in CLOSE-WAIT is ignored).
            let beyond = last - max(first, finOffset)
            let payloadBeyond = beyond > missing ? beyond - missing : 0
            statistics.ignoredBytes += payloadBeyond
            missing -= beyond - payloadBeyond
            payload = UnsafeRawBufferPointer(rebasing: payload[..<(payload.count - Int(payloadBeyond))])
            // A segment wholly after the FIN leaves an empty range at the FIN, so it cannot move
            // `highestEnd` past it (found by the packet-path fuzz target).
            first = min(first, finOffset)
            last = finOffset
        }
        highestEnd = max(highestEnd, last)
        if first < next {
            // Already reported: a retransmission or an overlap; the delivered copy stays. A
            // one-byte segment just before `next` is a keep-alive probe (RFC 9293 §3.8.4: its
            // byte is garbage) and is not compared — the segment, not the part of a longer one
            // that happens to overlap one delivered byte.
            let cut = min(next - first, last - first)
            let payloadCut = min(cut, UInt64(payload.count))
            let isKeepAliveProbe = last - first == 1 && first + 1 == next
            if !isKeepAliveProbe { try compareWithDelivered(UnsafeRawBufferPointer(rebasing: payload[..<Int(payloadCut)]), at: first, emit) }
            statistics.retransmittedBytes += payloadCut
            payload = UnsafeRawBufferPointer(rebasing: payload[Int(payloadCut)...])
            missing -= cut - payloadCut
            first += cut
        }
        if first < last {
            if first == next, held.first.map({ last <= $0.start }) ?? true {
                // The common case: in order, nothing held in the way. Deliver from the packet.
                try deliver(payload, retention: retention, inPlace: payloadPersists, emit)
                try declareGap(length: missing, cause: .notCaptured, emit)
            } else {
                if first > next { statistics.outOfOrderSegments += 1 }
                var overlaps: [ReassemblyNotice] = []
                statistics.retransmittedBytes += held.insert(start: first, bytes: payload, count: UInt64(payload.count),
                                                             policy: policy, overlaps: &overlaps)
                if missing > 0 {
                    held.insert(start: first + UInt64(payload.count), bytes: nil, count: missing, policy: policy, overlaps: &overlaps)
                }
                for overlap in overlaps { try emit(.notice(overlap, connection: connection, direction: direction)) }
            }
        }
        try drain(emit, retention: retention)
    }

    /// Notes a retransmitted copy of delivered bytes that differs from what was delivered, as
    /// far as ``delivered`` still holds them.
    private func compareWithDelivered(_ copy: UnsafeRawBufferPointer, at offset: UInt64,
                                      _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard let differing = delivered.differences(from: copy, at: offset) else { return }
        try emit(.notice(.overlap(offset: differing.lowerBound, length: UInt64(differing.count), kept: .earlier),
                         connection: connection, direction: direction))
    }

    /// Delivers in-order bytes straight from the segment (zero copy).
    private mutating func deliver(_ bytes: UnsafeRawBufferPointer, retention: Int, inPlace: Bool,
                                  _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard !bytes.isEmpty else { return }
        let offset = next
        next += UInt64(bytes.count)
        statistics.deliveredBytes += UInt64(bytes.count)
        if retention > 0 { delivered.append(bytes, at: offset, capacity: retention, inPlace: inPlace) }
        try emitData(bytes, at: offset, emit)
    }

    private func emitData(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        try emit(.data(connection: connection, direction: direction, offset: offset, bytes: bytes))
    }

    /// Counts a segment whose payload is not stream data: a RST's diagnostic text (RFC 9293
    /// §3.5.3), or anything after the connection closed.
    mutating func ignore(_ payload: UnsafeRawBufferPointer) {
        statistics.segments += 1
        statistics.capturedBytes += UInt64(payload.count)
        statistics.ignoredBytes += UInt64(payload.count)
    }

    /// The peer acknowledged up to `sequenceNumber`: bytes before it that the capture lacks will
    /// never be retransmitted, so they become a gap now — but only when held data or a FIN waits
    /// behind them (otherwise they may still show up, captured out of order across directions).
    /// Wireshark's `follow` does the same (`check_follow_fragments` with the peer's ACK).
    ///
    /// The acknowledgment is also remembered: a flush (RST, limit, eviction, end of capture)
    /// delivers held bytes only up to the furthest one acknowledged, and discards the rest.
    mutating func acknowledge(_ sequenceNumber: SequenceNumber, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        peerAcknowledgment = sequenceNumber
        guard base != nil, !isClosed else { return }
        let acknowledged = offset(of: sequenceNumber)
        guard acknowledged > 0 else { return }
        if delivered.count > 0 { delivered.trim(upTo: UInt64(acknowledged)) }
        acknowledgedEnd = max(acknowledgedEnd ?? 0, UInt64(acknowledged))
        guard !held.isEmpty || finOffset != nil, acknowledged > Int64(next) else { return }
        // The FIN occupies one sequence number, so an ACK of it is one past `finOffset`.
        try declareLost(upTo: min(UInt64(acknowledged), highestEnd), emit)
        try drain(emit)
    }

    /// Gives up the first hole (a limit was hit): a gap and the held chunk after it delivered
    /// when the peer acknowledged past the hole, else the hole and that chunk discarded.
    ///
    /// - Returns: Whether anything was held.
    @discardableResult
    mutating func declareFirstHole(_ emit: (ReassemblyEvent) throws -> Void) rethrows -> Bool {
        guard let chunk = held.first else { return false }
        if isProvenReceived(upTo: chunk.start) {
            try declareGap(length: chunk.start - next, cause: .segmentsMissing, emit)
        } else {
            try discard(upTo: chunk.end, emit)
        }
        try drain(emit)
        return true
    }

    /// Reports everything up to the end of what was seen and closes the direction if it
    /// reached its FIN, or with `reason` when given (RST). Holes the peer acknowledged are gaps
    /// and the held bytes up to its furthest acknowledgment are delivered; what lies behind a
    /// hole beyond that is discarded.
    mutating func flush(closing reason: DirectionCloseReason?, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard !isClosed else { return }
        let end = finOffset ?? highestEnd
        try declareLost(upTo: isProvenReceived(upTo: end) ? end : min(acknowledgedEnd ?? 0, end), emit)
        try drain(emit)
        if !isClosed, next < end { try discard(upTo: end, emit) }
        if !isClosed, let reason { try close(reason, emit) }
    }

    /// Whether the receiver can be taken to have had every byte before `offset`: the peer
    /// acknowledged it — or the capture holds none of the peer's acknowledgments at all (its
    /// direction was not captured), so their absence proves nothing and holes stay gaps.
    private func isProvenReceived(upTo offset: UInt64) -> Bool {
        guard peerAcknowledgment != nil else { return true }
        return (acknowledgedEnd ?? 0) >= offset
    }

    /// Drops what lies between `next` and `target` — holes and held chunks — as one
    /// `discarded` notice.
    private mutating func discard(upTo target: UInt64, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard next < target else { return }
        var captured: UInt64 = 0
        while let chunk = held.first, chunk.start < target {
            if chunk.isCaptured { captured += chunk.end - chunk.start }
            held.removeFirst()
        }
        let offset = next
        next = target
        statistics.discardedBytes += captured
        try emit(.notice(.discarded(offset: offset, length: target - offset, capturedBytes: captured),
                         connection: connection, direction: direction))
    }

    /// Gaps for the holes before `target`, delivering the held chunks between them.
    private mutating func declareLost(upTo target: UInt64, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        while next < target {
            try declareGap(length: min(target, held.first?.start ?? target) - next, cause: .segmentsMissing, emit)
            try drain(emit)
        }
    }

    /// Delivers the held chunks that now continue the stream, then closes at the FIN.
    ///
    /// - Parameter retention: Delivered bytes to keep for comparing retransmissions; the
    ///   flushes, after which nothing more is compared, keep none.
    private mutating func drain(_ emit: (ReassemblyEvent) throws -> Void, retention: Int = 0) rethrows {
        while let chunk = held.first, chunk.start == next {
            held.removeFirst()
            next = chunk.end
            if chunk.isCaptured {
                statistics.deliveredBytes += chunk.end - chunk.start
                if retention > 0 { chunk.bytes.withUnsafeBytes { delivered.append($0, at: chunk.start, capacity: retention, inPlace: false) } }
                // The event is built in `emitData`, not in this closure: Swift 6.3.1 loses an error
                // thrown from a closure of a `rethrows` function that builds an enum case with
                // several associated values (the test "an error thrown at any event reaches the caller").
                try chunk.bytes.withUnsafeBytes { try emitData($0, at: chunk.start, emit) }
            } else {
                try report(gapAt: chunk.start, length: chunk.end - chunk.start, cause: .notCaptured, emit)
            }
        }
        if let finOffset, next == finOffset, !isClosed { try close(.fin, emit) }
    }

    private mutating func declareGap(length: UInt64, cause: GapCause, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard length > 0 else { return }
        let offset = next
        next += length
        try report(gapAt: offset, length: length, cause: cause, emit)
    }

    private mutating func report(gapAt offset: UInt64, length: UInt64, cause: GapCause,
                                 _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        statistics.gaps += 1
        statistics.gapBytes += length
        try emit(.gap(connection: connection, direction: direction, offset: offset, length: length, cause: cause))
    }

    private mutating func close(_ reason: DirectionCloseReason, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        statistics.closed = reason
        let dropped = held.removeAll(from: next)
        statistics.ignoredBytes += dropped
        try emit(.directionClosed(connection: connection, direction: direction, offset: next, reason: reason))
    }

    /// Releases held bytes without reporting them (the connection is being forgotten after
    /// ``flush(closing:_:)`` reported everything).
    mutating func releaseBuffers() {
        held = OutOfOrderBuffer()
        delivered.removeAll()
    }
}
