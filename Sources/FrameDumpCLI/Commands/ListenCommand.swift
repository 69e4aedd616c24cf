/// `framedump listen [OPTIONS] [HOST:]PORT`: a TCP server that decodes what every client sends,
/// and with `--respond` answers h12 pings and msgs so a client under development has someone
/// to talk to.
///
/// One thread: the listening socket and every connection are served by one ``EventLoop``.
enum ListenCommand: Command {
    static let spec = CommandSpec(
        name: "listen",
        summary: "Accept TCP connections and decode what each client sends.",
        discussion: """
        Listens on [HOST:]PORT (host 127.0.0.1 when left out; port 0 picks a free port) and
        prints 'listening on HOST:PORT' on standard error. Each connection gets its own decoder
        and a number (conn, from 1); frames print as they complete, labelled with the connection
        and its endpoints. Runs until SIGINT or SIGTERM, then ends every stream (unfinished
        frames are reported truncated) and prints the summary.

        --respond answers ping with pong (same body) and msg with ack (body: the msg's JSON
        "id", or its body length when it has none, as a big-endian u32). The command numbers
        are PING:PONG,MSG:ACK, 1:2,3:4 unless --respond-map says otherwise (docs/cli.md).
        """,
        options: LiveDecoding.outputOptions + [
            .flag("respond", help: "Answer pings with pongs and msgs with acks (a format with a 'cmd' field, e.g. h12)."),
            .value(
                "respond-map", valueName: "PING:PONG,MSG:ACK", defaultValue: "1:2,3:4",
                help: "The command numbers --respond answers and answers with."
            ),
        ],
        positionals: [
            PositionalSpec(name: "[HOST:]PORT", isOptional: false, help: "Where to listen, e.g. 9000, [::1]:9000, 0.0.0.0:9000."),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let hostPort = try HostPort.parse(arguments.positionals[0], what: "[HOST:]PORT", requiresHost: false)
        let decoding = try LiveDecoding(arguments, context: context)
        var responder: H12Responder?
        if arguments.flag("respond") {
            let map = try H12Responder.CommandMap.parse(arguments.value("respond-map") ?? "1:2,3:4")
            responder = try H12Responder(format: decoding.format, map: map)
        } else if arguments.value("respond-map") != nil {
            throw UsageError("--respond-map needs --respond")
        }
        let server = try ListenServer(hostPort, decoding: decoding, responder: responder)
        try server.run()
        return decoding.summary.exitStatus
    }
}
