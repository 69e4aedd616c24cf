import FrameDumpLive
import PacketDecoding

/// `framedump listen [OPTIONS] [HOST:]PORT`: a TCP server that decodes what every client sends,
/// and with `--respond` answers h12 pings and msgs so a client under development has someone
/// to talk to.
///
/// One thread: the listening socket and every connection are served by one event loop
/// (``ListenServer``); this command prints its events and decodes their bytes.
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
        A client is not read while more than --max-buffer bytes of replies wait for it.
        """,
        options: LiveOptions.specs + [
            .flag("respond", help: "Answer pings with pongs and msgs with acks (a format with a 'cmd' field, e.g. h12)."),
            .value(
                "respond-map", valueName: "PING:PONG,MSG:ACK", defaultValue: "1:2,3:4",
                help: "The command numbers --respond answers and answers with."
            ),
            LiveOptions.maxBufferSpec,
        ],
        positionals: [
            PositionalSpec(name: "[HOST:]PORT", isOptional: false, help: "Where to listen, e.g. 9000, [::1]:9000, 0.0.0.0:9000."),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let hostPort = try HostPort.parse(arguments.positionals[0], what: "[HOST:]PORT", requiresHost: false)
        let options = try LiveOptions(arguments, environment: context.environment)
        let bufferLimit = try ByteCountOption.parse(arguments.value("max-buffer") ?? "1M", option: "max-buffer")
        var responder: H12Responder?
        if arguments.flag("respond") {
            let map = try H12Responder.CommandMap.parse(arguments.value("respond-map") ?? "1:2,3:4")
            responder = try H12Responder(format: options.format, map: map)
        } else if arguments.value("respond-map") != nil {
            throw UsageError("--respond-map needs --respond")
        }
        let decoding = LiveDecoding(options, directions: [.clientToServer], context: context)
        let server: ListenServer
        do {
            server = try ListenServer(hostPort, backend: options.backend, bufferLimit: bufferLimit) { event in
                if let line = message(event) { StandardError.writeLine(line) }
                decoding.consume(event)
            }
        } catch {
            throw LiveMessages.cannotListen(hostPort, command: "listen", error)
        }
        if let responder {
            decoding.observe { [unowned server] key, output in
                guard case .frame(let frame) = output, key.direction == .clientToServer,
                      let reply = responder.response(to: frame) else { return }
                server.send(reply, toConnection: key.connection)
            }
        }
        if let line = LiveMessages.backendLine(options, command: "listen") { StandardError.writeLine(line) }
        try server.run(afterEachRound: decoding.flush)
        try decoding.finish()
        StandardError.writeLine("framedump listen: \(counted(server.connectionCount, "connection")), \(counted(decoding.summary.frames, "frame"))")
        return decoding.summary.exitStatus
    }

    /// The standard-error line for `event`, or `nil` when it gets none.
    private static func message(_ event: LiveEvent) -> String? {
        switch event {
        case .listening(let address):
            return "framedump listen: listening on \(address)"
        case .opened(let connection, let client, _):
            return "framedump listen: conn \(connection) from \(client)"
        case .closed(let connection, let received, let sent, let reason):
            let why: String
            switch reason {
            case nil: why = ""
            case .stopped: why = " (stopped)"
            case .failed(_, let error): why = " (\(error.reason))"
            }
            return "framedump listen: conn \(connection) closed\(why): \(counted(received, "byte")) received, \(sent) sent"
        default:
            return LiveMessages.acceptLine(event, command: "listen")
        }
    }
}
