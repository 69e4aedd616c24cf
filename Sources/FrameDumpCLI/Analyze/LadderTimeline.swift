import PacketDecoding

/// One connection's ladder for the report, bounded however long the connection runs: its
/// span cut into ``bucketCount`` equal windows of time, each keeping a count of every frame and
/// event in it and the first ``rowsPerBucket`` of them as rows.
///
/// The windows start 1 ms wide and double (neighbours merged, the later one's extra rows
/// dropped) whenever an entry falls past the last, so the whole connection always fits: the
/// report's overview draws the counts over the connection's whole span, and a click on a window
/// shows the rows kept for it (zoom). Rows come out of a budget shared by every connection of
/// the analysis (``Analyzer/maxLadderRows``), so the report stays small; what a window or the
/// budget could not keep is counted in ``rowsNotKept``.
///
/// ```
/// 0 ms                       span                      64 windows
/// |■■■|■  |   |■■ |   …    |■■■|     rows: the first 16 of each
/// ```
struct LadderTimeline {
    static let bucketCount = 64
    static let rowsPerBucket = 16

    /// When the first window starts: the connection's first entry (nanoseconds of capture time).
    private(set) var start: Int64?
    /// Each window's width, nanoseconds.
    private(set) var width: Int64 = 1_000_000
    /// Per window: the kept rows in time order.
    private(set) var rows: [[LadderEntry]] = []
    /// Per window: entries client → server, server → client, and marked ones (missed, late,
    /// retransmitted, premature, duplicate, gap, reset).
    private(set) var counts: [(clientToServer: Int, serverToClient: Int, marked: Int)] = []
    /// Entries counted but not kept as rows (a full window, a merge, the shared budget).
    private(set) var rowsNotKept = 0

    /// Every kept row, in time order.
    var entries: [LadderEntry] { rows.flatMap { $0 } }
    var keptCount: Int { rows.reduce(0) { $0 + $1.count } }

    /// The window `time` falls in, widening the windows until it fits; freed rows go back to `budget`.
    private mutating func bucket(for time: Int64, budget: inout Int) -> Int {
        if start == nil {
            start = time
            rows = Array(repeating: [], count: Self.bucketCount)
            counts = Array(repeating: (0, 0, 0), count: Self.bucketCount)
        }
        let offset = max(0, time - start!)
        while offset / width >= Int64(Self.bucketCount) {
            for index in 0..<Self.bucketCount / 2 {
                var merged = rows[2 * index] + rows[2 * index + 1]
                if merged.count > Self.rowsPerBucket {
                    let dropped = merged.count - Self.rowsPerBucket
                    merged.removeLast(dropped)
                    rowsNotKept += dropped
                    budget += dropped
                }
                rows[index] = merged
                let (a, b) = (counts[2 * index], counts[2 * index + 1])
                counts[index] = (a.clientToServer + b.clientToServer, a.serverToClient + b.serverToClient, a.marked + b.marked)
            }
            for index in Self.bucketCount / 2..<Self.bucketCount {
                rows[index] = []
                counts[index] = (0, 0, 0)
            }
            width *= 2
        }
        return Int(offset / width)
    }

    /// Whether an entry at `time` would be kept as a row (so that its label is worth making).
    mutating func wouldKeep(_ time: Timestamp, budget: inout Int) -> Bool {
        guard budget > 0 else { return false }
        return rows[bucket(for: time.nanoseconds, budget: &budget)].count < Self.rowsPerBucket
    }

    /// Counts `entry` in its window and keeps it as a row when the window and `budget` have room.
    mutating func add(_ entry: LadderEntry, budget: inout Int) {
        let index = bucket(for: entry.time.nanoseconds, budget: &budget)
        switch entry.direction {
        case .clientToServer: counts[index].clientToServer += 1
        case .serverToClient: counts[index].serverToClient += 1
        }
        if entry.mark != .none, entry.mark != .fin { counts[index].marked += 1 }
        if rows[index].count < Self.rowsPerBucket, budget > 0 {
            rows[index].append(entry)
            budget -= 1
        } else {
            rowsNotKept += 1
        }
    }

    /// Marks the kept row of the client's entry at `time` (a ping found missed later).
    mutating func mark(clientEntryAt time: Timestamp, as mark: LadderEntry.Mark) {
        guard let start, time.nanoseconds >= start else { return }
        let index = Int((time.nanoseconds - start) / width)
        guard index < Self.bucketCount, let row = rows[index].lastIndex(where: { $0.time == time && $0.direction == .clientToServer }) else { return }
        rows[index][row].mark = mark
        counts[index].marked += 1
    }
}
