#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C calls whose names ``Socket`` reuses (`close`, `accept`, `listen`…), and the few that
/// differ between Linux and the BSDs, in one place: Linux sets `SOCK_NONBLOCK | SOCK_CLOEXEC`
/// at `socket(2)` and passes `MSG_NOSIGNAL` per send; Darwin has neither and takes
/// `fcntl(2)` and the `SO_NOSIGPIPE` socket option instead (Darwin's socket(2), setsockopt(2)).
enum SystemCalls {
    /// A non-blocking, close-on-exec TCP socket of `family`, or -1 (`errno` set).
    static func streamSocket(_ family: Int32) -> Int32 {
        #if canImport(Glibc)
        return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(family, SOCK_STREAM, 0)
        if descriptor >= 0 { prepareAccepted(descriptor) }
        return descriptor
        #endif
    }

    /// Makes a descriptor from `accept(2)` (or Darwin's `socket(2)`) non-blocking and
    /// close-on-exec; on Darwin also `SO_NOSIGPIPE`, so a send to a closed peer is `EPIPE`.
    static func prepareAccepted(_ descriptor: Int32) {
        setNonBlocking(descriptor)
        setCloseOnExec(descriptor)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `O_NONBLOCK` on, the other status flags kept.
    static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// `FD_CLOEXEC` on.
    static func setCloseOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// The flags every `send(2)` passes: `MSG_NOSIGNAL` on Linux (Darwin: the socket option).
    static var sendFlags: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    /// `SO_LINGER` on with a zero timeout: `close(2)` sends RST instead of FIN.
    static var resetOnClose: linger { linger(l_onoff: 1, l_linger: 0) }

    /// A descriptor held in reserve (`/dev/null`, read-only, close-on-exec), or `nil` when none
    /// is left.
    static func openSpareDescriptor() -> Int32? {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    static func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

    static func bindAddress(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        bind(descriptor, address, length)
    }

    static func listenOn(_ descriptor: Int32, backlog: Int32) -> Int32 { listen(descriptor, backlog) }

    static func connectTo(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        connect(descriptor, address, length)
    }

    static func acceptOn(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        accept(descriptor, address, length)
    }

    /// `SOCK_STREAM` as `getaddrinfo`'s hints take it.
    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }
}
