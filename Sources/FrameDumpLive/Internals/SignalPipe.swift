#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the self-pipe; written by the signal handler only.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
/// The first SIGINT or SIGTERM received, 0 before one; read and written by the handlers only.
nonisolated(unsafe) private var firstSignal: Int32 = 0

/// Turns SIGINT and SIGTERM into a readable pipe the event loop watches (the self-pipe trick),
/// so a live command stops between events: output flushed, streams finished, summary printed.
///
/// The handler only calls async-signal-safe functions (`write(2)`, `alarm(2)`, `_exit(2)`); a
/// pipe rather than a flag because a signal delivered to another thread would not interrupt
/// the loop's wait. A stop must not depend on standard output, which may be a pipe nobody reads
/// (the loop's thread then sits in a blocking `write(2)`), so:
/// - the first signal also sets an alarm: a command not finished one second later exits at
///   once with 128 + the signal's number, after one line on standard error;
/// - a second signal exits at once the same way.
final class SignalPipe: EventHandler {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let onSignal: () -> Void

    /// Installs the handlers and registers the pipe with `loop`.
    ///
    /// - Parameters:
    ///   - loop: the loop to wake.
    ///   - onSignal: called on the loop's thread once per wake-up.
    /// - Throws: ``SocketError`` when the pipe cannot be made or registered.
    init(loop: EventLoop, onSignal: @escaping () -> Void) throws(SocketError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        for end in ends {
            SystemCalls.setNonBlocking(end)
            SystemCalls.setCloseOnExec(end)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        self.onSignal = onSignal
        signalPipeWriteEnd = ends[1]
        let handler: @convention(c) (Int32) -> Void = { number in
            if firstSignal != 0 { SignalPipe.exitAtOnce("second signal", status: 128 + number) }
            firstSignal = number
            var byte: UInt8 = 1
            _ = write(signalPipeWriteEnd, &byte, 1)
            alarm(1)
        }
        let overdue: @convention(c) (Int32) -> Void = { _ in
            SignalPipe.exitAtOnce("not stopped within a second of the signal (standard output blocked?)", status: 128 + firstSignal)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        signal(SIGALRM, overdue)
        // A parent may have started us with them blocked (a test runner's spawning thread).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        sigaddset(&unblocked, SIGALRM)
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)
        try loop.register(readEnd, .read, self)
    }

    deinit {
        // The handlers stay installed; with no pipe to write to they do nothing but the alarm.
        if signalPipeWriteEnd == writeEnd { signalPipeWriteEnd = -1 }
        SystemCalls.closeDescriptor(readEnd)
        SystemCalls.closeDescriptor(writeEnd)
    }

    /// Writes `framedump: stopped: <why>` to standard error and ends the process with `status`,
    /// without flushing or unwinding: safe inside a signal handler.
    private static func exitAtOnce(_ why: StaticString, status: Int32) -> Never {
        let prefix: StaticString = "framedump: stopped: "
        _ = write(2, prefix.utf8Start, prefix.utf8CodeUnitCount)
        _ = write(2, why.utf8Start, why.utf8CodeUnitCount)
        var newline = UInt8(ascii: "\n")
        _ = write(2, &newline, 1)
        _exit(status)
    }

    func handle(_ events: ReadyEvents) {
        var bytes = (0 as UInt64, 0 as UInt64)
        _ = withUnsafeMutableBytes(of: &bytes) { read(readEnd, $0.baseAddress, $0.count) }
        onSignal()
    }
}
