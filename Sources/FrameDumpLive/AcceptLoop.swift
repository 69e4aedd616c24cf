/// What ``ListenServer`` and ``ProxyServer`` share: one event loop, the listening socket in it,
/// the signal pipe that stops it, the numbering of accepted connections, and the episodes of
/// running out of descriptors.
///
/// An episode starts at the first connection refused for want of a descriptor (by `accept`, or
/// by the proxy's upstream `socket`) and is reported once (``LiveEvent/acceptStalled(_:)``); it
/// ends when the owner keeps a connection accepted after the episode began
/// (``connectionKept(_:)``: ``LiveEvent/acceptResumed(refused:)``). A connection accepted
/// before it (a proxy client whose upstream connect was still in progress) proves nothing
/// about descriptors, so its late `opened` does not end the episode.
final class AcceptLoop {
    let loop: EventLoop
    private var listener: Listener!
    private var signals: SignalPipe!
    private let report: (LiveEvent) -> Void
    /// Connections accepted so far; the last one's number.
    private(set) var connectionCount = 0
    /// The episode under way, or `nil` when descriptors are not out.
    private var episode: (refused: Int, firstNumberAfter: Int)?

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
        if episode == nil {
            report(.acceptStalled(error))
            episode = (refused: 0, firstNumberAfter: connectionCount + 1)
        }
        episode?.refused += count
    }

    /// Ends an episode of ``refused(_:outOfDescriptors:)`` when connection `number` (as
    /// `onAccept` got it) was accepted after the episode began and could be kept.
    func connectionKept(_ number: Int) {
        guard let current = episode, number >= current.firstNumberAfter else { return }
        episode = nil
        report(.acceptResumed(refused: current.refused))
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
