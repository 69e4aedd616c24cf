import FrameCodec
import PacketDecoding

/// The listening socket and its connections.
final class ListenServer {
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
        listener = try Listener(hostPort, for: "listen", loop: loop) { [unowned self] in accept($0, from: $1) }
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
        StandardError.writeLine("framedump listen: \(counted(connectionCount, "connection")), \(counted(summary.frames, "frame"))")
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
