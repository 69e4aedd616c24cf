import FrameCodec
import FrameDumpLive
import PacketDecoding
import StreamFraming

/// The decode side of the live commands: the ``LiveEvent``s of a FrameDumpLive server or
/// client go through one ``DecodeSession`` with the renderer `decode` would use, each stream
/// labelled with its connection and endpoints and timed with the wall clock of the read that
/// delivered it.
///
/// Output is flushed after every round of socket events, so a frame prints as soon as the read
/// that completed it returns. Failures to write standard output are kept and rethrown by
/// ``flush()``, which stops the command's loop — unless the command keeps going without output
/// (``OutputClosedPolicy/keepGoing(_:)``: the proxy, whose relaying must not end because
/// nobody reads what it prints).
final class LiveDecoding {
    /// What to do when the reader of standard output goes away (`EPIPE`).
    enum OutputClosedPolicy {
        /// Rethrow from ``flush()``: the command stops.
        case stop
        /// Stop decoding and printing, call the closure once (it says so on standard error), and
        /// let the command go on.
        case keepGoing(() -> Void)
    }

    private let session: any LiveSession
    /// The directions each connection's events carry, in the order their labels are opened.
    private let directions: [StreamDirection]
    private let outputClosedPolicy: OutputClosedPolicy
    /// Directions opened and not yet ended, by connection: the connection is closed in the
    /// session (its streams forgotten) when the last one ends.
    private var openDirections: [Int: Int] = [:]
    private var failure: (any Error)?
    /// Whether standard output's reader went away and decoding stopped (``OutputClosedPolicy/keepGoing(_:)``).
    private(set) var outputClosed = false
    /// The frame layout, from `--format`.
    let format: FrameFormat

    /// Builds the session the output options ask for.
    ///
    /// - Parameters:
    ///   - options: the command's parsed options.
    ///   - directions: which of a connection's directions are decoded (`listen`: c2s,
    ///     `connect`: s2c, `proxy`: both).
    ///   - outputClosed: what an `EPIPE` on standard output does.
    ///   - context: standard output and the terminal.
    init(_ options: LiveOptions, directions: [StreamDirection], outputClosed: OutputClosedPolicy = .stop, context: CommandContext) {
        format = options.format
        self.directions = directions
        outputClosedPolicy = outputClosed
        var configuration = options.framing.configuration(format: options.format)
        // A frame is shown (and answered) when it completes, not held behind another connection's.
        configuration.ordersAcrossStreams = false
        let output = options.output
        if output.json {
            session = Session(DecodeSession(configuration: configuration, renderer: JSONLinesOutputRenderer(includesPayload: output.includesPayload, bodies: output.bodies),
                                            output: context.output))
        } else {
            session = Session(DecodeSession(configuration: configuration,
                                            renderer: TextOutputRenderer(style: output.textStyle(context), showsBody: true, bodies: output.bodies),
                                            output: context.output))
        }
    }

    /// What has been decoded so far.
    var summary: DecodeSummary { session.summary }

    /// Calls `observer` with every frame and event after it is rendered, with its connection
    /// and direction.
    func observe(_ observer: @escaping (StreamKey, FrameDecoderOutput) throws -> Void) {
        session.observer = observer
    }

    /// Decodes what `event` carries: a connection's opening labels its streams, bytes are
    /// decoded, an ended stream reports its unfinished frame `truncated`. Other events carry
    /// nothing to decode.
    func consume(_ event: LiveEvent) {
        switch event {
        case .opened(let connection, let client, let server):
            let label = StreamLabel(connection: connection, direction: .clientToServer, source: client, destination: server)
            session.openConnection(connection, client: label)
            openDirections[connection] = directions.count
        case .received(let connection, let direction, let bytes, _, let time):
            perform { try session.receive(bytes, on: StreamKey(connection: connection, direction: direction), at: time) }
        case .streamEnded(let connection, let direction, let time):
            guard directions.contains(direction), let open = openDirections[connection] else { return }
            perform { try session.end(StreamKey(connection: connection, direction: direction), at: time) }
            if open > 1 {
                openDirections[connection] = open - 1
            } else {
                openDirections[connection] = nil
                perform { try session.closeConnection(connection, at: time) }
            }
        default:
            return
        }
    }

    /// Writes out what was rendered.
    ///
    /// - Throws: the first failure to decode or write since the last call (e.g.
    ///   ``OutputError/closed`` when the reader of standard output went away, unless the policy
    ///   keeps going).
    func flush() throws {
        if failure == nil, !outputClosed {
            perform { try session.flush() }
        }
        guard let failure else { return }
        self.failure = nil
        if case OutputError.closed = failure, case .keepGoing(let announce) = outputClosedPolicy {
            outputClosed = true
            announce()
            return
        }
        throw failure
    }

    /// Ends every open stream, renders the closing text and flushes.
    func finish() throws {
        try flush()
        guard !outputClosed else { return }
        try session.finish()
    }

    private func perform(_ body: () throws -> Void) {
        guard failure == nil, !outputClosed else { return }
        do {
            try body()
        } catch {
            failure = error
        }
    }
}

/// A ``DecodeSession`` of either renderer, behind one interface: the live commands choose the
/// renderer at run time and keep the session for the life of their event loop.
private protocol LiveSession: AnyObject {
    var summary: DecodeSummary { get }
    var observer: ((StreamKey, FrameDecoderOutput) throws -> Void)? { get set }
    func openConnection(_ connection: Int, client: StreamLabel)
    func receive(_ bytes: UnsafeRawBufferPointer, on key: StreamKey, at time: Timestamp) throws
    func end(_ key: StreamKey, at time: Timestamp) throws
    func closeConnection(_ connection: Int, at time: Timestamp) throws
    func flush() throws
    func finish() throws
}

private final class Session<Renderer: OutputRenderer>: LiveSession {
    private var session: DecodeSession<Renderer>
    private let output: OutputStream

    init(_ session: DecodeSession<Renderer>) {
        self.session = session
        output = session.output
    }

    var summary: DecodeSummary { session.summary }
    var observer: ((StreamKey, FrameDecoderOutput) throws -> Void)? {
        get { session.observer }
        set { session.observer = newValue }
    }

    func openConnection(_ connection: Int, client: StreamLabel) { session.openConnection(connection, client: client) }
    func receive(_ bytes: UnsafeRawBufferPointer, on key: StreamKey, at time: Timestamp) throws {
        try session.receive(bytes, on: key, at: time)
    }
    func end(_ key: StreamKey, at time: Timestamp) throws { try session.end(key, at: time) }
    func closeConnection(_ connection: Int, at time: Timestamp) throws { try session.closeConnection(connection, at: time) }
    func flush() throws { try output.flush() }
    func finish() throws { try session.finish() }
}
