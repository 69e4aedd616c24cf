import FrameCodec
import PacketDecoding

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

/// The listening socket and its connections.
private final class ListenServer {
    private let loop: EventLoop
    private let decoding: LiveDecoding
    private let responder: H12Responder?
    private var listener: Listener!
    private var signals: SignalPipe!
    private var sessions: [Int: ListenSession] = [:]
    private var connectionCount = 0

    init(_ hostPort: HostPort, decoding: LiveDecoding, responder: H12Responder?) throws {
        loop = try EventLoop()
        self.decoding = decoding
        self.responder = responder
        do {
            listener = try Listener(hostPort, loop: loop, onAccept: { [unowned self] in accept($0, from: $1) }) { error in
                StandardError.writeLine("framedump listen: \(error)")
            }
        } catch {
            throw CommandFailure(message: "framedump listen: cannot listen on \(hostPort): \(error)", status: .usage)
        }
        signals = try SignalPipe(loop: loop) { [unowned self] in loop.stop() }
        if responder != nil {
            decoding.observe { [unowned self] stream, output in
                guard case .frame(let frame) = output, stream.rawValue % 2 == StreamDirection.clientToServer.rawValue,
                      let session = sessions[stream.rawValue / 2], let reply = self.responder?.response(to: frame)
                else { return }
                session.peer.send(reply)
            }
        }
    }

    func run() throws {
        StandardError.writeLine("framedump listen: listening on \(listener.address.endpoint)")
        try loop.run(afterEachRound: decoding.flush)
        for session in sessions.values.sorted(by: { $0.number < $1.number }) { session.close(reason: "stopped") }
        try decoding.finish()
        let summary = decoding.summary
        StandardError.writeLine("framedump listen: \(connectionCount) \(connectionCount == 1 ? "connection" : "connections"), \(summary.frames) frames")
    }

    private func accept(_ socket: Socket, from address: SocketAddress) {
        connectionCount += 1
        let number = connectionCount
        let local = socket.localAddress?.endpoint ?? listener.address.endpoint
        let label = StreamLabel(connection: number, direction: .clientToServer, source: address.endpoint, destination: local)
        do {
            let session = try ListenSession(number: number, socket: socket, label: label, loop: loop, decoding: decoding) { [unowned self] in
                sessions[$0.number] = nil
            }
            sessions[number] = session
            StandardError.writeLine("framedump listen: conn \(number) from \(label.sourceText)")
        } catch {
            socket.close()
            StandardError.writeLine("framedump listen: conn \(number): \(error)")
        }
    }
}

/// One accepted client: its bytes are decoded as the c2s stream; replies go back on the socket.
private final class ListenSession: PeerDelegate {
    let number: Int
    let peer: Peer
    private let stream: StreamID
    private let decoding: LiveDecoding
    private let onClose: (ListenSession) -> Void

    init(
        number: Int,
        socket: Socket,
        label: StreamLabel,
        loop: EventLoop,
        decoding: LiveDecoding,
        onClose: @escaping (ListenSession) -> Void
    ) throws(SocketError) {
        self.number = number
        self.decoding = decoding
        self.onClose = onClose
        stream = LiveDecoding.stream(label)
        peer = try Peer(socket: socket, loop: loop)
        decoding.open(label)
        peer.delegate = self
    }

    func peerDidConnect(_ peer: Peer) {}

    func peer(_ peer: Peer, received bytes: UnsafeRawBufferPointer) {
        decoding.receive(bytes, on: stream, at: peer.bytesRead - UInt64(bytes.count))
    }

    func peerReachedEnd(_ peer: Peer) {
        // The client is done sending; replies already queued still go out before FIN.
        peer.finishWriting()
        closeWhenDrained()
    }

    func peer(_ peer: Peer, failed error: SocketError) {
        close(reason: error.reason)
    }

    func peerWroteOutgoing(_ peer: Peer) {
        closeWhenDrained()
    }

    private func closeWhenDrained() {
        if !peer.isReadOpen, peer.outgoing.isEmpty { close(reason: nil) }
    }

    /// Ends the stream and closes the socket; `reason` says why when it was not a clean close.
    func close(reason: String?) {
        guard !peer.isClosed else { return }
        peer.close()
        decoding.end(stream)
        let detail = "\(peer.bytesRead) bytes received, \(peer.bytesWritten) sent"
        StandardError.writeLine("framedump listen: conn \(number) closed\(reason.map { " (\($0))" } ?? ""): \(detail)")
        onClose(self)
    }
}
