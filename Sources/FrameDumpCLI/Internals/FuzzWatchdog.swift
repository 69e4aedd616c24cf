import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports the fuzz case that is running when the process crashes or a case hangs, since
/// neither returns to the loop that would print it.
///
/// Before each case the loop calls ``begin(_:limitNanoseconds:)`` with the message to print
/// (the seed and the command that reproduces the case). A fatal signal (a Swift trap is
/// SIGILL or SIGTRAP; SIGSEGV, SIGBUS, SIGFPE, SIGABRT) writes that message with `write(2)`,
/// the only output that is async-signal-safe, and exits with status 2. A thread wakes every
/// second and does the same when the running case has exceeded its time limit.
final class FuzzWatchdog: Sendable {
    /// The one instance: signal handlers are process-wide and cannot capture context.
    static let shared = FuzzWatchdog()

    private static let messageCapacity = 4096
    /// Written by the loop between cases, read by the signal handler; never freed.
    nonisolated(unsafe) private static let message = UnsafeMutablePointer<UInt8>.allocate(capacity: messageCapacity)
    private static let messageLength = Atomic<Int>(0)

    /// Monotonic start time of the running case, 0 between cases.
    private let caseStart = Atomic<UInt64>(0)
    private let caseLimit = Atomic<UInt64>(0)

    private init() {}

    /// Installs the signal handlers and starts the hang-watching thread.
    func start() {
        for signalNumber in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
            signal(signalNumber) { _ in
                FuzzWatchdog.writeMessage(prefix: "crashed (fatal signal)")
                _exit(2)
            }
        }
        POSIXThread { [self] in
            while true {
                sleep(1)
                let start = caseStart.load(ordering: .acquiring)
                guard start != 0, Self.now() &- start > caseLimit.load(ordering: .relaxed) else { continue }
                FuzzWatchdog.writeMessage(prefix: "hung (a case ran over its time limit)")
                _exit(2)
            }
        }.detach()
    }

    /// Marks a case as running, with what to print if it never finishes.
    func begin(_ text: String, limitNanoseconds: UInt64) {
        let bytes = Array(text.utf8.prefix(Self.messageCapacity))
        Self.messageLength.store(0, ordering: .releasing)
        bytes.withUnsafeBufferPointer { Self.message.update(from: $0.baseAddress!, count: $0.count) }
        Self.messageLength.store(bytes.count, ordering: .releasing)
        caseLimit.store(limitNanoseconds, ordering: .relaxed)
        caseStart.store(Self.now(), ordering: .releasing)
    }

    /// Marks the case as finished; returns how long it ran, in nanoseconds.
    @discardableResult
    func end() -> UInt64 {
        let start = caseStart.exchange(0, ordering: .acquiringAndReleasing)
        return Self.now() &- start
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func writeMessage(prefix: StaticString) {
        // Only write(2) here: this may run in a signal handler.
        let head: StaticString = "\nframedump fuzz: FAILED: the case "
        _ = write(2, head.utf8Start, head.utf8CodeUnitCount)
        _ = write(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
        _ = write(2, "\n", 1)
        _ = write(2, message, messageLength.load(ordering: .acquiring))
    }
}
