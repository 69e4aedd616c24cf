/// A listening socket in an ``EventLoop``: accepts every pending connection and hands it on.
final class Listener: EventHandler {
    let socket: Socket
    /// The address actually bound: the system's port when port 0 was asked for.
    let address: SocketAddress
    private let onAccept: (Socket, SocketAddress) -> Void
    private let onError: (SocketError) -> Void

    /// Binds the first address `hostPort` resolves to and starts listening.
    ///
    /// - Parameters:
    ///   - hostPort: where to listen; a missing host is 127.0.0.1 (loopback only: a debugging
    ///     tool is not exposed to the network unless asked to be).
    ///   - loop: the loop that serves the socket.
    ///   - onAccept: called with each accepted connection and its peer's address.
    ///   - onError: called when accepting fails (e.g. out of descriptors); listening goes on.
    /// - Throws: ``SocketError`` when the address does not resolve or cannot be bound.
    init(
        _ hostPort: HostPort,
        loop: EventLoop,
        onAccept: @escaping (Socket, SocketAddress) -> Void,
        onError: @escaping (SocketError) -> Void
    ) throws(SocketError) {
        let addresses = try SocketAddress.resolve(hostPort, defaultHost: "127.0.0.1")
        socket = try Socket.listening(on: addresses[0])
        address = socket.localAddress ?? addresses[0]
        self.onAccept = onAccept
        self.onError = onError
        try loop.register(socket.descriptor, .read, self)
    }

    /// Listens for a command's server (`listen`, `proxy`): a failure to accept is reported on
    /// standard error as `framedump COMMAND: …` and listening goes on.
    ///
    /// - Throws: ``CommandFailure`` (exit 1, as for a bad address) naming `hostPort` and why it
    ///   cannot be listened on.
    convenience init(
        _ hostPort: HostPort,
        for command: String,
        loop: EventLoop,
        onAccept: @escaping (Socket, SocketAddress) -> Void
    ) throws(CommandFailure) {
        do {
            try self.init(hostPort, loop: loop, onAccept: onAccept) { error in
                StandardError.writeLine("framedump \(command): \(error)")
            }
        } catch {
            throw CommandFailure(message: "framedump \(command): cannot listen on \(hostPort): \(error)", status: .usage)
        }
    }

    func handle(_ events: ReadyEvents) {
        do {
            while let (connection, peerAddress) = try socket.accept() {
                onAccept(connection, peerAddress)
            }
        } catch {
            onError(error)
        }
    }
}
