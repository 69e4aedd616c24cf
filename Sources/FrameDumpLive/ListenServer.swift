import PacketDecoding

/// A TCP server for `framedump listen`: accepts connections on one address and reports what
/// each client sends as ``LiveEvent``s; the owner may answer (``send(_:toConnection:)``).
///
/// One thread: the listening socket and every connection are served by one event loop, until
/// SIGINT or SIGTERM (see ``run(afterEachRound:)``).
public final class ListenServer {
    private var core: AcceptLoop!
    private let report: (LiveEvent) -> Void
    private let bufferLimit: Int
    private var sessions: [Int: ListenSession] = [:]
    /// Connections accepted so far.
    public var connectionCount: Int { core.connectionCount }

    /// Listens on `hostPort`.
    ///
    /// - Parameters:
    ///   - hostPort: where to listen; a missing host is 127.0.0.1.
    ///   - backend: the event loop's system call.
    ///   - bufferLimit: bytes of replies queued toward one client before that client is no
    ///     longer read (backpressure), in bytes.
    ///   - report: called on the loop's thread with every event, in order.
    /// - Throws: ``SocketError`` when the address does not resolve or cannot be listened on, or
    ///   the loop cannot be set up.
    public init(
        _ hostPort: HostPort,
        backend: EventLoopBackend,
        bufferLimit: Int,
        report: @escaping (LiveEvent) -> Void
    ) throws(SocketError) {
        self.report = report
        self.bufferLimit = bufferLimit
        core = try AcceptLoop(hostPort, backend: backend, report: report) { [unowned self] in accept($0, $1, from: $2) }
    }

    /// Makes ``run(afterEachRound:)`` return after the current round of events, as SIGINT does;
    /// call it on the loop's thread (from `report` or `afterEachRound`).
    public func stop() { core.stop() }

    /// Serves connections until SIGINT, SIGTERM or ``stop()``, then closes every open connection (reported
    /// closed with reason ``CloseReason/stopped``).
    ///
    /// - Parameter afterEachRound: called after every round of socket events (flush output here).
    /// - Throws: ``SocketError`` when waiting fails, or what `afterEachRound` throws (the loop
    ///   stops at once, connections are closed).
    public func run(afterEachRound: () throws -> Void) throws {
        try core.run(afterEachRound: afterEachRound) {
            for session in sessions.values.sorted(by: { $0.number < $1.number }) { session.close(reason: .stopped) }
        }
    }

    /// Queues `bytes` to connection `connection`'s client; nothing when it is closed.
    public func send(_ bytes: [UInt8], toConnection connection: Int) {
        sessions[connection]?.send(bytes)
    }

    private func accept(_ number: Int, _ socket: Socket, from address: SocketAddress) {
        let local = socket.localAddress?.endpoint ?? core.address.endpoint
        do {
            let session = try ListenSession(number: number, socket: socket, loop: core.loop, bufferLimit: bufferLimit, report: report) { [unowned self] in
                sessions[$0.number] = nil
            }
            sessions[number] = session
            core.connectionKept(number)
            report(.opened(connection: number, client: address.endpoint, server: local))
        } catch {
            socket.close()
            report(.connectionFailed(connection: number, error))
        }
    }
}
