import FrameCodec
import PacketDecoding
import StreamFraming
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The decode side of the live commands: every socket stream goes through one
/// ``DecodeSession`` with the renderer `decode` would use, labelled with its connection and
/// endpoints and timed with the wall clock of the read that delivered it.
///
/// Output is flushed after every round of socket events, so a frame prints as soon as the read
/// that completed it returns. Failures to write standard output are kept and rethrown by
/// ``flush()``, which stops the command's loop.
final class LiveDecoding {
    /// The options every live command shares with `decode`: `--format`, `--json`, `--payload`, `--color`.
    static let outputOptions = DecodeCommand.spec.options.filter { ["format", "json", "payload", "color"].contains($0.long) }

    private let session: any LiveSession
    /// Directions opened and not yet ended, by connection: the connection is closed in the
    /// session (its streams forgotten) when the last one ends.
    private var openDirections: [Int: Int] = [:]
    private var failure: (any Error)?
    /// The frame layout, from `--format` (required: live streams are not guessed at).
    let format: FrameFormat

    /// Builds the session the output options ask for.
    ///
    /// - Throws: ``UsageError`` when `--format` is missing or invalid.
    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        let options = try FrameOutputOptions(arguments)
        guard let format = options.format else {
            throw UsageError("missing --format NAME|SPEC (live streams are not guessed at; see 'framedump formats')")
        }
        self.format = format
        let configuration = FramingConfiguration(format: format)
        if options.json {
            session = Session(DecodeSession(configuration: configuration, renderer: JSONLinesOutputRenderer(includesPayload: options.includesPayload),
                                            output: context.output))
        } else {
            session = Session(DecodeSession(configuration: configuration,
                                            renderer: TextOutputRenderer(style: options.textStyle(context), showsBody: options.includesPayload),
                                            output: context.output))
        }
    }

    /// What has been decoded so far.
    var summary: DecodeSummary { session.summary }

    /// Calls `observer` with every frame and event after it is rendered.
    func observe(_ observer: @escaping (StreamID, FrameDecoderOutput) throws -> Void) {
        session.observer = { key, output in try observer(StreamID(rawValue: key.connection * 2 + key.direction.rawValue), output) }
    }

    /// The stream of `label`'s connection and direction: connection × 2, plus 1 for s2c.
    static func stream(_ label: StreamLabel) -> StreamID {
        StreamID(rawValue: label.connection * 2 + label.direction.rawValue)
    }

    /// Announces a stream's label; call before its first bytes.
    func open(_ label: StreamLabel) {
        if openDirections[label.connection] == nil {
            session.openConnection(label.connection, client: label.direction == .clientToServer ? label : label.reversed)
        }
        openDirections[label.connection, default: 0] += 1
    }

    /// Decodes `bytes` of `stream`, the first at `offset`, timed now.
    func receive(_ bytes: UnsafeRawBufferPointer, on stream: StreamID, at offset: UInt64) {
        perform { try session.receive(bytes, on: Self.key(stream), at: Self.now()) }
    }

    /// Ends `stream`: an unfinished frame is reported `truncated`.
    func end(_ stream: StreamID) {
        let key = Self.key(stream)
        perform { try session.end(key, at: Self.now()) }
        guard let open = openDirections[key.connection] else { return }
        if open > 1 {
            openDirections[key.connection] = open - 1
        } else {
            openDirections[key.connection] = nil
            perform { try session.closeConnection(key.connection, at: Self.now()) }
        }
    }

    /// Writes out what was rendered.
    ///
    /// - Throws: the first failure to decode or write since the last call (e.g.
    ///   ``OutputError/closed`` when the reader of standard output went away).
    func flush() throws {
        if let failure {
            self.failure = nil
            throw failure
        }
        try session.flush()
    }

    /// Ends every open stream, renders the closing text and flushes.
    func finish() throws {
        try flush()
        try session.finish()
    }

    private func perform(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do {
            try body()
        } catch {
            failure = error
        }
    }

    private static func key(_ stream: StreamID) -> StreamKey {
        StreamKey(connection: stream.rawValue / 2, direction: stream.rawValue % 2 == 0 ? .clientToServer : .serverToClient)
    }

    /// The wall clock (`CLOCK_REALTIME`), in nanoseconds since the Unix epoch.
    private static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
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
