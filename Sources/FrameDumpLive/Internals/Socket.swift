#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking TCP socket descriptor and the calls the live commands make on it.
///
/// Thin wrappers over `socket(2)`, `accept(2)`, `connect(2)`, `recv(2)`, `send(2)` and
/// `shutdown(2)`. Every socket is non-blocking and close-on-exec, and a peer that went away is
/// an `EPIPE` result, never a SIGPIPE (``SystemCalls`` says how on each system).
struct Socket: Hashable, Sendable {
    /// The file descriptor.
    let descriptor: Int32

    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        /// This many bytes moved (more than 0).
        case bytes(Int)
        /// The peer finished sending (a read returned 0: FIN).
        case end
        /// Nothing to read, or no room to write, right now (`EAGAIN`).
        case wouldBlock
        /// The call failed: `ECONNRESET`, `EPIPE`, ...
        case failed(SocketError)
    }

    /// A socket listening on `address`, with `SO_REUSEADDR` (a restarted tool can bind the port
    /// its predecessor left in TIME_WAIT) and, for IPv6, `IPV6_V6ONLY`.
    static func listening(on address: SocketAddress, backlog: Int32 = 128) throws(SocketError) -> Socket {
        let descriptor = SystemCalls.streamSocket(address.family)
        guard descriptor >= 0 else { throw SocketError("socket") }
        let socket = Socket(descriptor: descriptor)
        socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1)
        if address.family == AF_INET6 { socket.setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
        let bound = address.withSockaddr { SystemCalls.bindAddress(descriptor, $0, $1) }
        guard bound == 0, SystemCalls.listenOn(descriptor, backlog: backlog) == 0 else {
            let error = SocketError(bound == 0 ? "listen" : "bind")
            socket.close()
            throw error
        }
        return socket
    }

    /// Starts connecting to `address` without waiting.
    ///
    /// - Returns: the socket, and whether the connection is still in progress (`EINPROGRESS`:
    ///   it becomes writable when done, and ``pendingError()`` tells how it went).
    /// - Throws: ``SocketError`` when the attempt fails at once (e.g. `ECONNREFUSED` on loopback).
    static func connecting(to address: SocketAddress) throws(SocketError) -> (socket: Socket, inProgress: Bool) {
        let descriptor = SystemCalls.streamSocket(address.family)
        guard descriptor >= 0 else { throw SocketError("socket") }
        let socket = Socket(descriptor: descriptor)
        socket.setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        let result = address.withSockaddr { SystemCalls.connectTo(descriptor, $0, $1) }
        if result == 0 { return (socket, false) }
        if errno == EINPROGRESS { return (socket, true) }
        let error = SocketError("connect")
        socket.close()
        throw error
    }

    /// Accepts one pending connection and makes it non-blocking and close-on-exec (Glibc's
    /// Swift module does not export `accept4`, which needs `_GNU_SOURCE`; Darwin has none).
    ///
    /// - Returns: the connection and the client's address, or `nil` when none is pending.
    /// - Throws: ``SocketError`` for other failures (e.g. `EMFILE`).
    func accept() throws(SocketError) -> (Socket, SocketAddress)? {
        while true {
            if let (address, descriptor) = SocketAddress.filled(by: { SystemCalls.acceptOn(self.descriptor, $0, $1) }) {
                SystemCalls.prepareAccepted(descriptor)
                let socket = Socket(descriptor: descriptor)
                socket.setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                return (socket, address)
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SocketError("accept")
            }
        }
    }

    /// The address the socket is bound to (`getsockname`): the actual port after binding port 0.
    var localAddress: SocketAddress? {
        SocketAddress.filled { getsockname(descriptor, $0, $1) }?.0
    }

    /// The connected peer's address (`getpeername`).
    var peerAddress: SocketAddress? {
        SocketAddress.filled { getpeername(descriptor, $0, $1) }?.0
    }

    /// The outcome of a non-blocking connect (`SO_ERROR`): `nil` when connected.
    func pendingError() -> SocketError? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return SocketError("getsockopt") }
        return code == 0 ? nil : SocketError("connect", code: code)
    }

    /// Reads what is available into `buffer` (`recv(2)`).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(SocketError("recv"))
            }
        }
    }

    /// Writes as much of `bytes` as the socket takes now (`send(2)` with `MSG_NOSIGNAL`).
    func write(_ bytes: UnsafeRawBufferPointer) -> Transfer {
        while true {
            let count = send(descriptor, bytes.baseAddress, bytes.count, SystemCalls.sendFlags)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .wouldBlock }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(SocketError("send"))
            }
        }
    }

    /// Sends FIN: the peer reads end of stream; this side can still read (`shutdown(SHUT_WR)`).
    func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the descriptor.
    func close() {
        SystemCalls.closeDescriptor(descriptor)
    }

    /// Closes with a reset (RST) instead of FIN: `SO_LINGER` on with a zero timeout. Used to
    /// pass a reset on to the other side of a relay.
    func abort() {
        var linger = SystemCalls.resetOnClose
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout.size(ofValue: linger)))
        close()
    }

    private func setOption(_ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
