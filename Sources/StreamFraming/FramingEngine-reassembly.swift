import PacketDecoding

extension FramingEngine {
    /// Takes one event of a `TCPReassembler`, its outputs to a closure (see
    /// ``consume(_:at:contexts:into:)``).
    @inlinable
    public mutating func consume(
        _ event: ReassemblyEvent,
        at time: Timestamp,
        contexts: (_ connection: Int, _ client: Endpoint, _ server: Endpoint) -> (Context, Context),
        _ emit: Emit
    ) throws {
        try with(emit) { engine, receiver in try engine.consume(event, at: time, contexts: contexts, into: &receiver) }
    }

    /// Takes one event of a `TCPReassembler`: the adapter that frames a capture.
    ///
    /// `connectionOpened` opens the connection (asking `contexts` for its streams' contexts),
    /// `data` and `gap` feed the direction, `directionClosed` ends it, `connectionClosed` closes
    /// the connection, `limitHit` becomes a ``FramingEvent/limit(_:stream:)`` event and
    /// `notice` a ``FramingEvent/notice(_:stream:)`` (``noteNotice(_:on:at:into:)``);
    /// `connectionForgotten` (counters only) is passed over.
    ///
    /// - Parameters:
    ///   - event: The reassembler's event; a `data` event's bytes are read during the call only.
    ///   - time: The capture time of the packet it came from (for what the end of the capture
    ///     flushes, the last packet's).
    ///   - contexts: Makes the contexts of a new connection's client-to-server and
    ///     server-to-client streams, from its number, client and server.
    ///   - receiver: Receives the outputs.
    /// - Throws: What `receiver` throws; ``FormatDetectionError``.
    @inlinable
    public mutating func consume<R: FramingReceiver>(
        _ event: ReassemblyEvent,
        at time: Timestamp,
        contexts: (_ connection: Int, _ client: Endpoint, _ server: Endpoint) -> (Context, Context),
        into receiver: inout R
    ) throws where R.Context == Context {
        switch event {
        case .connectionOpened(let number, let client, let server, _):
            let (clientContext, serverContext) = contexts(number, client, server)
            openConnection(number, client: clientContext, server: serverContext)
        case .data(let number, let direction, _, let bytes):
            try receive(bytes, on: StreamKey(connection: number, direction: direction), at: time, into: &receiver)
        case .gap(let number, let direction, _, let length, _):
            try noteGap(byteCount: length, on: StreamKey(connection: number, direction: direction), at: time, into: &receiver)
        case .directionClosed(let number, let direction, _, _):
            try endStream(StreamKey(connection: number, direction: direction), at: time, into: &receiver)
        case .connectionClosed(let summary, _):
            try closeConnection(summary.connection, at: time, into: &receiver)
        case .limitHit(let limit, let number, let direction):
            try noteLimit(limit, connection: number, direction: direction, at: time, into: &receiver)
        case .notice(let notice, let number, let direction):
            try noteNotice(notice, on: StreamKey(connection: number, direction: direction), at: time, into: &receiver)
        case .connectionForgotten:
            break
        }
    }
}
