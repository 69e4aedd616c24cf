import PacketDecoding

/// A TCP relay for `framedump proxy`: accepts clients on one address and relays each to an
/// upstream server, reporting both directions' bytes as ``LiveEvent``s.
///
/// One thread and one event loop serve every connection; see ``RelayConnection`` for
/// backpressure, half-close and failure handling.
public final class ProxyServer {
    private var core: AcceptLoop!
    private let report: (LiveEvent) -> Void
    private let upstream: [SocketAddress]
    private let bufferLimit: Int
    private var relays: [Int: RelayConnection] = [:]
    /// Connections accepted so far.
    public var connectionCount: Int { core.connectionCount }

    /// Listens on `hostPort`.
    ///
    /// - Parameters:
    ///   - hostPort: where clients connect; a missing host is 127.0.0.1.
    ///   - upstream: the server's addresses, tried in order for each client.
    ///   - backend: the event loop's system call.
    ///   - bufferLimit: bytes buffered toward one side before the other side is no longer read.
    ///   - report: called on the loop's thread with every event, in order.
    /// - Throws: ``SocketError`` when the address does not resolve or cannot be listened on, or
    ///   the loop cannot be set up.
    public init(
        _ hostPort: HostPort,
        upstream: [SocketAddress],
        backend: EventLoopBackend,
        bufferLimit: Int,
        report: @escaping (LiveEvent) -> Void
    ) throws(SocketError) {
        self.report = report
        self.upstream = upstream
        self.bufferLimit = bufferLimit
        core = try AcceptLoop(hostPort, backend: backend, report: report) { [unowned self] in accept($0, $1, from: $2) }
    }

    /// Makes ``run(afterEachRound:)`` return after the current round of events, as SIGINT does;
    /// call it on the loop's thread (from `report` or `afterEachRound`).
    public func stop() { core.stop() }

    /// Relays until SIGINT, SIGTERM or ``stop()``, then ends every stream and closes every connection
    /// (reported closed with reason ``CloseReason/stopped``).
    ///
    /// - Parameter afterEachRound: called after every round of socket events (flush output here).
    /// - Throws: ``SocketError`` when waiting fails, or what `afterEachRound` throws.
    public func run(afterEachRound: () throws -> Void) throws {
        try core.run(afterEachRound: afterEachRound) {
            for relay in relays.values.sorted(by: { $0.number < $1.number }) { relay.stop() }
            relays = [:]
        }
    }

    /// Passes a relay's event on; an upstream socket refused for want of descriptors is part
    /// of an out-of-descriptors episode rather than an event per client.
    private func relayEvent(_ event: LiveEvent) {
        switch event {
        case .upstreamUnreachable(_, _, let error?) where error.isOutOfDescriptors:
            core.refused(1, outOfDescriptors: error)
        case .opened(let connection, _, _):
            core.connectionKept(connection)
            report(event)
        default:
            report(event)
        }
    }

    private func accept(_ number: Int, _ socket: Socket, from address: SocketAddress) {
        do {
            let relay = try RelayConnection(
                number: number, client: socket, clientAddress: address, upstreamAddresses: upstream,
                loop: core.loop, bufferLimit: bufferLimit, report: { [unowned self] in relayEvent($0) },
                onClose: { [unowned self] in relays[$0.number] = nil }
            )
            if !relay.isClosed { relays[number] = relay }
        } catch {
            socket.close()
            report(.connectionFailed(connection: number, error))
        }
    }
}
