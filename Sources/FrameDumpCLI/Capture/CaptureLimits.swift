import FrameCodec
import PacketDecoding
import StreamFraming

/// The memory bounds a capture is decoded under: the reassembler's (``ReassemblyLimits``:
/// out-of-order bytes, connections, idle time) and, for the commands that frame (`decode`,
/// `capture`), the frame decoders' (the longest frame, the bytes of partial frames all streams
/// together may hold). Every one has a finite default, and reaching one is a `limit` event
/// (docs/reassembly.md, "Limits"). With them, the reassembler's overlap policy.
///
/// Built by the commands from their parsed option groups (``ReassemblyOptions``,
/// ``FramingOptions``); capture code never sees the command line.
struct CaptureLimits {
    /// Out-of-order bytes, connections and idle time for the reassembler.
    var reassembly = ReassemblyLimits.default
    /// `--overlap-policy`: which copy of overlapping segment bytes the reassembler keeps.
    var overlapPolicy = OverlapPolicy.linux
    /// The frame decoders' bounds: the longest frame, the partial-frame budget.
    var frameBounds = FramingOptions()

    /// The defaults.
    init() {}

    /// The bounds `reassembly` and `framing` (the defaults when left out) set.
    init(reassembly: ReassemblyOptions, framing: FramingOptions = FramingOptions()) {
        self.reassembly = reassembly.limits
        overlapPolicy = reassembly.overlapPolicy
        frameBounds = framing
    }

    /// The framing engine's configuration: `format` (or detection, when `nil`) under these bounds.
    func framing(format: FrameFormat?) -> FramingConfiguration {
        frameBounds.configuration(format: format)
    }

    /// `settings` with its frame and message limits set to `--max-frame-length`, and its head
    /// limit to `--max-upgrade-head`, when given.
    func webSocket(_ settings: WebSocketSettings) -> WebSocketSettings {
        var settings = settings
        if let length = frameBounds.maxFrameLength {
            settings.limits.maxFramePayload = length
            settings.limits.maxMessageLength = length
        }
        if let head = frameBounds.webSocketMaxHead { settings.limits.maxHandshakeBytes = head }
        return settings
    }
}
