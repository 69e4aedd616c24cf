import CEpoll
#if canImport(Glibc)
import Glibc
#endif

/// A single-threaded readiness loop over Linux `epoll(7)`: every socket of a live command is
/// served from one thread, never a thread per connection.
///
/// Level-triggered: a handler that leaves bytes unread is called again. A descriptor whose
/// interest becomes empty is taken out of the epoll set (and put back when it wants something
/// again), because epoll reports `EPOLLHUP` and `EPOLLERR` whatever the interest: a relay that
/// stops reading one side for backpressure must not spin on that side's hangup.
final class EventLoop {
    private let epoll: Int32
    private var handlers: [Int32: any EventHandler] = [:]
    private var interests: [Int32: Interest] = [:]
    private var running = false
    /// Where every socket of the loop reads into (one thread: one buffer), 64 KiB.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// - Throws: ``SocketError`` when `epoll_create1` fails.
    init() throws(SocketError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SocketError("epoll_create1") }
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        Glibc.close(epoll)
        readBuffer.deallocate()
    }

    /// Starts watching `descriptor` for `interest` on behalf of `handler`.
    ///
    /// - Throws: ``SocketError`` from `epoll_ctl`: `EPERM` for a descriptor epoll cannot watch
    ///   (a regular file).
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

    /// Changes what `descriptor` is watched for; a system call only when it changed.
    func setInterest(_ descriptor: Int32, _ interest: Interest) throws(SocketError) {
        guard let old = interests[descriptor], old != interest else { return }
        var event = epoll_event()
        event.events = interest.rawValue
        event.data.fd = descriptor
        let operation = old.isEmpty ? EPOLL_CTL_ADD : interest.isEmpty ? EPOLL_CTL_DEL : EPOLL_CTL_MOD
        guard epoll_ctl(epoll, operation, descriptor, &event) == 0 else { throw SocketError("epoll_ctl") }
        interests[descriptor] = interest
    }

    /// Stops watching `descriptor` and forgets its handler; call before closing it.
    func deregister(_ descriptor: Int32) {
        guard let interest = interests.removeValue(forKey: descriptor) else { return }
        handlers[descriptor] = nil
        if !interest.isEmpty { _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil) }
    }

    /// Makes ``run(afterEachRound:)`` return after the current round of events.
    func stop() { running = false }

    /// Waits for events and calls their handlers until ``stop()``.
    ///
    /// - Parameter afterEachRound: called after every batch of handlers (the commands flush their
    ///   output there, so frames print as soon as they complete).
    /// - Throws: ``SocketError`` when `epoll_wait` fails, or what `afterEachRound` throws.
    func run(afterEachRound: () throws -> Void) throws {
        running = true
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while running {
            let count = epoll_wait(epoll, events, Int32(capacity), -1)
            if count < 0 {
                if errno == EINTR { continue }
                throw SocketError("epoll_wait")
            }
            for index in 0..<Int(count) {
                let descriptor = events[index].data.fd
                // A handler earlier in this batch may have closed it.
                guard let handler = handlers[descriptor] else { continue }
                handler.handle(ReadyEvents(rawValue: events[index].events))
            }
            try afterEachRound()
        }
    }
}
