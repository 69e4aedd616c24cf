// framedump-bench: in-process speed and memory figures, side by side with zlib.
//
//   swift run -c release framedump-bench [--quick] [--filter NAME] [--repetitions N] [--repetition-ms MS]
//
// Prints one table per group as it is measured, then one JSON object (figures and ratios) on
// the last line. docs/performance.md explains the rows and records measured figures.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the options; prints usage and exits on anything unknown.
func parseOptions(_ arguments: [String]) -> BenchmarkOptions {
    var options = BenchmarkOptions()
    var remaining = arguments[...]
    func usage(_ problem: String) -> Never {
        print("framedump-bench: \(problem)\nusage: framedump-bench [--quick] [--filter NAME] [--repetitions N] [--repetition-ms MS]")
        exit(2)
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--quick":
            options.quick = true
        case "--filter":
            guard let value = remaining.popFirst() else { usage("--filter needs a name") }
            options.filter = value
        case "--repetitions":
            guard let value = remaining.popFirst(), let count = Int(value), count > 0 else { usage("--repetitions needs a positive count") }
            options.repetitions = count
        case "--repetition-ms":
            // Short repetitions on a loaded machine: the fastest ones are those no other process
            // interrupted, so min approaches the unloaded figure.
            guard let value = remaining.popFirst(), let milliseconds = Int(value), milliseconds > 0 else { usage("--repetition-ms needs a positive count") }
            options.repetitionTarget = UInt64(milliseconds) * 1_000_000
        case "-h", "--help":
            usage("in-process benchmarks; rows are matched by --filter as case-insensitive text")
        default:
            usage("unknown argument '\(argument)'")
        }
    }
    if options.quick {
        options.repetitions = min(options.repetitions, 3)
        options.repetitionTarget = min(options.repetitionTarget, 5_000_000)
    }
    return options
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
var report = BenchmarkReport(machine: machineDescription(), quick: options.quick)
print("framedump-bench on \(report.machine)\(options.quick ? " (quick: smoke sizes, figures not meaningful)" : "")")
let started = monotonicNanoseconds()

runCRC32Benchmarks(options: options, report: &report)
runDecoderBenchmarks(options: options, report: &report)
runReassemblyBenchmarks(options: options, report: &report)
runPipelineBenchmarks(options: options, report: &report)
runBodyViewsBenchmarks(options: options, report: &report)
runWebSocketBenchmarks(options: options, report: &report)

print("\ntotal \(formatDuration(Double(monotonicNanoseconds() - started))), peak RSS \(formatBytes(Double(ProcessMemory.peakResidentBytes())))")
print(report.json())
exit(report.failures.isEmpty ? 0 : 1)
