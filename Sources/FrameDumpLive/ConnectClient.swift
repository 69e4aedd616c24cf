import FrameCodec

/// The connection, the standard input feeding it, and the loop serving both.
final class ConnectClient: PeerDelegate {
    /// Encoded frames buffered toward the server before standard input is no longer read.
    static let bufferLimit = 1 << 20

    private let loop: EventLoop
    private let decoding: LiveDecoding
    private let encoder: FrameEncoder
    private var addresses: ArraySlice<SocketAddress>
    private var peer: Peer?
    private var input: InputReader!
    private var signals: SignalPipe!
    private var lines = LineSplitter()
    private var stream: StreamID?
    /// Why the connection failed, if it did.
    private(set) var failure: SocketError?
    /// Whether an input line was not a frame, or the connection failed after it was made.
    private(set) var hadErrors = false

    init(addresses: [SocketAddress], decoding: LiveDecoding) throws {
        loop = try EventLoop()
        self.decoding = decoding
        self.addresses = addresses[...]
        encoder = FrameEncoder(format: decoding.format)
        signals = try SignalPipe(loop: loop) { [unowned self] in loop.stop() }
        input = InputReader(descriptor: 0, loop: loop, onBytes: { [unowned self] in send($0) }) { [unowned self] error in
            if let error { StandardError.writeLine("framedump connect: standard input: \(error)") }
            lines.finish(sendLine)
            peer?.finishWriting()
        }
    }

    func run() throws {
        connectNext()
        if failure == nil { try loop.run(afterEachRound: decoding.flush) }
        if let stream { decoding.end(stream) }
        try decoding.finish()
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
        let local = peer.socket.localAddress?.endpoint
        let remote = peer.socket.peerAddress?.endpoint
        if let local, let remote {
            let label = StreamLabel(connection: 1, direction: .serverToClient, source: remote, destination: local)
            stream = LiveDecoding.stream(label)
            decoding.open(label)
            StandardError.writeLine("framedump connect: connected to \(remote) from \(local)")
        }
        input.start()
    }

    private func send(_ bytes: UnsafeRawBufferPointer) {
        lines.process(bytes, sendLine)
    }

    private func sendLine(_ line: ArraySlice<UInt8>, _ number: Int) {
        guard let peer else { return }
        do {
            let spec = try FrameSpecLine.parse(line)
            peer.send(try encoder.encode(fields: spec.fields, body: spec.body))
            if peer.outgoing.count >= Self.bufferLimit { input.paused = true }
        } catch {
            hadErrors = true
            StandardError.writeLine("<stdin>:\(number): \(error)")
        }
    }

    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer) {
        guard let stream else { return }
        decoding.receive(bytes, on: stream, at: peer.bytesRead - UInt64(bytes.count))
    }

    func peerReachedEnd(_ peer: Peer) {
        // The server is done: what is queued still goes out, then the connection closes.
        input.stop()
        peer.finishWriting()
        closeWhenDrained()
    }

    func peerWroteOutgoing(_ peer: Peer) {
        if peer.outgoing.count < Self.bufferLimit { input.paused = false }
        closeWhenDrained()
    }

    func peer(_ peer: Peer, failed error: SocketError) {
        peer.close()
        input.stop()
        if peer.bytesRead == 0, peer.bytesWritten == 0, stream == nil {
            failure = error
            connectNext()
            return
        }
        StandardError.writeLine("framedump connect: \(error)")
        hadErrors = true
        loop.stop()
    }

    private func closeWhenDrained() {
        guard let peer, !peer.isReadOpen, peer.outgoing.isEmpty else { return }
        peer.close()
        StandardError.writeLine("framedump connect: closed: \(counted(peer.bytesWritten, "byte")) sent, \(peer.bytesRead) received")
        loop.stop()
    }
}
