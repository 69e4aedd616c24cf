/// A set of measured durations (nanoseconds): exact count, min and max, and up to a bound of
/// samples for the percentiles (``AnalyzePolicy/Limits/samples``; past it the first samples stand
/// for all, and ``isSampled`` says so).
struct Distribution {
    private(set) var count = 0
    private(set) var min = Int64.max
    private(set) var max = Int64.min
    private(set) var samples: [Int64] = []
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Whether some values were counted but not kept for the percentiles.
    var isSampled: Bool { count > samples.count }

    mutating func add(_ value: Int64) {
        count += 1
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        if samples.count < limit { samples.append(value) }
    }

    /// The nearest-rank percentile `p` (0...100) of the kept samples; `nil` when empty.
    func percentile(_ p: Int) -> Int64? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Swift.max(1, Int((Double(p) / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[Swift.min(rank, sorted.count) - 1]
    }

    /// `min`, `p50`, `p95` and `max` as figures; none when empty.
    var summary: [Figure] {
        guard count > 0 else { return [] }
        return [.init("count", .count(count)), .init("min", .seconds(min)), .init("p50", .seconds(percentile(50)!)),
                .init("p95", .seconds(percentile(95)!)), .init("max", .seconds(max))]
    }
}
