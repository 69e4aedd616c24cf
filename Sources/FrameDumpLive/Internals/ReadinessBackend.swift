/// The system call under an ``EventLoop``: `epoll(7)` (Linux) or `poll(2)` (POSIX).
///
/// Both are level-triggered and both report errors and hangups whatever the interest, so the
/// loop takes a descriptor whose interest becomes empty out of the set (``watch(_:interest:)``
/// with `[]`) instead of leaving it in with no events asked for.
protocol ReadinessBackend: AnyObject {
    /// Starts, changes or (with `[]`) stops watching `descriptor`; `old` is what it was
    /// watched for (`[]`: not watched).
    ///
    /// - Throws: ``SocketError`` from the system call (`epoll_ctl`: `EPERM` for a regular file).
    func watch(_ descriptor: Int32, interest: Interest, old: Interest) throws(SocketError)

    /// Blocks until at least one watched descriptor is ready, or until `timeout` milliseconds
    /// have passed (-1: no time limit), and appends each ready descriptor to `ready` (`EINTR` is
    /// a return with none ready). The loop calls the handlers afterwards, so a handler may
    /// change any descriptor's interest without disturbing the backend's own list.
    ///
    /// - Throws: ``SocketError`` when the wait fails.
    func wait(timeout: Int32, into ready: inout [(descriptor: Int32, events: ReadyEvents)]) throws(SocketError)
}
