/// What a descriptor is ready for, whichever backend reported it (`epoll_wait(2)`'s `EPOLLIN`…,
/// `poll(2)`'s `POLLIN`…, mapped by the backend).
struct ReadyEvents: OptionSet, Sendable {
    let rawValue: UInt8
    /// Bytes (or a FIN, or a pending connection) to read.
    static let readable = ReadyEvents(rawValue: 1 << 0)
    /// Room to write, or a non-blocking connect finished.
    static let writable = ReadyEvents(rawValue: 1 << 1)
    /// An error is pending (`SO_ERROR`), e.g. a reset.
    static let error = ReadyEvents(rawValue: 1 << 2)
    /// Both directions are closed.
    static let hangup = ReadyEvents(rawValue: 1 << 3)
}

/// Which readiness a handler wants to hear about.
struct Interest: OptionSet, Sendable {
    let rawValue: UInt8
    static let read = Interest(rawValue: 1 << 0)
    static let write = Interest(rawValue: 1 << 1)
}

/// Something the loop calls when its descriptor is ready.
protocol EventHandler: AnyObject {
    /// Called on the loop's thread with what the descriptor is ready for.
    func handle(_ events: ReadyEvents)
}
