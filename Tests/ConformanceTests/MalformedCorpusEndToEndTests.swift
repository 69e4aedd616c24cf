import Foundation
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Robustness over the public capture corpus (../shared/corpus, many captures deliberately
/// malformed: cut short, bad lengths, garbage headers): every capture through
/// `framedump decode` and `framedump streams`, checking that none crashes, none runs past a
/// time limit, and none grows past a memory bound.
///
/// `decode --format u16` frames every direction with the layout that reads any two bytes as a
/// length, the decoder's busiest case on arbitrary data. Exit status 1 or 2 (no usable
/// format, malformed packets, gaps) is an answer, not a failure; death by a signal is one.
/// Peak RSS comes from `wait4(2)`'s `ru_maxrss` for each child. Figures (files, crashes,
/// timeouts, largest peak RSS) are printed.
@Suite(.enabled(if: MalformedCorpus.files != nil, "no capture corpus at ../shared/corpus (or $FRAMEDUMP_CORPUS); malformed-capture check skipped"))
struct MalformedCorpusEndToEndTests {
    @Test func everyCaptureDecodesWithinTimeAndMemory() throws {
        let files = try #require(MalformedCorpus.files)
        let commands: [[String]] = [["decode", "--format", "u16", "--payload", "none"], ["streams", "--json"]]
        // A binary that cannot run these commands would give every run a usage error, an exit
        // status this check accepts: it must fail the suite, not pass it.
        let broken = commands.map { $0[0] }.filter { (try? FrameDumpProcess.run([$0, "--help"]))?.status != 0 }
        try #require(broken.isEmpty, "framedump \(broken.joined(separator: ", ")) --help fails: the binary is broken")
        let jobs = files.flatMap { file in commands.map { $0 + [file.path] } }
        let results = MalformedCorpus.runAll(jobs)

        let crashes = results.filter { $0.signal != nil && !$0.timedOut }
        let timeouts = results.filter(\.timedOut)
        let largest = results.max { $0.peakKiB < $1.peakKiB }
        print("""
            malformed corpus: \(files.count) captures, \(jobs.count) runs, \(crashes.count) crashes, \
            \(timeouts.count) timeouts, largest peak RSS \(largest.map { "\($0.peakKiB / 1024) MiB (\($0.arguments.prefix(1).joined()) \($0.arguments.last ?? ""))" } ?? "-")
            """)
        for run in crashes { Issue.record("signal \(run.signal!): framedump \(run.arguments.joined(separator: " "))") }
        for run in timeouts { Issue.record("over \(MalformedCorpus.timeLimitSeconds) s: framedump \(run.arguments.joined(separator: " "))") }
        for run in results where run.peakKiB > MalformedCorpus.memoryLimitKiB {
            Issue.record("peak RSS \(run.peakKiB / 1024) MiB: framedump \(run.arguments.joined(separator: " "))")
        }
        for run in results where run.status.map({ !(0...2).contains($0) }) ?? false {
            Issue.record("exit status \(run.status!): framedump \(run.arguments.joined(separator: " "))")
        }
    }
}

/// The corpus files and a runner that measures each child process.
enum MalformedCorpus {
    /// Per run; generous for a debug build on a shared machine (the largest capture is ~1 MB).
    static let timeLimitSeconds = 60
    /// Per run. Reassembly and framing are bounded by their limits (64 MiB of out-of-order
    /// data, 16 MiB frames), far above what any of these captures can make a run hold.
    static let memoryLimitKiB = 512 * 1024

    /// Every capture under the corpus's captures/ folder, sorted; `nil` without the corpus.
    static let files: [URL]? = {
        guard let corpus = Corpus.directory else { return nil }
        let captures = corpus.appendingPathComponent("captures")
        guard let walker = FileManager.default.enumerator(at: captures, includingPropertiesForKeys: [.isRegularFileKey]) else { return nil }
        let files = walker.compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        return files.isEmpty ? nil : files.sorted { $0.path < $1.path }
    }()

    struct Run: Sendable {
        var arguments: [String]
        /// Exit status, or `nil` when a signal ended it.
        var status: Int32?
        var signal: Int32?
        var timedOut: Bool
        var peakKiB: Int
    }

    /// Runs every job, as many at once as there are processors.
    static func runAll(_ jobs: [[String]]) -> [Run] {
        let results = Mutex<[Run?]>(Array(repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: ProcessInfo.processInfo.activeProcessorCount) { worker in
            for index in stride(from: worker, to: jobs.count, by: ProcessInfo.processInfo.activeProcessorCount) {
                let run = run(jobs[index])
                results.withLock { $0[index] = run }
            }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Spawns `framedump arguments` with its output discarded, kills it at the time limit, and
    /// reaps it with `wait4(2)` for its status and peak RSS.
    static func run(_ arguments: [String]) -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([FrameDumpProcess.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, FrameDumpProcess.binary.path, &actions, nil, argv, environ) == 0 else {
            return Run(arguments: arguments, status: 127, signal: nil, timedOut: false, peakKiB: 0)
        }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let deadline = Date().addingTimeInterval(TimeInterval(timeLimitSeconds))
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if Date() > deadline, !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(5_000)
        }
        // WIFEXITED / WTERMSIG, which Swift does not import as macros.
        let signal = status & 0x7F
        return Run(
            arguments: arguments,
            status: signal == 0 ? (status >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            timedOut: timedOut,
            peakKiB: usage.ru_maxrss
        )
    }
}
