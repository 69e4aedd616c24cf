import CEpoll
#if canImport(Glibc)
import Glibc
#endif

/// What a descriptor is ready for, as `epoll_wait(2)` reports it.
struct ReadyEvents: OptionSet, Sendable {
    let rawValue: UInt32
    /// Bytes (or a FIN, or a pending connection) to read.
    static let readable = ReadyEvents(rawValue: EPOLLIN.rawValue)
    /// Room to write, or a non-blocking connect finished.
    static let writable = ReadyEvents(rawValue: EPOLLOUT.rawValue)
    /// An error is pending (`SO_ERROR`), e.g. a reset.
    static let error = ReadyEvents(rawValue: EPOLLERR.rawValue)
    /// Both directions are closed.
    static let hangup = ReadyEvents(rawValue: EPOLLHUP.rawValue)
}

/// Which readiness a handler wants to hear about.
struct Interest: OptionSet, Sendable {
    let rawValue: UInt32
    static let read = Interest(rawValue: EPOLLIN.rawValue)
    static let write = Interest(rawValue: EPOLLOUT.rawValue)
}

/// Something the loop calls when its descriptor is ready.
protocol EventHandler: AnyObject {
    /// Called on the loop's thread with what the descriptor is ready for.
    func handle(_ events: ReadyEvents)
}
