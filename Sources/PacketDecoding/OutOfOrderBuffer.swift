/// One direction's segments that arrived ahead of a hole, as sorted, non-overlapping chunks.
///
/// Chunks are kept in offset order. The common case — one hole, then a run of in-order
/// segments behind it — appends each new segment's bytes to the last chunk (amortized O(1),
/// one `memcpy`), so a direction usually holds one chunk per hole. A segment that lands
/// elsewhere is found by binary search; only the bytes no chunk covers yet are stored, which
/// is the "first copy wins" overlap policy (docs/reassembly.md). Delivered chunks leave from
/// the front in amortized O(1) (a moving head, compacted when it passes half the array).
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

    /// Stores the parts of `[start, start + count)` that no chunk covers yet.
    ///
    /// - Parameters:
    ///   - start: Stream offset of the range.
    ///   - bytes: The range's bytes (`count` of them), or `nil` for a range the capture cut.
    ///   - count: Length of the range in bytes.
    /// - Returns: How many bytes of the range were already held (dropped: first copy wins).
    @discardableResult
    mutating func insert(start: UInt64, bytes: UnsafeRawBufferPointer?, count: UInt64) -> UInt64 {
        let end = start + count
        var cursor = start
        var index = firstIndex(endingAfter: start)
        var duplicates: UInt64 = 0
        while cursor < end {
            if index < storage.count, storage[index].start <= cursor {
                let coveredEnd = min(storage[index].end, end)
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
