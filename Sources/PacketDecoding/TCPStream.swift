/// One direction of a connection: maps sequence numbers to stream offsets, delivers bytes in
/// order, holds what arrives early, and turns holes that will not fill into gaps.
///
/// Invariants: every byte before `next` has been reported (as data or gap); every held chunk
/// starts at or after `next`; nothing is held or delivered at or after `finOffset`.
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

    /// Takes one segment's payload, snaplen-cut tail and FIN.
    ///
    /// - Parameters:
    ///   - offset: Stream offset of the first payload byte (``offset(of:)``).
    ///   - payload: The captured payload; a view valid for this call only.
    ///   - missing: Payload bytes sent but cut by the snaplen, following `payload`.
    ///   - fin: Whether the segment carries FIN.
    mutating func receive(offset: Int64, payload: UnsafeRawBufferPointer, missing: Int, fin: Bool,
                          _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard !isClosed else { return ignore(payload) }
        statistics.segments += 1
        statistics.capturedBytes += UInt64(payload.count)
        var payload = payload
        var missing = UInt64(max(0, missing))
        var start = offset
        let end = offset + Int64(payload.count) + Int64(missing)
        if start < 0 {
            // Before ISN + 1 or the first byte seen: nothing to place it against (tshark drops it too).
            guard end >= 0 else {
                statistics.ignoredBytes += UInt64(payload.count)
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
            // Already reported: a retransmission or an overlap; the first copy won.
            let cut = min(next - first, last - first)
            let payloadCut = min(cut, UInt64(payload.count))
            statistics.retransmittedBytes += payloadCut
            payload = UnsafeRawBufferPointer(rebasing: payload[Int(payloadCut)...])
            missing -= cut - payloadCut
            first += cut
        }
        if first < last {
            if first == next, held.first.map({ last <= $0.start }) ?? true {
                // The common case: in order, nothing held in the way. Deliver from the packet.
                try deliver(payload, emit)
                try declareGap(length: missing, cause: .notCaptured, emit)
            } else {
                if first > next { statistics.outOfOrderSegments += 1 }
                statistics.retransmittedBytes += held.insert(start: first, bytes: payload, count: UInt64(payload.count))
                if missing > 0 {
                    held.insert(start: first + UInt64(payload.count), bytes: nil, count: missing)
                }
            }
        }
        try drain(emit)
    }

    /// Delivers in-order bytes straight from the segment (zero copy).
    private mutating func deliver(_ bytes: UnsafeRawBufferPointer, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard !bytes.isEmpty else { return }
        let offset = next
        next += UInt64(bytes.count)
        statistics.deliveredBytes += UInt64(bytes.count)
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
    mutating func acknowledge(_ sequenceNumber: SequenceNumber, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard base != nil, !isClosed, !held.isEmpty || finOffset != nil else { return }
        let acknowledged = offset(of: sequenceNumber)
        guard acknowledged > Int64(next) else { return }
        // The FIN occupies one sequence number, so an ACK of it is one past `finOffset`.
        try declareLost(upTo: min(UInt64(acknowledged), highestEnd), emit)
        try drain(emit)
    }

    /// Declares the first hole a gap and delivers what follows it (a limit was hit).
    ///
    /// - Returns: Whether anything was held.
    @discardableResult
    mutating func declareFirstHole(_ emit: (ReassemblyEvent) throws -> Void) rethrows -> Bool {
        guard let chunk = held.first else { return false }
        try declareGap(length: chunk.start - next, cause: .segmentsMissing, emit)
        try drain(emit)
        return true
    }

    /// Reports everything up to the end of what was seen — holes as gaps — and closes the
    /// direction if it reached its FIN, or with `reason` when given (RST).
    mutating func flush(closing reason: DirectionCloseReason?, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        guard !isClosed else { return }
        try declareLost(upTo: finOffset ?? highestEnd, emit)
        try drain(emit)
        if !isClosed, let reason { try close(reason, emit) }
    }

    /// Gaps for the holes before `target`, delivering the held chunks between them.
    private mutating func declareLost(upTo target: UInt64, _ emit: (ReassemblyEvent) throws -> Void) rethrows {
        while next < target {
            try declareGap(length: min(target, held.first?.start ?? target) - next, cause: .segmentsMissing, emit)
            try drain(emit)
        }
    }

    /// Delivers the held chunks that now continue the stream, then closes at the FIN.
    private mutating func drain(_ emit: (ReassemblyEvent) throws -> Void) rethrows {
        while let chunk = held.first, chunk.start == next {
            held.removeFirst()
            next = chunk.end
            if chunk.isCaptured {
                statistics.deliveredBytes += chunk.end - chunk.start
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
    mutating func releaseBuffers() { held = OutOfOrderBuffer() }
}
