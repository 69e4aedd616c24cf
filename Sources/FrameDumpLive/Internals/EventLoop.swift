#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A single-threaded readiness loop: every socket of a live command is served from one thread,
/// never a thread per connection, over the ``EventLoopBackend`` chosen at start.
///
/// Level-triggered: a handler that leaves bytes unread is called again. A descriptor whose
/// interest becomes empty is taken out of the backend's set (and put back when it wants
/// something again), because both epoll and poll report hangups and errors whatever the
/// interest: a relay that stops reading one side for backpressure must not spin on that side's
/// hangup.
final class EventLoop {
    private let backend: any ReadinessBackend
    /// Which backend ``backend`` is.
    let backendKind: EventLoopBackend
    private var handlers: [Int32: any EventHandler] = [:]
    private var interests: [Int32: Interest] = [:]
    private var running = false
    /// Actions due at a time (`CLOCK_MONOTONIC` nanoseconds), soonest first after sorting.
    private var timers: [(due: Int64, action: () -> Void)] = []
    /// Where every socket of the loop reads into (one thread: one buffer), 64 KiB.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// - Throws: ``SocketError`` when the backend cannot be set up (`epoll_create1`), or names
    ///   a backend this platform does not have.
    init(backend kind: EventLoopBackend) throws(SocketError) {
        switch kind {
        case .epoll:
            #if os(Linux)
            backend = try EpollBackend()
            #else
            throw SocketError("epoll", code: ENOSYS)
            #endif
        case .poll:
            backend = PollBackend()
        }
        backendKind = kind
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Starts watching `descriptor` for `interest` on behalf of `handler`.
    ///
    /// - Throws: ``SocketError`` from the backend: epoll's `EPERM` for a descriptor it cannot
    ///   watch (a regular file).
    func register(_ descriptor: Int32, _ interest: Interest, _ handler: any EventHandler) throws(SocketError) {
        handlers[descriptor] = handler
        interests[descriptor] = []
        do {
            try setInterest(descriptor, interest)
        } catch {
            handlers[descriptor] = nil
            interests[descriptor] = nil
            throw error
        }
    }

    /// Changes what `descriptor` is watched for; a system call (epoll) only when it changed.
    func setInterest(_ descriptor: Int32, _ interest: Interest) throws(SocketError) {
        guard let old = interests[descriptor], old != interest else { return }
        try backend.watch(descriptor, interest: interest, old: old)
        interests[descriptor] = interest
    }

    /// Stops watching `descriptor` and forgets its handler; call before closing it.
    func deregister(_ descriptor: Int32) {
        guard let interest = interests.removeValue(forKey: descriptor) else { return }
        handlers[descriptor] = nil
        if !interest.isEmpty { try? backend.watch(descriptor, interest: [], old: interest) }
    }

    /// Calls `action` on the loop's thread once, `milliseconds` from now (or later, after the
    /// round of events in progress).
    func schedule(after milliseconds: Int64, _ action: @escaping () -> Void) {
        timers.append((Self.monotonicNow() + milliseconds * 1_000_000, action))
        timers.sort { $0.due < $1.due }
    }

    /// Makes ``run(afterEachRound:)`` return after the current round of events.
    func stop() { running = false }

    /// Waits for events and calls their handlers until ``stop()``.
    ///
    /// - Parameter afterEachRound: called after every batch of handlers (the commands flush their
    ///   output there, so frames print as soon as they complete).
    /// - Throws: ``SocketError`` when the wait fails, or what `afterEachRound` throws.
    func run(afterEachRound: () throws -> Void) throws {
        running = true
        var ready: [(descriptor: Int32, events: ReadyEvents)] = []
        while running {
            ready.removeAll(keepingCapacity: true)
            try backend.wait(timeout: waitTimeout(), into: &ready)
            for (descriptor, events) in ready {
                // A handler earlier in this batch may have closed it.
                guard let handler = handlers[descriptor] else { continue }
                handler.handle(events)
            }
            runDueTimers()
            try afterEachRound()
        }
    }

    /// Milliseconds until the next timer (rounded up), or -1 (no limit) when none is set.
    private func waitTimeout() -> Int32 {
        guard let next = timers.first else { return -1 }
        let remaining = next.due - Self.monotonicNow()
        return remaining <= 0 ? 0 : Int32(clamping: (remaining + 999_999) / 1_000_000)
    }

    private func runDueTimers() {
        guard !timers.isEmpty else { return }
        let now = Self.monotonicNow()
        while let first = timers.first, first.due <= now {
            timers.removeFirst()
            first.action()
        }
    }

    /// `CLOCK_MONOTONIC`, in nanoseconds.
    private static func monotonicNow() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
