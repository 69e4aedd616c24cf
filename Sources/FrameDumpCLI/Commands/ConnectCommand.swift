import FrameCodec
import FrameDumpLive

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
        options: LiveOptions.specs,
        positionals: [
            PositionalSpec(name: "HOST:PORT", isOptional: false, help: "The server, e.g. 127.0.0.1:9000 or [::1]:9000."),
        ]
    )

    /// Encoded frames buffered toward the server before standard input is no longer read.
    static let bufferLimit = 1 << 20

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let server = try HostPort.parse(arguments.positionals[0], what: "HOST:PORT", requiresHost: true)
        let options = try LiveOptions(arguments, environment: context.environment)
        let decoding = LiveDecoding(options, directions: [.serverToClient], context: context)
        let addresses = try LiveMessages.resolveServer(server, messagePrefix: "framedump connect:")
        let encoder = FrameEncoder(format: options.format)
        var lines = LineSplitter()
        var badLines = false
        let client = try ConnectClient(addresses: addresses, backend: options.backend, bufferLimit: bufferLimit) { client, event in
            func sendLine(_ line: ArraySlice<UInt8>, _ number: Int) {
                do {
                    let spec = try FrameSpecLine.parse(line, format: encoder.format)
                    client.send(try encoder.encode(fields: spec.fields, body: spec.body))
                } catch {
                    badLines = true
                    StandardError.writeLine("<stdin>:\(number): \(error)")
                }
            }
            switch event {
            case .input(let bytes):
                lines.process(bytes, sendLine)
            case .inputEnded(let error):
                if let error { StandardError.writeLine("framedump connect: standard input: \(error)") }
                lines.finish(sendLine)
                client.finishSending()
            case .opened(_, let local, let remote):
                StandardError.writeLine("framedump connect: connected to \(remote) from \(local)")
            case .closed(_, let sent, let received, let reason):
                if case .failed(_, let error) = reason {
                    StandardError.writeLine("framedump connect: \(error)")
                } else {
                    StandardError.writeLine("framedump connect: closed: \(counted(sent, "byte")) sent, \(received) received")
                }
            default:
                break
            }
            decoding.consume(event)
        }
        if let line = LiveMessages.backendLine(options, command: "connect") { StandardError.writeLine(line) }
        try client.run(afterEachRound: decoding.flush)
        try decoding.finish()
        if let failure = client.failure {
            throw CommandFailure(message: "framedump connect: \(server): \(failure)", status: .badInput)
        }
        return badLines || client.failedAfterConnecting ? .badInput : decoding.summary.exitStatus
    }
}
