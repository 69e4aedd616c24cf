/// The listening socket and every relayed connection.
final class ProxyServer {
    private let loop: EventLoop
    private let decoding: LiveDecoding
    private let upstream: [SocketAddress]
    private let bufferLimit: Int
    private var listener: Listener!
    private var signals: SignalPipe!
    private var relays: [Int: RelayConnection] = [:]
    private var connectionCount = 0
    private var relayedBytes: (clientToServer: UInt64, serverToClient: UInt64) = (0, 0)

    init(_ hostPort: HostPort, upstream: [SocketAddress], decoding: LiveDecoding, bufferLimit: Int) throws {
        loop = try EventLoop()
        self.decoding = decoding
        self.upstream = upstream
        self.bufferLimit = bufferLimit
        listener = try Listener(hostPort, for: "proxy", loop: loop) { [unowned self] in accept($0, from: $1) }
        signals = try SignalPipe(loop: loop) { [unowned self] in loop.stop() }
    }

    func run() throws {
        StandardError.writeLine("framedump proxy: listening on \(listener.address.endpoint), upstream \(upstream[0].endpoint)")
        try loop.run(afterEachRound: decoding.flush)
        for relay in relays.values.sorted(by: { $0.number < $1.number }) {
            relay.stop()
            count(relay)
        }
        try decoding.finish()
        let summary = decoding.summary
        StandardError.writeLine(
            "framedump proxy: \(counted(connectionCount, "connection")), \(counted(summary.frames, "frame")); "
                + "c2s \(counted(relayedBytes.clientToServer, "byte")), s2c \(counted(relayedBytes.serverToClient, "byte"))"
        )
    }

    private func accept(_ socket: Socket, from address: SocketAddress) {
        connectionCount += 1
        let number = connectionCount
        do {
            let relay = try RelayConnection(
                number: number, client: socket, clientAddress: address, upstreamAddresses: upstream,
                loop: loop, decoding: decoding, bufferLimit: bufferLimit,
                report: { StandardError.writeLine("framedump proxy: \($0)") },
                onClose: { [unowned self] in
                    relays[$0.number] = nil
                    count($0)
                }
            )
            if !relay.isClosed { relays[number] = relay }
        } catch {
            socket.close()
            StandardError.writeLine("framedump proxy: conn \(number): \(error)")
        }
    }

    private func count(_ relay: RelayConnection) {
        let bytes = relay.byteCounts
        relayedBytes.clientToServer += bytes.clientToServer
        relayedBytes.serverToClient += bytes.serverToClient
    }
}
