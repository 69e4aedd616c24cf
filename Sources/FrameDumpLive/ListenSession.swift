/// One accepted client: its bytes are decoded as the c2s stream; replies go back on the socket.
final class ListenSession: PeerDelegate {
    let number: Int
    let peer: Peer
    private let stream: StreamID
    private let decoding: LiveDecoding
    private let onClose: (ListenSession) -> Void

    init(
        number: Int,
        socket: Socket,
        label: StreamLabel,
        loop: EventLoop,
        decoding: LiveDecoding,
        onClose: @escaping (ListenSession) -> Void
    ) throws(SocketError) {
        self.number = number
        self.decoding = decoding
        self.onClose = onClose
        stream = LiveDecoding.stream(label)
        peer = try Peer(socket: socket, loop: loop)
        decoding.open(label)
        peer.delegate = self
    }

    func peerDidConnect(_ peer: Peer) {}

    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer) {
        decoding.receive(bytes, on: stream, at: peer.bytesRead - UInt64(bytes.count))
    }

    func peerReachedEnd(_ peer: Peer) {
        // The client is done sending; replies already queued still go out before FIN.
        peer.finishWriting()
        closeWhenDrained()
    }

    func peer(_ peer: Peer, failed error: SocketError) {
        close(reason: error.reason)
    }

    func peerWroteOutgoing(_ peer: Peer) {
        closeWhenDrained()
    }

    private func closeWhenDrained() {
        if !peer.isReadOpen, peer.outgoing.isEmpty { close(reason: nil) }
    }

    /// Ends the stream and closes the socket; `reason` says why when it was not a clean close.
    func close(reason: String?) {
        guard !peer.isClosed else { return }
        peer.close()
        decoding.end(stream)
        let detail = "\(counted(peer.bytesRead, "byte")) received, \(peer.bytesWritten) sent"
        StandardError.writeLine("framedump listen: conn \(number) closed\(reason.map { " (\($0))" } ?? ""): \(detail)")
        onClose(self)
    }
}
