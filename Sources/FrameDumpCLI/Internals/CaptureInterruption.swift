import PacketCapture
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The capture the signal handler stops.
///
/// `nonisolated(unsafe)` because a signal handler is a C function pointer that cannot capture
/// context, so it must read a global. It is safe here: the only writer is
/// ``CaptureInterruption/during(_:_:)`` on the capturing thread, which sets the value before
/// installing the handlers and clears it only after restoring the previous ones, so no handler
/// can run while it changes.
nonisolated(unsafe) private var signalledCapture: LiveCapture.Interrupter?

/// The signal that stopped the capture, 0 until one arrives. Written by the handler (a plain
/// aligned 32-bit store, `sig_atomic_t` in C), read after the capture loop has returned.
nonisolated(unsafe) private var receivedSignal: Int32 = 0

/// Stops a live capture cleanly on SIGINT (Ctrl-C) or SIGTERM: the capture loop ends, and the
/// command flushes its output, prints its summary and libpcap's counts, and exits normally.
///
/// The handler (installed with `sigaction`) only calls `pcap_breakloop`, which libpcap documents
/// as safe to call from a signal handler (pcap_breakloop(3PCAP)): it sets a flag and, on Linux
/// since libpcap 1.10, writes to an eventfd that wakes the `poll` the capture is blocked in.
/// Should the wake-up be missed, the capture's packet buffer timeout (`pcap_set_timeout`,
/// 100 ms) makes the blocked read return and see the flag, so an idle capture still stops.
///
/// `SA_RESETHAND` restores the default action once a signal is handled: a second Ctrl-C ends a
/// stuck process at once, as people expect.
enum CaptureInterruption {
    /// Runs `body` with the handlers installed for `capture`; restores the previous handlers after.
    ///
    /// - Returns: What `body` returns, and the signal that interrupted it (`nil`: none).
    static func during<T>(_ capture: LiveCapture, _ body: () throws -> T) rethrows -> (result: T, signal: Int32?) {
        signalledCapture = capture.interrupter
        receivedSignal = 0
        var action = sigaction()
        let handler: @convention(c) (Int32) -> Void = { signal in
            receivedSignal = signal
            signalledCapture?.breakLoop()
        }
        // The handler's union member is named differently by glibc and Darwin's <signal.h>.
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) // 0x80000000 in a signed field
        sigemptyset(&action.sa_mask)
        var previousInterrupt = sigaction(), previousTerminate = sigaction()
        sigaction(SIGINT, &action, &previousInterrupt)
        sigaction(SIGTERM, &action, &previousTerminate)
        // A blocked signal mask is inherited across exec: a parent that blocks SIGINT/SIGTERM
        // (a test runner, a supervisor) would otherwise leave the capture unstoppable.
        var signals = sigset_t(), previousMask = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, &previousMask)
        defer {
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            sigaction(SIGINT, &previousInterrupt, nil)
            sigaction(SIGTERM, &previousTerminate, nil)
            signalledCapture = nil
        }
        let result = try body()
        return (result, receivedSignal == 0 ? nil : receivedSignal)
    }

    /// `SIGINT` or `SIGTERM`, for messages.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
