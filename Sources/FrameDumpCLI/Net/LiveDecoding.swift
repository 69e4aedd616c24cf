import FrameCodec
import PacketDecoding
#if canImport(Glibc)
import Glibc
#endif

/// The decode side of the live commands: every socket stream goes through one
/// ``DecodePipeline`` with the renderer `decode` would use, labelled with its connection and
/// endpoints and timed with the wall clock of the read that delivered it.
///
/// Output is flushed after every round of socket events, so a frame prints as soon as the read
/// that completed it returns. Failures to write standard output are kept and rethrown by
/// ``flush()``, which stops the command's loop.
final class LiveDecoding {
    /// The options every live command shares with `decode`: `--format`, `--json`, `--payload`, `--color`.
    static let outputOptions = DecodeCommand.spec.options.filter { ["format", "json", "payload", "color"].contains($0.long) }

    private let output: OutputStream
    private let consumeInput: (StreamInput) throws -> Void
    private let finishPipeline: () throws -> Void
    private let currentSummary: () -> DecodeSummary
    private let installObserver: (@escaping (StreamID, FrameDecoderOutput) throws -> Void) -> Void
    private var failure: (any Error)?
    /// The frame layout, from `--format` (required: live streams are not guessed at).
    let format: FrameFormat

    /// Builds the pipeline the output options ask for.
    ///
    /// - Throws: ``UsageError`` when `--format` is missing or invalid.
    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        guard let formatText = arguments.value("format") else {
            throw UsageError("missing --format NAME|SPEC (live streams are not guessed at; see 'framedump formats')")
        }
        format = try DecodeCommand.resolveFormat(formatText)
        output = context.output
        let includesPayload = arguments.value("payload") != "none"
        if arguments.flag("json") {
            let pipeline = DecodePipeline(format: format, output: output, makeRenderer: {
                JSONLinesWriter(format: $0, includesPayload: includesPayload)
            }, detected: { _ in })
            (consumeInput, finishPipeline, currentSummary) = (pipeline.consume, pipeline.finish, { pipeline.summary })
            installObserver = { pipeline.observer = $0 }
        } else {
            let choice = ColorChoice(rawValue: arguments.value("color") ?? "auto") ?? .auto
            let style = TextStyle(
                enabled: Terminal.usesColor(choice, environment: context.environment, outputIsTerminal: context.outputIsTerminal)
            )
            let pipeline = DecodePipeline(format: format, output: output, makeRenderer: {
                TextRenderer(format: $0, style: style, showsBody: includesPayload)
            }, detected: { _ in })
            (consumeInput, finishPipeline, currentSummary) = (pipeline.consume, pipeline.finish, { pipeline.summary })
            installObserver = { pipeline.observer = $0 }
        }
    }

    /// What has been decoded so far.
    var summary: DecodeSummary { currentSummary() }

    /// Calls `observer` with every frame and event after it is rendered.
    func observe(_ observer: @escaping (StreamID, FrameDecoderOutput) throws -> Void) {
        installObserver(observer)
    }

    /// The stream of `label`'s connection and direction: connection × 2, plus 1 for s2c.
    static func stream(_ label: StreamLabel) -> StreamID {
        StreamID(rawValue: label.connection * 2 + label.direction.rawValue)
    }

    /// Announces a stream's label; call before its first bytes.
    func open(_ label: StreamLabel) {
        consume(.label(Self.stream(label), label))
    }

    /// Decodes `bytes` of `stream`, the first at `offset`, timed now.
    func receive(_ bytes: UnsafeRawBufferPointer, on stream: StreamID, at offset: UInt64) {
        consume(.clock(Self.now()))
        consume(.data(stream, offset: offset, bytes: bytes))
    }

    /// Ends `stream`: an unfinished frame is reported `truncated`.
    func end(_ stream: StreamID) {
        consume(.clock(Self.now()))
        consume(.end(stream))
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
        try output.flush()
    }

    /// Ends every open stream, renders the closing text and flushes.
    func finish() throws {
        try flush()
        try finishPipeline()
    }

    private func consume(_ input: StreamInput) {
        guard failure == nil else { return }
        do {
            try consumeInput(input)
        } catch {
            failure = error
        }
    }

    /// The wall clock (`CLOCK_REALTIME`), in nanoseconds since the Unix epoch.
    private static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
