import PacketDecoding

/// The capture times of the chunks a connection's layer takes while it decides whether the
/// connection is TLS, so that bytes it then passes through unchanged are framed at the time
/// their own packet came, not at the time of the packet that decided.
///
/// A layer holds at most its probe (``TLSConnectionLayer`` keeps 64 KiB per direction), so
/// this holds at most one entry per chunk of it.
struct ProbeTimes {
    private var chunks: [[(time: Timestamp, byteCount: Int)]] = [[], []]
    private var next = [0, 0]

    /// Whether every recorded chunk has been handed back.
    var isEmpty: Bool { next[0] == chunks[0].count && next[1] == chunks[1].count }

    /// Notes that `byteCount` bytes of `direction` arrived at `time`.
    mutating func record(_ byteCount: Int, of direction: StreamDirection, at time: Timestamp) {
        chunks[direction.rawValue].append((time, byteCount))
    }

    /// Splits `bytes`, the next output of `direction`, into the recorded chunks it began as,
    /// calling `body` with each piece and its time; bytes past the recorded ones get `now`.
    ///
    /// - Throws: What `body` throws.
    mutating func split(_ bytes: UnsafeRawBufferPointer, of direction: StreamDirection, now: Timestamp,
                        _ body: (UnsafeRawBufferPointer, Timestamp) throws -> Void) rethrows {
        let d = direction.rawValue
        var start = 0
        while start < bytes.count, next[d] < chunks[d].count {
            let take = min(chunks[d][next[d]].byteCount, bytes.count - start)
            try body(UnsafeRawBufferPointer(rebasing: bytes[start..<start + take]), chunks[d][next[d]].time)
            chunks[d][next[d]].byteCount -= take
            if chunks[d][next[d]].byteCount == 0 { next[d] += 1 }
            start += take
        }
        if start < bytes.count { try body(UnsafeRawBufferPointer(rebasing: bytes[start...]), now) }
    }
}
