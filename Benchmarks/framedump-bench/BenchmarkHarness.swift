#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How hard to run: full measurement or the CI smoke (`--quick`), and which rows.
struct BenchmarkOptions: Sendable {
    /// Tiny inputs and short repetitions, for CI: proves every row runs, not how fast.
    var quick = false
    /// Only rows whose name contains this text (case-insensitive) run; `nil` runs all.
    var filter: String?
    /// Timed repetitions per row, after one warm-up; the table shows their median, min and max.
    var repetitions = 21
    /// Wall time one repetition aims for, in nanoseconds; the harness picks the iteration count.
    /// Many short repetitions, interleaved across rows, give steadier medians and ratios on a
    /// shared machine than a few long ones: each long one is interrupted by other processes.
    var repetitionTarget: UInt64 = 20_000_000

    /// Picks a size for the mode: `full` normally, `quick` under `--quick`.
    func size(_ full: Int, quick quickSize: Int) -> Int { quick ? quickSize : full }

    /// Whether a row (or a group whose rows all share the prefix) is selected by `--filter`.
    func selects(_ name: String) -> Bool {
        guard let filter else { return true }
        return name.lowercased().contains(filter.lowercased())
    }
}

/// Monotonic time in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`).
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Where results go so the optimiser cannot prove them unused and delete the work.
nonisolated(unsafe) private var sink: UInt64 = 0

/// Consumes a result. `@_optimize(none)` keeps the call opaque even under whole-module optimisation.
@inline(never) @_optimize(none)
func blackHole(_ value: UInt64) {
    sink &+= value
}

/// Median, minimum and maximum of a set of samples.
struct Stats: Sendable {
    var median: Double
    var min: Double
    var max: Double

    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
    }
}

/// One timed case: what one iteration processes and the work itself.
///
/// `run` performs one iteration and returns a value derived from its result (a checksum, a
/// frame count), which the harness consumes.
struct BenchmarkCase {
    var name: String
    /// Bytes one iteration processes (0 when bytes/s means nothing for the row).
    var bytes: Int
    /// Items (frames, packets, calls) one iteration processes.
    var items: Int
    /// What an item is, for the table: "frames", "packets", "calls".
    var itemUnit: String
    var run: () -> UInt64
}

/// A measured row: nanoseconds per iteration over the repetitions, and derived rates.
struct BenchmarkResult: Sendable {
    var name: String
    var bytes: Int
    var items: Int
    var itemUnit: String
    var iterationsPerRepetition: Int
    /// Nanoseconds per iteration.
    var nanoseconds: Stats
    /// Extra figures a row reports beside its timing (bytes per connection, RSS), by name.
    var extras: [(String, Double)] = []

    /// Bytes per second at the median time (and at the fastest and slowest repetitions).
    var bytesPerSecond: Stats? {
        guard bytes > 0 else { return nil }
        return rate(Double(bytes))
    }

    /// Items per second at the median time.
    var itemsPerSecond: Stats? {
        guard items > 0 else { return nil }
        return rate(Double(items))
    }

    private func rate(_ amount: Double) -> Stats {
        var stats = Stats([1])
        stats.median = amount * 1e9 / nanoseconds.median
        stats.min = amount * 1e9 / nanoseconds.max
        stats.max = amount * 1e9 / nanoseconds.min
        return stats
    }
}

/// Measures cases side by side: one warm-up each, then repetitions taken round-robin
/// (A B C, A B C, ...) so that load from other processes on a shared machine lands on every
/// case alike and ratios between them stay fair.
///
/// Runs every case given: groups apply `--filter` themselves, keeping the reference rows
/// (zlib, the CRC alone) their ratios need.
func measure(_ selected: [BenchmarkCase], options: BenchmarkOptions) -> [BenchmarkResult] {
    var iterations: [Int] = []
    for benchmark in selected {
        // Warm-up: faults in pages, fills caches and tables, and sizes the repetition.
        let start = monotonicNanoseconds()
        blackHole(benchmark.run())
        let once = max(monotonicNanoseconds() - start, 1)
        iterations.append(Int(max(1, options.repetitionTarget / once)))
    }
    var samples = Array(repeating: [Double](), count: selected.count)
    for _ in 0..<options.repetitions {
        for (index, benchmark) in selected.enumerated() {
            let count = iterations[index]
            let start = monotonicNanoseconds()
            for _ in 0..<count {
                blackHole(benchmark.run())
            }
            let elapsed = monotonicNanoseconds() - start
            samples[index].append(Double(elapsed) / Double(count))
        }
    }
    return selected.enumerated().map { index, benchmark in
        BenchmarkResult(
            name: benchmark.name, bytes: benchmark.bytes, items: benchmark.items,
            itemUnit: benchmark.itemUnit, iterationsPerRepetition: iterations[index],
            nanoseconds: Stats(samples[index]))
    }
}
