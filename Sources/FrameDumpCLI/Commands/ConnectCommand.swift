/// `framedump connect [OPTIONS] HOST:PORT`: a TCP client that decodes what the server sends and
/// sends frames read from standard input as JSON Lines (the `encode` input schema), so a
/// server can be driven from a shell.
enum ConnectCommand: Command {
    static let spec = CommandSpec(
        name: "connect",
        summary: "Connect to a TCP server, send frames from JSON Lines, decode what it sends.",
        discussion: """
        Connects to HOST:PORT (each address the name resolves to in turn), then sends one frame
        per line of standard input: {"fields":{"cmd":1},"body_hex":"..."}, or "body_text",
        or "body_json" (schema: docs/cli.md, "encode input"); length and checksum fields are
        filled in. At the end of standard input the sending side is shut down (FIN) and the
        server's frames are decoded until it closes the connection. A line that is not a frame
        is reported (<stdin>:LINE: ...) and skipped; the exit status is then 2.
        """,
        options: LiveDecoding.outputOptions,
        positionals: [
            PositionalSpec(name: "HOST:PORT", isOptional: false, help: "The server, e.g. 127.0.0.1:9000 or [::1]:9000."),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let server = try HostPort.parse(arguments.positionals[0], what: "HOST:PORT", requiresHost: true)
        let decoding = try LiveDecoding(arguments, context: context)
        let addresses = try SocketAddress.resolveServer(server, messagePrefix: "framedump connect:")
        let client = try ConnectClient(addresses: addresses, decoding: decoding)
        try client.run()
        if let failure = client.failure {
            throw CommandFailure(message: "framedump connect: \(server): \(failure)", status: .badInput)
        }
        return client.hadErrors ? .badInput : decoding.summary.exitStatus
    }
}
