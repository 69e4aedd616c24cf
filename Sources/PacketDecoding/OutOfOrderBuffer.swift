/// One direction's segments that arrived ahead of a hole, as sorted, non-overlapping chunks.
///
/// Chunks are kept in offset order. The common case — one hole, then a run of in-order
/// segments behind it — appends each new segment's bytes to the last chunk (amortized O(1),
/// one `memcpy`), so a direction usually holds one chunk per hole. A segment that lands
/// elsewhere is found by binary search. The bytes no chunk covers yet are stored; where a chunk
/// already holds some, the ``OverlapPolicy`` decides which copy stays (docs/reassembly.md,
/// "Overlap policies"), the winner's bytes written in place. Delivered chunks leave from the
/// front in amortized O(1) (a moving head, compacted when it passes half the array).
struct OutOfOrderBuffer {
    /// A run of held stream bytes `[start, end)`.
    struct Chunk {
        var start: UInt64
        var end: UInt64
        /// The bytes; empty for a range the capture cut (`GapCause.notCaptured`).
        var bytes: [UInt8]
        var isCaptured: Bool
    }

    /// Live chunks are `storage[head...]`.
    private var storage: [Chunk] = []
    private var head = 0
    /// Payload bytes held plus ``ReassemblyLimits/heldChunkOverhead`` per chunk.
    private(set) var cost = 0

    var isEmpty: Bool { head == storage.count }
    var first: Chunk? { isEmpty ? nil : storage[head] }
    var last: Chunk? { isEmpty ? nil : storage[storage.count - 1] }

    /// Stores the parts of `[start, start + count)` that no chunk covers yet, and settles the
    /// parts a chunk covers by `policy`.
    ///
    /// A held range the capture cut (no bytes) is never replaced, and a cut range never
    /// replaces held bytes: there is nothing to compare or to keep.
    ///
    /// - Parameters:
    ///   - start: Stream offset of the range: the segment's first byte not yet delivered.
    ///   - bytes: The range's bytes (`count` of them), or `nil` for a range the capture cut.
    ///   - count: Length of the range in bytes.
    ///   - policy: Which copy of a byte already held wins.
    ///   - overlaps: Gets an ``ReassemblyNotice/overlap(offset:length:kept:)`` for each chunk
    ///     whose bytes differ from the range's.
    /// - Returns: How many bytes of the range were already held (one of the two copies dropped).
    @discardableResult
    mutating func insert(start: UInt64, bytes: UnsafeRawBufferPointer?, count: UInt64,
                         policy: OverlapPolicy, overlaps: inout [ReassemblyNotice]) -> UInt64 {
        let end = start + count
        var cursor = start
        var index = firstIndex(endingAfter: start)
        var duplicates: UInt64 = 0
        while cursor < end {
            if index < storage.count, storage[index].start <= cursor {
                let coveredEnd = min(storage[index].end, end)
                if let bytes, storage[index].isCaptured {
                    settle(index, cursor..<coveredEnd, with: UnsafeRawBufferPointer(rebasing: bytes[Int(cursor - start)..<Int(coveredEnd - start)]),
                           laterWins: Self.laterWins(policy, segment: start..<end, chunk: storage[index].start..<storage[index].end),
                           overlaps: &overlaps)
                }
                duplicates += coveredEnd - cursor
                cursor = coveredEnd
                index += 1
                continue
            }
            let pieceEnd = index < storage.count ? min(end, storage[index].start) : end
            let piece = bytes.map { UnsafeRawBufferPointer(rebasing: $0[Int(cursor - start)..<Int(pieceEnd - start)]) }
            if index > head, storage[index - 1].end == cursor, storage[index - 1].isCaptured == (piece != nil) {
                storage[index - 1].end = pieceEnd
                if let piece { storage[index - 1].bytes.append(contentsOf: piece) }
            } else {
                let chunk = Chunk(start: cursor, end: pieceEnd, bytes: piece.map { Array($0) } ?? [], isCaptured: piece != nil)
                storage.insert(chunk, at: index)
                cost += ReassemblyLimits.heldChunkOverhead
                index += 1
            }
            if piece != nil { cost += Int(pieceEnd - cursor) }
            cursor = pieceEnd
        }
        return duplicates
    }

    /// Whether a segment's copy of held bytes replaces the chunk's under `policy`.
    ///
    /// `linux` follows `tcp_data_queue_ofo`: a chunk (Linux's coalesced out-of-order skb) that
    /// starts before the segment keeps its bytes; a segment that starts before the chunk — a
    /// hole-filling one always does — replaces them; at the same start the longer one wins, the
    /// held one on a tie.
    private static func laterWins(_ policy: OverlapPolicy, segment: Range<UInt64>, chunk: Range<UInt64>) -> Bool {
        switch policy {
        case .first: false
        case .last: true
        case .linux: segment.lowerBound < chunk.lowerBound
            || (segment.lowerBound == chunk.lowerBound && segment.upperBound > chunk.upperBound)
        }
    }

    /// Compares the chunk's bytes in `range` with a later copy; when they differ, notes it and
    /// keeps the later copy if `laterWins`.
    private mutating func settle(_ index: Int, _ range: Range<UInt64>, with copy: UnsafeRawBufferPointer, laterWins: Bool,
                                 overlaps: inout [ReassemblyNotice]) {
        let from = Int(range.lowerBound - storage[index].start)
        let differing = storage[index].bytes.withUnsafeBytes { held in
            UnsafeRawBufferPointer(rebasing: held[from..<(from + copy.count)]).differences(from: copy)
        }
        guard let differing else { return }
        overlaps.append(.overlap(offset: range.lowerBound + UInt64(differing.lowerBound), length: UInt64(differing.count),
                                 kept: laterWins ? .later : .earlier))
        guard laterWins else { return }
        storage[index].bytes.withUnsafeMutableBytes { held in
            let target = UnsafeMutableRawBufferPointer(rebasing: held[(from + differing.lowerBound)..<(from + differing.upperBound)])
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: copy[differing]))
        }
    }

    /// Removes the first chunk.
    mutating func removeFirst() {
        cost -= ReassemblyLimits.heldChunkOverhead + storage[head].bytes.count
        storage[head].bytes = []
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Drops every byte at or after `offset` (held data beyond a FIN).
    ///
    /// - Returns: The captured bytes dropped.
    mutating func removeAll(from offset: UInt64) -> UInt64 {
        var dropped: UInt64 = 0
        while let last, last.end > offset {
            if last.start >= offset {
                dropped += UInt64(last.bytes.count)
                cost -= ReassemblyLimits.heldChunkOverhead + last.bytes.count
                storage.removeLast()
                if isEmpty { storage.removeAll(keepingCapacity: true); head = 0 }
            } else {
                let keep = Int(offset - last.start)
                if last.isCaptured {
                    dropped += UInt64(last.bytes.count - keep)
                    cost -= last.bytes.count - keep
                    storage[storage.count - 1].bytes.removeLast(last.bytes.count - keep)
                }
                storage[storage.count - 1].end = offset
            }
        }
        return dropped
    }

    /// Index in `storage` of the first live chunk whose end is after `offset` (binary search).
    private func firstIndex(endingAfter offset: UInt64) -> Int {
        // Segments mostly land at or after the last chunk: check it before searching.
        if let last, last.end <= offset { return storage.count }
        var low = head, high = storage.count
        while low < high {
            let middle = low + (high - low) / 2
            if storage[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
