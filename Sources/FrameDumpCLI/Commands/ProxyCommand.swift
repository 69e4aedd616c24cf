import FrameDumpLive
import PacketDecoding

/// `framedump proxy [OPTIONS] [HOST:]LISTEN_PORT UPSTREAM_HOST:PORT`: a relay for debugging a
/// client and server: every byte forwarded unchanged, both directions decoded and printed.
///
/// One thread and one event loop serve every connection (``ProxyServer``; its relay documents
/// backpressure, half-close and failure handling); this command prints its events and decodes
/// their bytes.
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
        If the reader of standard output goes away, relaying goes on without decoding (said
        once on standard error): connections are never cut short because output is.
        """,
        options: LiveOptions.specs + [LiveOptions.maxBufferSpec],
        positionals: [
            PositionalSpec(name: "[HOST:]LISTEN_PORT", isOptional: false, help: "Where clients connect, e.g. 9000 or [::1]:9000."),
            PositionalSpec(name: "UPSTREAM_HOST:PORT", isOptional: false, help: "The server to relay to, e.g. 127.0.0.1:9001."),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let listen = try HostPort.parse(arguments.positionals[0], what: "[HOST:]LISTEN_PORT", requiresHost: false)
        let upstream = try HostPort.parse(arguments.positionals[1], what: "UPSTREAM_HOST:PORT", requiresHost: true)
        let bufferLimit = try ByteCountOption.parse(arguments.value("max-buffer") ?? "1M", option: "max-buffer")
        let options = try LiveOptions(arguments, environment: context.environment)
        let decoding = LiveDecoding(options, directions: [.clientToServer, .serverToClient], outputClosed: .keepGoing {
            StandardError.writeLine("framedump proxy: standard output closed: relaying goes on without decoding or printing")
        }, context: context)
        let upstreamAddresses = try LiveMessages.resolveServer(upstream, messagePrefix: "framedump proxy: upstream")
        var relayed: (clientToServer: UInt64, serverToClient: UInt64) = (0, 0)
        let proxy: ProxyServer
        do {
            proxy = try ProxyServer(listen, upstream: upstreamAddresses, backend: options.backend, bufferLimit: bufferLimit) { event in
                if case .closed(_, let clientToServer, let serverToClient, _) = event {
                    relayed.clientToServer += clientToServer
                    relayed.serverToClient += serverToClient
                }
                if let line = message(event, upstream: upstreamAddresses[0].endpoint) { StandardError.writeLine(line) }
                decoding.consume(event)
            }
        } catch {
            throw LiveMessages.cannotListen(listen, command: "proxy", error)
        }
        if let line = LiveMessages.backendLine(options, command: "proxy") { StandardError.writeLine(line) }
        try proxy.run(afterEachRound: decoding.flush)
        try decoding.finish()
        StandardError.writeLine(
            "framedump proxy: \(counted(proxy.connectionCount, "connection")), \(counted(decoding.summary.frames, "frame")); "
                + "c2s \(counted(relayed.clientToServer, "byte")), s2c \(counted(relayed.serverToClient, "byte"))"
        )
        return decoding.summary.exitStatus
    }

    /// The standard-error line for `event`, or `nil` when it gets none.
    private static func message(_ event: LiveEvent, upstream: Endpoint) -> String? {
        switch event {
        case .listening(let address):
            return "framedump proxy: listening on \(address), upstream \(upstream)"
        case .opened(let connection, let client, let server):
            return "framedump proxy: conn \(connection) \(client) → \(server) open"
        case .upstreamUnreachable(let connection, let client, let error):
            let reason = error?.reason ?? "no address"
            return "framedump proxy: conn \(connection) \(client): cannot connect to upstream: \(reason); client connection closed"
        case .closed(let connection, let clientToServer, let serverToClient, let reason):
            switch reason {
            case nil:
                return "framedump proxy: conn \(connection) closed: c2s \(counted(clientToServer, "byte")), s2c \(counted(serverToClient, "byte"))"
            case .stopped:
                return nil
            case .failed(let side, let error):
                let (failed, reset) = side == .client ? ("client", "upstream") : ("upstream", "client")
                return "framedump proxy: conn \(connection): \(failed) \(error); \(reset) connection reset"
            }
        default:
            return LiveMessages.acceptLine(event, command: "proxy")
        }
    }
}
