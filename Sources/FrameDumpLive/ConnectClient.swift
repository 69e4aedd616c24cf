import PacketDecoding

/// A TCP client for `framedump connect`: one connection to a server, fed from standard input
/// through its owner, reporting what the server sends as ``LiveEvent``s.
///
/// Standard input's bytes are reported as ``LiveEvent/input(_:)``; the owner turns them into
/// frames and ``send(_:)``s them. While more than the buffer limit waits to be written to the
/// server, standard input is not read (backpressure). At the end of standard input the owner
/// calls ``finishSending()`` (FIN once everything is written); the connection closes when the
/// server has closed its side too.
public final class ConnectClient: PeerDelegate {
    private let loop: EventLoop
    private let onEvent: (ConnectClient, LiveEvent) -> Void
    private let bufferLimit: Int
    private var addresses: ArraySlice<SocketAddress>
    private var peer: Peer?
    private var input: InputReader!
    private var signals: SignalPipe!
    private var isStreamOpen = false
    /// Why connecting failed (every address was tried), if it did; `nil` once connected.
    public private(set) var failure: SocketError?
    /// Whether the connection failed after it was made (reported closed with the error).
    public private(set) var failedAfterConnecting = false

    /// Prepares to connect to the first of `addresses` that accepts.
    ///
    /// - Parameters:
    ///   - addresses: the server's addresses, tried in order.
    ///   - backend: the event loop's system call.
    ///   - bufferLimit: bytes queued toward the server before standard input is no longer read.
    ///   - report: called on the loop's thread with the client and every event, in order.
    /// - Throws: ``SocketError`` when the loop cannot be set up.
    public init(
        addresses: [SocketAddress],
        backend: EventLoopBackend,
        bufferLimit: Int,
        report: @escaping (ConnectClient, LiveEvent) -> Void
    ) throws(SocketError) {
        loop = try EventLoop(backend: backend)
        onEvent = report
        self.bufferLimit = bufferLimit
        self.addresses = addresses[...]
        signals = try SignalPipe(loop: loop) { [unowned self] in loop.stop() }
        input = InputReader(descriptor: 0, loop: loop, onBytes: { [unowned self] in self.report(.input($0)) }) { [unowned self] error in
            self.report(.inputEnded(error))
        }
    }

    /// Connects, then serves the connection until both sides are done, the connection fails,
    /// or SIGINT or SIGTERM.
    ///
    /// - Parameter afterEachRound: called after every round of socket events (flush output here).
    /// - Throws: ``SocketError`` when waiting fails, or what `afterEachRound` throws. A failure to
    ///   connect is not thrown: it is ``failure``.
    public func run(afterEachRound: () throws -> Void) throws {
        connectNext()
        defer { endStream() }
        if failure == nil { try loop.run(afterEachRound: afterEachRound) }
    }

    /// Makes ``run(afterEachRound:)`` return after the current round of events, as SIGINT does;
    /// call it on the loop's thread (from `report` or `afterEachRound`).
    public func stop() { loop.stop() }

    /// Queues `bytes` toward the server and writes what the socket takes now.
    public func send(_ bytes: [UInt8]) {
        guard let peer else { return }
        peer.send(bytes)
        if peer.outgoing.count >= bufferLimit { input.paused = true }
    }

    /// Sends FIN once everything queued is written.
    public func finishSending() {
        peer?.finishWriting()
    }

    private func report(_ event: LiveEvent) {
        onEvent(self, event)
    }

    private func connectNext() {
        while let address = addresses.popFirst() {
            do throws(SocketError) {
                let (socket, inProgress) = try Socket.connecting(to: address)
                let peer = try Peer(socket: socket, loop: loop, connecting: inProgress)
                peer.delegate = self
                self.peer = peer
                if !inProgress { peerDidConnect(peer) }
                return
            } catch {
                failure = error
            }
        }
        loop.stop()
    }

    func peerDidConnect(_ peer: Peer) {
        failure = nil
        if let local = peer.socket.localAddress?.endpoint, let remote = peer.socket.peerAddress?.endpoint {
            isStreamOpen = true
            report(.opened(connection: 1, client: local, server: remote))
        }
        input.start()
    }

    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer) {
        guard isStreamOpen else { return }
        report(.received(connection: 1, direction: .serverToClient, bytes: bytes, offset: peer.bytesRead - UInt64(bytes.count), time: WallClock.now()))
    }

    func peerReachedEnd(_ peer: Peer) {
        // The server is done: what is queued still goes out, then the connection closes.
        input.stop()
        peer.finishWriting()
        closeWhenDrained()
    }

    func peerWroteOutgoing(_ peer: Peer) {
        if peer.outgoing.count < bufferLimit { input.paused = false }
        closeWhenDrained()
    }

    func peer(_ peer: Peer, failed error: SocketError) {
        peer.close()
        input.stop()
        if peer.bytesRead == 0, peer.bytesWritten == 0, !isStreamOpen {
            failure = error
            connectNext()
            return
        }
        failedAfterConnecting = true
        endStream()
        report(.closed(connection: 1, clientToServer: peer.bytesWritten, serverToClient: peer.bytesRead, reason: .failed(side: .server, error)))
        loop.stop()
    }

    private func endStream() {
        guard isStreamOpen else { return }
        isStreamOpen = false
        report(.streamEnded(connection: 1, direction: .serverToClient, time: WallClock.now()))
    }

    private func closeWhenDrained() {
        guard let peer, !peer.isReadOpen, peer.outgoing.isEmpty else { return }
        peer.close()
        endStream()
        report(.closed(connection: 1, clientToServer: peer.bytesWritten, serverToClient: peer.bytesRead, reason: nil))
        loop.stop()
    }
}
