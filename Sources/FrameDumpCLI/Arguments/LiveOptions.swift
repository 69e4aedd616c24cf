import FrameCodec
import FrameDumpLive

/// The options `listen`, `connect` and `proxy` share, parsed once by the command: `decode`'s
/// output options (with `--format` required), the framing bounds, and the event-loop backend
/// the environment asks for.
struct LiveOptions {
    /// `--json`, `--payload`, `--body`, `--proto-descriptors`, `--color` (and `--format`, also in ``format``).
    var output: FrameOutputOptions
    /// `--format`: required, live streams are not guessed at.
    var format: FrameFormat
    /// `--max-frame-length`, `--max-buffered`.
    var framing: FramingOptions
    /// `FRAMEDUMP_EVENT_LOOP` (`epoll` or `poll`), or the platform's default.
    var backend: EventLoopBackend
    /// Whether `FRAMEDUMP_EVENT_LOOP` chose ``backend`` (the commands then say which one runs).
    var backendIsChosen: Bool

    /// The environment variable that chooses the event loop's backend.
    static let backendVariable = "FRAMEDUMP_EVENT_LOOP"

    /// The options every live command takes, in the order help lists them.
    static let specs: [OptionSpec] = DecodeCommand.spec.options.filter { ["format", "json", "payload", "body", "proto-descriptors", "color"].contains($0.long) }
        + FramingOptions.liveSpecs

    /// `--max-buffer`: `listen`'s and `proxy`'s bound on bytes queued toward one socket.
    static let maxBufferSpec = OptionSpec.value(
        "max-buffer", valueName: "BYTES", defaultValue: "1M",
        help: "Bytes buffered toward one side before the other side is no longer read\n(K and M suffixes: 1024 and 1048576)."
    )

    /// The values `arguments` and `environment` give.
    ///
    /// - Throws: ``UsageError`` when `--format` is missing or invalid, a bound is not a positive
    ///   byte count, or `FRAMEDUMP_EVENT_LOOP` names no backend this system has.
    init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        output = try FrameOutputOptions(arguments)
        try output.refuseWebSocket(in: "a live command")
        guard let format = output.format else {
            throw UsageError("missing --format NAME|SPEC (live streams are not guessed at; see 'framedump formats')")
        }
        self.format = format
        framing = try FramingOptions(arguments)
        if let name = environment[Self.backendVariable] {
            guard let backend = EventLoopBackend(rawValue: name), backend.isAvailable else {
                let names = EventLoopBackend.allCases.filter(\.isAvailable).map(\.rawValue).joined(separator: " or ")
                throw UsageError("invalid \(Self.backendVariable) '\(name)': expected \(names)")
            }
            self.backend = backend
            backendIsChosen = true
        } else {
            backend = .platformDefault
            backendIsChosen = false
        }
    }
}
