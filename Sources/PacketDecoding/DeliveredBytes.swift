/// The latest bytes one direction delivered that the peer has not acknowledged yet: what a
/// retransmission can repeat, kept so that a copy with different bytes is noticed
/// (``ReassemblyNotice/overlap(offset:length:kept:)``).
///
/// A sliding window ending at the direction's next expected byte: appends go at the end, the
/// peer's ACKs and the capacity trim the front (amortized O(1) per byte: a moving head,
/// compacted when it passes half the array).
///
/// The bytes are kept one of two ways, one at a time:
/// - **In place**, for bytes in memory that outlives the reassembler
///   (``TCPReassembler/persistentBytes``, a capture file mapped into memory): a list of pieces,
///   each an address and where it ends in the stream, so no byte is copied.
/// - **Copied** into storage of the window's own, for every other byte (a packet buffer that
///   is reused, a chunk held out of order, a payload shorter than a piece). Bytes kept in
///   place are then copied first (at most the capacity, once per switch); the window goes back
///   to pieces when it empties.
///
/// Which bytes are kept — ``start``, ``end`` — does not depend on the way, so a capture
/// compares retransmissions the same whether its file was mapped or read (until the
/// reassembler's total bound, which counts ``cost``, is reached).
///
/// When it empties (the peer acknowledged everything), storage of up to ``keptCapacity`` bytes
/// is kept for the next segment — an allocation per segment cost more than the copy's
/// bookkeeping (measured, docs/performance.md) — and larger storage is released. ``cost``
/// counts the storage, not just the bytes, so the reassembler's bound covers what is kept: the
/// capacity the window asks for (doubling as it grows), not the arrays' own `capacity`, which
/// the allocator rounds up by an amount that depends on the heap's state (`malloc_usable_size`)
/// — and so on other threads' timing, which made the total bound, and with it which
/// retransmissions were compared, differ from one run to the next.
struct DeliveredBytes {
    /// A run of delivered bytes kept where they lie: from the previous piece's `end` (the
    /// first piece: from ``start``) to its own.
    private struct Piece {
        var base: UnsafeRawPointer
        /// Stream offset after its last byte; ascending along `pieces`, so a retransmission's
        /// first piece is found by a binary search, not a walk over up to capacity / 16 pieces.
        var end: UInt64
    }

    /// Copied bytes; `storage[head...]` are kept.
    private var storage: [UInt8] = []
    private var head = 0
    /// Bytes kept in place; `pieces[pieceHead...]` are kept. Empty while bytes are copied.
    private var pieces: [Piece] = []
    private var pieceHead = 0
    /// The capacities asked for `storage` and `pieces`, in elements: at most theirs.
    private var storageAskedFor = 0
    private var piecesAskedFor = 0
    /// Stream offset of the first byte kept.
    private(set) var start: UInt64 = 0
    /// Bytes kept.
    private(set) var count = 0

    /// Storage kept when the window empties, in bytes: about two full-sized segments.
    static let keptCapacity = 4096

    /// Memory charged for it, in bytes: the capacity asked for the storage and for the list of
    /// pieces (each array's allocation is that, rounded up by the allocator by a few bytes).
    var cost: Int { storageAskedFor &+ piecesAskedFor &* MemoryLayout<Piece>.stride }
    /// Stream offset after the last byte kept.
    var end: UInt64 { start + UInt64(count) }
    /// Whether the bytes are kept in place (pieces) rather than copied.
    private var keepsInPlace: Bool { pieceHead < pieces.count }

    /// Keeps `bytes`, delivered at stream offset `offset`, keeping at most `capacity` bytes
    /// (the oldest go first). Bytes that do not continue the window restart it.
    ///
    /// - Parameter inPlace: Whether `bytes` stay valid and unchanged for the window's life, so
    ///   that their address can be kept instead of a copy.
    mutating func append(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, capacity: Int, inPlace: Bool) {
        guard capacity > 0 else { return removeAll() }
        let kept = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
        // Bytes of a capacity or more leave nothing of the window before them.
        if offset != end || count == 0 || kept.count < bytes.count {
            empty()
            start = offset + UInt64(bytes.count - kept.count)
        }
        // Bytes fewer than a piece's own are copied: cheaper, and every piece then holds at
        // least its own size, so the capacity that bounds the bytes bounds the pieces too —
        // a window never has to switch to copies for them, which would read every piece again
        // (pages the mapping gave back long ago, among many slow connections).
        if inPlace, kept.count >= MemoryLayout<Piece>.stride, count == 0 || keepsInPlace {
            appendPiece(kept)
        } else {
            if keepsInPlace { copyPieces() }
            Self.grow(&storage, &storageAskedFor, toHold: storage.count &+ kept.count)
            storage.append(contentsOf: kept)
            count &+= kept.count
        }
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
        storageAskedFor = 0
        head = 0
        pieces = []
        piecesAskedFor = 0
        pieceHead = 0
        count = 0
    }

    /// Where `copy`, a retransmission of the bytes at stream offset `offset`, differs from the
    /// bytes kept: from the first differing byte to the last, as stream offsets, over the part
    /// of `copy` the window still holds; `nil` when that part is the same (or none is held).
    func differences(from copy: UnsafeRawBufferPointer, at offset: UInt64) -> Range<UInt64>? {
        let from = max(offset, start), to = min(offset + UInt64(copy.count), end)
        guard from < to else { return nil }
        var differing: Range<UInt64>?
        func compare(_ kept: UnsafeRawBufferPointer, at keptOffset: UInt64) {
            let lower = max(from, keptOffset), upper = min(to, keptOffset + UInt64(kept.count))
            guard lower < upper else { return }
            let mine = UnsafeRawBufferPointer(rebasing: kept[Int(lower - keptOffset)..<Int(upper - keptOffset)])
            let theirs = UnsafeRawBufferPointer(rebasing: copy[Int(lower - offset)..<Int(upper - offset)])
            guard let local = theirs.differences(from: mine) else { return }
            let found = (lower + UInt64(local.lowerBound))..<(lower + UInt64(local.upperBound))
            differing = differing.map { min($0.lowerBound, found.lowerBound)..<max($0.upperBound, found.upperBound) } ?? found
        }
        if keepsInPlace {
            // The first piece ending after `from`.
            var low = pieceHead, high = pieces.count - 1
            while low < high {
                let middle = low + (high - low) / 2
                if pieces[middle].end > from { high = middle } else { low = middle + 1 }
            }
            var pieceStart = low == pieceHead ? start : pieces[low - 1].end
            for piece in pieces[low...] {
                guard pieceStart < to else { break }
                compare(UnsafeRawBufferPointer(start: piece.base, count: Int(piece.end - pieceStart)), at: pieceStart)
                pieceStart = piece.end
            }
        } else {
            storage.withUnsafeBytes { compare(UnsafeRawBufferPointer(rebasing: $0[head...]), at: start) }
        }
        return differing
    }

    private mutating func appendPiece(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        count &+= bytes.count
        Self.grow(&pieces, &piecesAskedFor, toHold: pieces.count &+ 1)
        pieces.append(Piece(base: base, end: end))
    }

    /// Makes `array`'s capacity at least `needed` elements before an append, asking for
    /// twice the capacity asked before (or `needed`, if more) and noting it in `askedFor` — the
    /// growth an append would choose, but from the capacity asked rather than the allocator's.
    private static func grow<Element>(_ array: inout [Element], _ askedFor: inout Int, toHold needed: Int) {
        guard needed > askedFor || needed > array.capacity else { return }
        if needed > askedFor { askedFor = max(needed, 2 &* askedFor) }
        array.reserveCapacity(askedFor)
    }

    /// Turns the pieces into copied bytes, so that copied bytes can follow them.
    private mutating func copyPieces() {
        let kept = count
        let inPlace = pieces[pieceHead...]
        empty()
        Self.grow(&storage, &storageAskedFor, toHold: kept)
        var pieceStart = start
        for piece in inPlace {
            storage.append(contentsOf: UnsafeRawBufferPointer(start: piece.base, count: Int(piece.end - pieceStart)))
            pieceStart = piece.end
        }
        count = kept
    }

    /// Forgets every byte, keeping small storage for the next ones.
    private mutating func empty() {
        if storageAskedFor <= Self.keptCapacity {
            storage.removeAll(keepingCapacity: true)
        } else {
            storage = []
            storageAskedFor = 0
        }
        if piecesAskedFor &* MemoryLayout<Piece>.stride <= Self.keptCapacity {
            pieces.removeAll(keepingCapacity: true)
        } else {
            pieces = []
            piecesAskedFor = 0
        }
        head = 0
        pieceHead = 0
        count = 0
    }

    private mutating func dropFront(_ byteCount: Int) {
        var pieceStart = start
        start += UInt64(byteCount)
        count -= byteCount
        guard count > 0 else { return empty() }
        if keepsInPlace {
            while pieces[pieceHead].end <= start {
                pieceStart = pieces[pieceHead].end
                pieceHead += 1
            }
            pieces[pieceHead].base += Int(start - pieceStart)
            if pieceHead >= 256, pieceHead * 2 >= pieces.count {
                pieces.removeFirst(pieceHead)
                pieceHead = 0
            }
        } else {
            head += byteCount
            if head >= 4096, head * 2 >= storage.count {
                storage.removeFirst(head)
                head = 0
            }
        }
    }
}
