import FrameCodec
import StreamFraming

/// `--max-frame-length` and `--max-buffered`: the framing engine's bounds (and, for captures,
/// `--max-upgrade-head`, the WebSocket layer's head bound), declared and parsed
/// once for every command that frames (`decode`, `capture`, `listen`, `connect`, `proxy`), with
/// the same events wherever they are reached (docs/reassembly.md, "Limits").
struct FramingOptions {
    /// `--max-frame-length`: replaces the format's ``FrameFormat/maxFrameLength`` (given or
    /// detected), in bytes, header included; `nil` keeps the format's.
    var maxFrameLength: Int?
    /// `--max-buffered`: bytes of unfinished frames all frame decoders together may hold.
    var maxBufferedBytes = FramingConfiguration.defaultMaxBufferedBytes
    /// `--max-upgrade-head` (captures' WebSocket connections, given or detected): the longest Upgrade request
    /// or response head, in bytes; `nil` keeps ``WebSocketLimits/maxHandshakeBytes``' default.
    var webSocketMaxHead: Int?

    private static let maxFrameLengthSpec = OptionSpec.value(
        "max-frame-length", valueName: "BYTES",
        help: "Longest frame accepted, header included (K, M, G suffixes);\nlonger lengths are oversize. Default: the format's (16M)."
    )

    /// The options as capture commands (`decode`, `capture`) list them.
    static let specs: [OptionSpec] = [
        maxFrameLengthSpec,
        .value("max-buffered", valueName: "BYTES", defaultValue: "64M",
               help: "Captures: bytes of unfinished frames all streams may hold;\nbeyond it the oldest partial frame is reported truncated."),
        .value("max-upgrade-head", valueName: "BYTES", defaultValue: "16K",
               help: "WebSocket (given or detected): longest HTTP Upgrade request\nor response head, through its blank line; longer is head_too_long."),
    ]

    /// The options as the live commands list them: the partial-frame budget is over every
    /// connection's streams.
    static let liveSpecs: [OptionSpec] = [
        maxFrameLengthSpec,
        .value("max-buffered", valueName: "BYTES", defaultValue: "64M",
               help: "Bytes of unfinished frames all connections may hold;\nbeyond it the oldest partial frame is reported truncated."),
    ]

    /// The defaults: the format's longest frame, 64 MiB of partial frames.
    init() {}

    /// The values `arguments` gives for ``specs`` (or ``liveSpecs``).
    ///
    /// - Throws: ``UsageError`` for a value that is not a positive byte count.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let text = arguments.value("max-frame-length") {
            maxFrameLength = try ByteCountOption.parse(text, option: "max-frame-length")
        }
        if let text = arguments.value("max-buffered") {
            maxBufferedBytes = try ByteCountOption.parse(text, option: "max-buffered")
        }
        if let text = arguments.value("max-upgrade-head") {
            webSocketMaxHead = try ByteCountOption.parse(text, option: "max-upgrade-head")
        }
    }

    /// The framing engine's configuration: `format` (or detection, when `nil`) under these bounds.
    func configuration(format: FrameFormat?) -> FramingConfiguration {
        FramingConfiguration(format: format, maxFrameLength: maxFrameLength, maxBufferedBytes: maxBufferedBytes)
    }
}
