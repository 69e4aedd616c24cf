/// What ``ListenServer`` and ``ProxyServer`` share: one event loop, the listening socket in it,
/// the signal pipe that stops it, the numbering of accepted connections, and the episodes of
/// running out of descriptors.
///
/// An episode starts at the first connection refused for want of a descriptor (by `accept`, or
/// by the proxy's upstream `socket`) and is reported once (``LiveEvent/acceptStalled(_:)``); it
/// ends when the owner keeps a connection again (``connectionKept()``:
/// ``LiveEvent/acceptResumed(refused:)``).
final class AcceptLoop {
    let loop: EventLoop
    private var listener: Listener!
    private var signals: SignalPipe!
    private let report: (LiveEvent) -> Void
    /// Connections accepted so far; the last one's number.
    private(set) var connectionCount = 0
    /// Connections refused since descriptors ran out, or `nil` when none are out.
    private var refusedInEpisode: Int?

    /// Listens on `hostPort`; `onAccept` gets each accepted connection with its number (from 1).
    ///
    /// - Throws: ``SocketError`` when the address does not resolve or cannot be listened on, or
    ///   the loop cannot be set up.
    init(
        _ hostPort: HostPort,
        backend: EventLoopBackend,
        report: @escaping (LiveEvent) -> Void,
        onAccept: @escaping (Int, Socket, SocketAddress) -> Void
    ) throws(SocketError) {
        loop = try EventLoop(backend: backend)
        self.report = report
        listener = try Listener(hostPort, loop: loop, onAccept: { [unowned self] socket, address in
            connectionCount += 1
            onAccept(connectionCount, socket, address)
        }, onOutOfDescriptors: { [unowned self] in refused($1, outOfDescriptors: $0) }, report: report)
        signals = try SignalPipe(loop: loop) { [unowned self] in loop.stop() }
    }

    /// The address actually listened on.
    var address: SocketAddress { listener.address }

    /// Counts `count` connections refused because descriptors ran out (`error`); the first of an
    /// episode is reported.
    func refused(_ count: Int, outOfDescriptors error: SocketError) {
        if refusedInEpisode == nil { report(.acceptStalled(error)) }
        refusedInEpisode = (refusedInEpisode ?? 0) + count
    }

    /// Ends an episode of ``refused(_:outOfDescriptors:)``: a connection could be kept.
    func connectionKept() {
        guard let refused = refusedInEpisode else { return }
        refusedInEpisode = nil
        report(.acceptResumed(refused: refused))
    }

    /// Makes ``run(afterEachRound:stopping:)`` return after the current round of events.
    func stop() { loop.stop() }

    /// Reports ``LiveEvent/listening(_:)``, serves until SIGINT or SIGTERM, then calls `stopping`
    /// (also when the loop throws).
    ///
    /// - Throws: what waiting or `afterEachRound` throws.
    func run(afterEachRound: () throws -> Void, stopping: () -> Void) throws {
        report(.listening(listener.address.endpoint))
        defer { stopping() }
        try loop.run(afterEachRound: afterEachRound)
    }
}
