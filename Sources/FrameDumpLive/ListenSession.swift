/// One accepted client of a ``ListenServer``: its bytes are reported as the c2s stream;
/// replies the owner sends go back on the socket.
///
/// Backpressure as in a relay: while more than the server's buffer limit of replies waits to be
/// written (a client that sends but does not read), the client is not read, so the replies it
/// provokes stay bounded by the limit plus what one read's frames answer.
final class ListenSession: PeerDelegate {
    let number: Int
    let peer: Peer
    private let bufferLimit: Int
    private let report: (LiveEvent) -> Void
    private let onClose: (ListenSession) -> Void
    private var isStreamOpen = true

    init(
        number: Int,
        socket: Socket,
        loop: EventLoop,
        bufferLimit: Int,
        report: @escaping (LiveEvent) -> Void,
        onClose: @escaping (ListenSession) -> Void
    ) throws(SocketError) {
        self.number = number
        self.bufferLimit = bufferLimit
        self.report = report
        self.onClose = onClose
        peer = try Peer(socket: socket, loop: loop)
        peer.delegate = self
    }

    func peerDidConnect(_ peer: Peer) {}

    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer) {
        report(.received(connection: number, direction: .clientToServer, bytes: bytes, offset: peer.bytesRead - UInt64(bytes.count), time: WallClock.now()))
        if peer.outgoing.count >= bufferLimit { peer.readPaused = true }
    }

    /// Queues a reply to the client.
    func send(_ bytes: [UInt8]) {
        peer.send(bytes)
        if peer.outgoing.count >= bufferLimit { peer.readPaused = true }
    }

    func peerReachedEnd(_ peer: Peer) {
        // The client is done sending; replies already queued still go out before FIN.
        endStream()
        peer.finishWriting()
        closeWhenDrained()
    }

    func peer(_ peer: Peer, failed error: SocketError) {
        close(reason: .failed(side: .client, error))
    }

    func peerWroteOutgoing(_ peer: Peer) {
        if peer.outgoing.count < bufferLimit { peer.readPaused = false }
        closeWhenDrained()
    }

    private func closeWhenDrained() {
        if !peer.isReadOpen, peer.outgoing.isEmpty { close(reason: nil) }
    }

    private func endStream() {
        guard isStreamOpen else { return }
        isStreamOpen = false
        report(.streamEnded(connection: number, direction: .clientToServer, time: WallClock.now()))
    }

    /// Ends the stream and closes the socket; `reason` says why when it was not a clean close.
    func close(reason: CloseReason?) {
        guard !peer.isClosed else { return }
        peer.close()
        endStream()
        report(.closed(connection: number, clientToServer: peer.bytesRead, serverToClient: peer.bytesWritten, reason: reason))
        onClose(self)
    }
}
