#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``ReadinessBackend`` over POSIX `poll(2)`: the one the BSDs and macOS have too (no epoll
/// there), and the second backend CI runs the live tests against on Linux.
///
/// The `pollfd` array is rebuilt only after the interest set changed; `poll` scans every entry,
/// so a wait costs time linear in the watched descriptors.
final class PollBackend: ReadinessBackend {
    private var interests: [Int32: Interest] = [:]
    private var descriptors: [pollfd] = []
    private var isStale = false

    init() {}

    func watch(_ descriptor: Int32, interest: Interest, old: Interest) throws(SocketError) {
        interests[descriptor] = interest.isEmpty ? nil : interest
        isStale = true
    }

    func wait(timeout: Int32, into ready: inout [(descriptor: Int32, events: ReadyEvents)]) throws(SocketError) {
        if isStale {
            descriptors.removeAll(keepingCapacity: true)
            for (descriptor, interest) in interests {
                var events: Int16 = 0
                if interest.contains(.read) { events |= Int16(POLLIN) }
                if interest.contains(.write) { events |= Int16(POLLOUT) }
                descriptors.append(pollfd(fd: descriptor, events: events, revents: 0))
            }
            isStale = false
        }
        let count = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        if count < 0 {
            if errno == EINTR { return }
            throw SocketError("poll")
        }
        guard count > 0 else { return }
        for entry in descriptors where entry.revents != 0 {
            var mapped: ReadyEvents = []
            if entry.revents & Int16(POLLIN) != 0 { mapped.insert(.readable) }
            if entry.revents & Int16(POLLOUT) != 0 { mapped.insert(.writable) }
            // POLLNVAL: a descriptor closed while watched, reported as the error it is.
            if entry.revents & Int16(POLLERR | POLLNVAL) != 0 { mapped.insert(.error) }
            if entry.revents & Int16(POLLHUP) != 0 { mapped.insert(.hangup) }
            ready.append((entry.fd, mapped))
        }
    }
}
