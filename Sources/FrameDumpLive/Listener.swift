/// A listening socket in an ``EventLoop``: accepts every pending connection and hands it on.
///
/// Running out of descriptors (`EMFILE`, `ENFILE`) must not make the loop spin: the pending
/// connection keeps the socket readable, and a level-triggered loop would call `accept` again
/// at once, forever. The listener keeps a spare descriptor (`/dev/null`) for that case, as
/// libev and nginx do: close the spare, accept the pending connections and close them at once
/// (the clients see a reset-free close instead of a hanging connect), reopen the spare. When even
/// that fails, the socket is left unwatched for 100 ms. The owner hears of every such round
/// (`onOutOfDescriptors`, with the connections closed); ``AcceptLoop`` makes episodes of them.
final class Listener: EventHandler {
    let socket: Socket
    /// The address actually bound: the system's port when port 0 was asked for.
    let address: SocketAddress
    private unowned let loop: EventLoop
    private let onAccept: (Socket, SocketAddress) -> Void
    private let onOutOfDescriptors: (SocketError, Int) -> Void
    private let report: (LiveEvent) -> Void
    private var spare: Int32?

    /// Binds the first address `hostPort` resolves to and starts listening.
    ///
    /// - Parameters:
    ///   - hostPort: where to listen; a missing host is 127.0.0.1 (loopback only: a debugging
    ///     tool is not exposed to the network unless asked to be).
    ///   - loop: the loop that serves the socket.
    ///   - onAccept: called with each accepted connection and its peer's address.
    ///   - onOutOfDescriptors: called when accepting found no descriptor left and a client was
    ///     refused (or accepting paused), with how many were accepted and closed at once.
    ///   - report: told when accepting fails otherwise; listening goes on.
    /// - Throws: ``SocketError`` when the address does not resolve or cannot be bound.
    init(
        _ hostPort: HostPort,
        loop: EventLoop,
        onAccept: @escaping (Socket, SocketAddress) -> Void,
        onOutOfDescriptors: @escaping (SocketError, Int) -> Void,
        report: @escaping (LiveEvent) -> Void
    ) throws(SocketError) {
        let addresses = try SocketAddress.resolve(hostPort, defaultHost: "127.0.0.1")
        socket = try Socket.listening(on: addresses[0])
        address = socket.localAddress ?? addresses[0]
        self.loop = loop
        self.onAccept = onAccept
        self.onOutOfDescriptors = onOutOfDescriptors
        self.report = report
        spare = SystemCalls.openSpareDescriptor()
        try loop.register(socket.descriptor, .read, self)
    }

    deinit {
        if let spare { SystemCalls.closeDescriptor(spare) }
    }

    func handle(_ events: ReadyEvents) {
        do {
            while let (connection, peerAddress) = try socket.accept() {
                onAccept(connection, peerAddress)
            }
        } catch where error.isOutOfDescriptors {
            // Linux's accept(2) takes a descriptor before it looks at the queue: with none left it
            // fails even when nobody is waiting. Only a client refused (or accepting paused) counts.
            let closed = shedPendingConnections()
            if closed > 0 || spare == nil { onOutOfDescriptors(error, closed) }
        } catch {
            report(.acceptFailed(error))
        }
    }

    /// Accepts and closes what is pending with the spare descriptor's slot; without a spare,
    /// stops watching the socket for a moment.
    ///
    /// - Returns: how many connections were closed.
    private func shedPendingConnections() -> Int {
        var closed = 0
        if let spare {
            SystemCalls.closeDescriptor(spare)
            self.spare = nil
            while let (connection, _) = try? socket.accept() {
                connection.close()
                closed += 1
            }
            self.spare = SystemCalls.openSpareDescriptor()
        }
        if spare == nil {
            try? loop.setInterest(socket.descriptor, [])
            loop.schedule(after: 100) { [weak self] in
                guard let self else { return }
                try? self.loop.setInterest(self.socket.descriptor, .read)
                if self.spare == nil { self.spare = SystemCalls.openSpareDescriptor() }
            }
        }
        return closed
    }
}
