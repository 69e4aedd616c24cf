/// Which system call waits for the live commands' sockets.
///
/// Both behave the same to the commands (level-triggered readiness, one thread for every
/// connection); they differ in cost and availability. `epoll` exists on Linux only; `poll` is
/// POSIX and the only one on macOS and the BSDs.
public enum EventLoopBackend: String, CaseIterable, Sendable {
    /// Linux `epoll(7)`: cost per wait independent of the number of connections.
    case epoll
    /// POSIX `poll(2)`: cost per wait linear in the number of connections.
    case poll

    /// The backend used when none is asked for: `epoll` on Linux, `poll` elsewhere.
    public static var platformDefault: EventLoopBackend {
        #if os(Linux)
        .epoll
        #else
        .poll
        #endif
    }

    /// Whether this platform has the backend (`epoll` only on Linux).
    public var isAvailable: Bool {
        #if os(Linux)
        true
        #else
        self == .poll
        #endif
    }
}
