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
        let upstreamAddresses = try SocketAddress.resolveServer(upstream, messagePrefix: "framedump proxy: upstream")
        let proxy = try ProxyServer(listen, upstream: upstreamAddresses, decoding: decoding, bufferLimit: bufferLimit)
        try proxy.run()
        return decoding.summary.exitStatus
    }
}
