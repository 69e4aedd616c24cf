#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe; written by the signal handler only.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns SIGINT and SIGTERM into a readable pipe the event loop watches (the self-pipe trick),
/// so a live command stops between events: output flushed, streams finished, summary printed.
///
/// The handler only calls `write(2)`, which is async-signal-safe; a pipe rather than a flag
/// because a signal delivered to another thread would not interrupt `epoll_wait` here.
final class SignalPipe: EventHandler {
    private let readEnd: Int32
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
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        self.onSignal = onSignal
        signalPipeWriteEnd = ends[1]
        let handler: @convention(c) (Int32) -> Void = { _ in
            var byte: UInt8 = 1
            _ = write(signalPipeWriteEnd, &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may have started us with them blocked (a test runner's spawning thread).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)
        try loop.register(readEnd, .read, self)
    }

    func handle(_ events: ReadyEvents) {
        var bytes = (0 as UInt64, 0 as UInt64)
        _ = withUnsafeMutableBytes(of: &bytes) { read(readEnd, $0.baseAddress, $0.count) }
        onSignal()
    }
}
