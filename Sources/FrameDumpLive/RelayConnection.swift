import PacketDecoding

/// One client connection of `framedump proxy` and its upstream connection: bytes forwarded
/// unchanged both ways, each direction decoded as it passes.
///
/// ```
///  client ──c2s──> [client Peer] ──toward upstream (≤ limit)──> [upstream Peer] ──> server
///  client <──s2c── [client Peer] <──toward client (≤ limit)──── [upstream Peer] <── server
/// ```
///
/// - **Backpressure**: a side is read only while the buffer toward the other side holds less
///   than `bufferLimit` bytes; a slow reader stalls its own connection, never the others.
/// - **Half-close**: a FIN from one side is passed on as `shutdown(SHUT_WR)` toward the other
///   once the bytes before it are written; the other direction keeps flowing.
/// - **Failures**: an upstream that refuses (each resolved address is tried in turn) or drops
///   is reported and the client connection closed; a reset from either side is passed on as a
///   reset (`SO_LINGER` 0), after both streams are reported ended.
final class RelayConnection: PeerDelegate {
    /// The connection's number, from 1.
    let number: Int
    private let client: Peer
    private var upstream: Peer?
    private let clientEndpoint: Endpoint
    private var upstreamAddresses: ArraySlice<SocketAddress>
    private var lastConnectError: SocketError?
    private let loop: EventLoop
    private let bufferLimit: Int
    private let report: (LiveEvent) -> Void
    private let onClose: (RelayConnection) -> Void
    /// Whether the streams were reported opened.
    private var streamsOpen = false
    /// Directions reported opened and not yet ended.
    private var unendedDirections: [StreamDirection] = []

    /// Starts relaying `client` to the first of `upstreamAddresses` that accepts.
    ///
    /// - Parameters:
    ///   - bufferLimit: bytes buffered toward one side before the other is no longer read.
    ///   - report: told about the connection and its bytes.
    ///   - onClose: called once when both sockets are closed.
    init(
        number: Int,
        client: Socket,
        clientAddress: SocketAddress,
        upstreamAddresses: [SocketAddress],
        loop: EventLoop,
        bufferLimit: Int,
        report: @escaping (LiveEvent) -> Void,
        onClose: @escaping (RelayConnection) -> Void
    ) throws(SocketError) {
        self.number = number
        self.loop = loop
        self.bufferLimit = bufferLimit
        self.report = report
        self.onClose = onClose
        self.upstreamAddresses = upstreamAddresses[...]
        clientEndpoint = clientAddress.endpoint
        self.client = try Peer(socket: client, loop: loop)
        // Nothing is read from the client until there is an upstream to forward it to.
        self.client.readPaused = true
        self.client.delegate = self
        connectUpstream()
    }

    /// Bytes relayed client → server and server → client.
    var byteCounts: (clientToServer: UInt64, serverToClient: UInt64) {
        (client.bytesRead, upstream?.bytesRead ?? 0)
    }

    /// Tries the next upstream address; with none left, reports the last error and closes.
    private func connectUpstream() {
        while let address = upstreamAddresses.popFirst() {
            do throws(SocketError) {
                let (socket, inProgress) = try Socket.connecting(to: address)
                do throws(SocketError) {
                    let peer = try Peer(socket: socket, loop: loop, connecting: inProgress)
                    upstream = peer
                    peer.delegate = self
                    if !inProgress { peerDidConnect(peer) }
                    return
                } catch {
                    socket.close()
                    throw error
                }
            } catch {
                lastConnectError = error
            }
        }
        report(.upstreamUnreachable(connection: number, client: clientEndpoint, lastConnectError))
        client.close()
        onClose(self)
    }

    func peerDidConnect(_ peer: Peer) {
        let serverEndpoint = peer.socket.peerAddress?.endpoint ?? clientEndpoint
        streamsOpen = true
        unendedDirections = [.clientToServer, .serverToClient]
        report(.opened(connection: number, client: clientEndpoint, server: serverEndpoint))
        client.readPaused = false
    }

    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer) {
        guard let upstream, streamsOpen else { return }
        let (direction, other) = peer === client ? (StreamDirection.clientToServer, upstream) : (.serverToClient, client)
        report(.received(connection: number, direction: direction, bytes: bytes, offset: peer.bytesRead - UInt64(bytes.count), time: WallClock.now()))
        other.send(bytes)
        if other.outgoing.count >= bufferLimit { peer.readPaused = true }
    }

    func peerWroteOutgoing(_ peer: Peer) {
        guard let upstream else { return }
        let source = peer === client ? upstream : client
        if peer.outgoing.count < bufferLimit { source.readPaused = false }
        closeWhenDone()
    }

    func peerReachedEnd(_ peer: Peer) {
        guard let upstream, streamsOpen else { return }
        let (direction, other) = peer === client ? (StreamDirection.clientToServer, upstream) : (.serverToClient, client)
        endStream(direction, at: WallClock.now())
        other.finishWriting()
        closeWhenDone()
    }

    func peer(_ peer: Peer, failed error: SocketError) {
        if peer !== client, peer.isConnecting {
            lastConnectError = error
            peer.close()
            upstream = nil
            connectUpstream()
            return
        }
        let side: ConnectionSide = peer === client ? .client : .server
        let other = peer === client ? upstream : client
        endStreams()
        // What the failed side sent was forwarded as it arrived; the failure follows it as a reset.
        other?.abort()
        peer.close()
        reportClosed(reason: .failed(side: side, error))
        onClose(self)
    }

    /// Closes both sockets once both directions have ended and everything is written.
    private func closeWhenDone() {
        guard let upstream, !client.isClosed, !client.isReadOpen, !upstream.isReadOpen,
              client.outgoing.isEmpty, upstream.outgoing.isEmpty else { return }
        client.close()
        upstream.close()
        reportClosed(reason: nil)
        onClose(self)
    }

    private func reportClosed(reason: CloseReason?) {
        let bytes = byteCounts
        report(.closed(connection: number, clientToServer: bytes.clientToServer, serverToClient: bytes.serverToClient, reason: reason))
    }

    /// Stops relaying (SIGINT/SIGTERM): ends both streams and closes both sockets.
    func stop() {
        endStreams()
        client.close()
        upstream?.close()
        reportClosed(reason: .stopped)
    }

    /// Whether both sockets are closed (also when the upstream could not be reached at all).
    var isClosed: Bool { client.isClosed && upstream?.isClosed != false }

    /// Reports the directions not yet ended as ended.
    private func endStreams() {
        let time = WallClock.now()
        for direction in unendedDirections { endStream(direction, at: time) }
    }

    /// Reports `direction` ended, once.
    private func endStream(_ direction: StreamDirection, at time: Timestamp) {
        guard let index = unendedDirections.firstIndex(of: direction) else { return }
        unendedDirections.remove(at: index)
        report(.streamEnded(connection: number, direction: direction, time: time))
    }
}
