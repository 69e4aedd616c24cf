/// The latest bytes one direction delivered that the peer has not acknowledged yet: what a
/// retransmission can repeat, kept so that a copy with different bytes is noticed
/// (``ReassemblyNotice/overlap(offset:length:kept:)``).
///
/// A sliding window ending at the direction's next expected byte: appends go at the end, the
/// peer's ACKs and the capacity trim the front (amortized O(1) per byte: a moving head,
/// compacted when it passes half the array). When it empties (the peer acknowledged everything),
/// storage of up to ``keptCapacity`` bytes is kept for the next segment — an allocation per
/// segment cost more than the copy's bookkeeping (measured, docs/performance.md) — and larger
/// storage is released. ``cost`` counts the storage, not just the bytes, so the reassembler's
/// bound covers what is kept.
struct DeliveredBytes {
    private var storage: [UInt8] = []
    private var head = 0
    /// Stream offset of the first byte kept.
    private(set) var start: UInt64 = 0

    /// Storage kept when the window empties, in bytes: about two full-sized segments.
    static let keptCapacity = 4096

    /// Bytes kept.
    var count: Int { storage.count - head }
    /// Memory charged for it: the storage's capacity.
    var cost: Int { storage.capacity }
    /// Stream offset after the last byte kept.
    var end: UInt64 { start + UInt64(count) }

    /// Keeps `bytes`, delivered at stream offset `offset`, keeping at most `capacity` bytes
    /// (the oldest go first). Bytes that do not continue the window restart it.
    mutating func append(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, capacity: Int) {
        guard capacity > 0 else { return removeAll() }
        if offset != end || count == 0 {
            empty()
            start = offset
        }
        let kept = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
        start += UInt64(bytes.count - kept.count)
        storage.append(contentsOf: kept)
        if count > capacity { dropFront(count - capacity) }
    }

    /// Forgets the bytes before `offset` (the peer acknowledged them).
    mutating func trim(upTo offset: UInt64) {
        guard offset > start else { return }
        offset >= end ? empty() : dropFront(Int(offset - start))
    }

    /// Forgets every byte and releases the storage.
    mutating func removeAll() {
        storage = []
        head = 0
    }

    /// Forgets every byte, keeping small storage for the next ones.
    private mutating func empty() {
        if storage.capacity <= Self.keptCapacity {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else {
            removeAll()
        }
    }

    /// The kept bytes of `range` (which must lie within `start..<end`), for the call only.
    func withBytes<Result>(in range: Range<UInt64>, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { all in
            let from = head + Int(range.lowerBound - start)
            return try body(UnsafeRawBufferPointer(rebasing: all[from..<(from + range.count)]))
        }
    }

    private mutating func dropFront(_ byteCount: Int) {
        head += byteCount
        start += UInt64(byteCount)
        if head == storage.count {
            empty()
        } else if head >= 4096, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
