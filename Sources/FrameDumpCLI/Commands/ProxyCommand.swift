import FrameCodec

/// `framedump proxy [OPTIONS] [HOST:]LISTEN_PORT UPSTREAM_HOST:PORT`: a relay for debugging a
/// client and server: every byte forwarded unchanged, both directions decoded and printed.
///
/// One thread and one ``EventLoop`` serve every connection; see ``RelayConnection`` for
/// backpressure, half-close and failure handling.
enum ProxyCommand: Command {
    static let spec = CommandSpec(
        name: "proxy",
        summary: "Relay TCP connections to an upstream server, decoding both directions.",
        discussion: """
        Listens on [HOST:]LISTEN_PORT (host 127.0.0.1 when left out; port 0 picks a free port;
        'listening on HOST:PORT' is printed on standard error) and relays every connection to
        UPSTREAM_HOST:PORT. Every byte is forwarded unchanged both ways, also bytes that do not
        decode; both directions are decoded, each frame labelled with the connection number,
        c2s or s2c, and its endpoints (client → upstream for c2s).

        A FIN from one side is passed on to the other (half-close); a reset is passed on as a
        reset; an upstream that refuses or drops the connection is reported on standard error
        and the client connection closed. A side is not read while more than --max-buffer bytes
        wait to be written to the other (backpressure), so a slow reader stalls only its own
        connection. Runs until SIGINT or SIGTERM, then ends every stream and prints the summary.
        """,
        options: LiveDecoding.outputOptions + [
            .value(
                "max-buffer", valueName: "BYTES", defaultValue: "1M",
                help: "Bytes buffered toward one side before the other side is no longer read\n(K and M suffixes: 1024 and 1048576)."
            ),
        ],
        positionals: [
            PositionalSpec(name: "[HOST:]LISTEN_PORT", isOptional: false, help: "Where clients connect, e.g. 9000 or [::1]:9000."),
            PositionalSpec(name: "UPSTREAM_HOST:PORT", isOptional: false, help: "The server to relay to, e.g. 127.0.0.1:9001."),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let listen = try HostPort.parse(arguments.positionals[0], what: "[HOST:]LISTEN_PORT", requiresHost: false)
        let upstream = try HostPort.parse(arguments.positionals[1], what: "UPSTREAM_HOST:PORT", requiresHost: true)
        let bufferLimit = try ByteCountOption.parse(arguments.value("max-buffer") ?? "1M", option: "max-buffer")
        let decoding = try LiveDecoding(arguments, context: context)
        let upstreamAddresses: [SocketAddress]
        do {
            upstreamAddresses = try SocketAddress.resolve(upstream, defaultHost: "127.0.0.1")
        } catch {
            throw CommandFailure(message: "framedump proxy: upstream \(upstream): \(error)", status: .usage)
        }
        let proxy = try ProxyServer(listen, upstream: upstreamAddresses, decoding: decoding, bufferLimit: bufferLimit)
        try proxy.run()
        return decoding.summary.exitStatus
    }
}

/// The listening socket and every relayed connection.
private final class ProxyServer {
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
        do {
            listener = try Listener(hostPort, loop: loop, onAccept: { [unowned self] in accept($0, from: $1) }) { error in
                StandardError.writeLine("framedump proxy: \(error)")
            }
        } catch {
            throw CommandFailure(message: "framedump proxy: cannot listen on \(hostPort): \(error)", status: .usage)
        }
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
            "framedump proxy: \(connectionCount) \(connectionCount == 1 ? "connection" : "connections"), \(summary.frames) frames; "
                + "c2s \(relayedBytes.clientToServer) bytes, s2c \(relayedBytes.serverToClient) bytes"
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
