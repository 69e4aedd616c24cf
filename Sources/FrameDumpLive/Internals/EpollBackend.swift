#if os(Linux)
import CEpoll
import Glibc

/// ``ReadinessBackend`` over Linux `epoll(7)`: one `epoll_ctl(2)` per interest change, and
/// `epoll_wait(2)` returns only the ready descriptors, so a wait costs the same with ten or ten
/// thousand connections.
final class EpollBackend: ReadinessBackend {
    private let epoll: Int32
    /// Room for this many ready descriptors per wait; more are reported by the next wait.
    private let capacity = 256
    private let events: UnsafeMutablePointer<epoll_event>

    /// - Throws: ``SocketError`` when `epoll_create1` fails.
    init() throws(SocketError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SocketError("epoll_create1") }
        events = .allocate(capacity: capacity)
    }

    deinit {
        Glibc.close(epoll)
        events.deallocate()
    }

    func watch(_ descriptor: Int32, interest: Interest, old: Interest) throws(SocketError) {
        var event = epoll_event()
        if interest.contains(.read) { event.events |= EPOLLIN.rawValue }
        if interest.contains(.write) { event.events |= EPOLLOUT.rawValue }
        event.data.fd = descriptor
        let operation = old.isEmpty ? EPOLL_CTL_ADD : interest.isEmpty ? EPOLL_CTL_DEL : EPOLL_CTL_MOD
        guard epoll_ctl(epoll, operation, descriptor, &event) == 0 else { throw SocketError("epoll_ctl") }
    }

    func wait(timeout: Int32, into ready: inout [(descriptor: Int32, events: ReadyEvents)]) throws(SocketError) {
        let count = epoll_wait(epoll, events, Int32(capacity), timeout)
        if count < 0 {
            if errno == EINTR { return }
            throw SocketError("epoll_wait")
        }
        for index in 0..<Int(count) {
            let raw = events[index].events
            var mapped: ReadyEvents = []
            if raw & EPOLLIN.rawValue != 0 { mapped.insert(.readable) }
            if raw & EPOLLOUT.rawValue != 0 { mapped.insert(.writable) }
            if raw & EPOLLERR.rawValue != 0 { mapped.insert(.error) }
            if raw & EPOLLHUP.rawValue != 0 { mapped.insert(.hangup) }
            ready.append((events[index].data.fd, mapped))
        }
    }
}
#endif
