import FrameCodec

/// How a ``FramingEngine`` frames its streams: the format policy and the memory bounds.
///
/// Every bound is finite by default, and reaching one is an event, never a silent drop.
public struct FramingConfiguration: Sendable {
    /// The default of ``maxBufferedBytes``: 64 MiB.
    public static let defaultMaxBufferedBytes = 64 << 20
    /// The default of ``maxUndecidedBytes``: 1 MiB.
    public static let defaultMaxUndecidedBytes = 1 << 20

    /// The format of every stream, or `nil` to detect each stream's own from its first bytes
    /// (``FrameFormat/detect(_:)``; the policy is in ``FramingEngine``'s documentation).
    public var format: FrameFormat?
    /// Replaces the ``FrameFormat/maxFrameLength`` of the given and of every detected format, in
    /// bytes, header included (`--max-frame-length`); `nil` keeps each format's own.
    public var maxFrameLength: Int?
    /// Bytes of unfinished frames that the decoders of all streams together may hold
    /// (`--max-buffered`). Beyond it, the partial frame that has waited longest is given up: a
    /// ``FramingEvent/limit(_:stream:)`` event, then its `truncated` output.
    public var maxBufferedBytes: Int
    /// Bytes that streams whose first bytes fit no preset may hold, over all of them, while no
    /// stream has given a format to fall back on. Beyond it, the streams that have waited longest
    /// are given up — their bytes become `skip` outputs — and detection goes on with the others.
    /// It also bounds the outputs held back behind undecided streams for input order
    /// (``FramingLimit/heldOutputsTotal``).
    public var maxUndecidedBytes: Int
    /// Whether outputs come in the order of the inputs that completed them across streams,
    /// held back behind streams whose format is undecided (the default, for a capture read
    /// whole). `false` emits each output as soon as it is known: a live input shows a frame the
    /// moment it completes, even before an earlier one of a stream still undecided.
    public var ordersAcrossStreams = true
    /// Whether frames are handed out whole (``FrameDecoder/BodyRetention/always``, the default)
    /// or, for a length-field format, with their headers only, their bodies checksummed in place
    /// and never copied (``FrameDecoder/BodyRetention/headersOnly``): for a receiver that reads no body bytes
    /// (`framedump decode --json --payload none` with no body view). Outputs are the same either
    /// way: ``maxBufferedBytes`` counts a partial frame's dropped bytes as if they were held, so
    /// its limit is reached where it would be.
    public var bodyRetention = FrameDecoder.BodyRetention.always

    /// - Parameters:
    ///   - format: The format of every stream; `nil` (the default) detects each stream's.
    ///   - maxFrameLength: Replaces the formats' max frame length, in bytes; `nil` keeps theirs.
    ///   - maxBufferedBytes: Bytes of partial frames over all streams.
    ///   - maxUndecidedBytes: Bytes streams may hold while no format is known.
    public init(format: FrameFormat? = nil, maxFrameLength: Int? = nil,
                maxBufferedBytes: Int = defaultMaxBufferedBytes, maxUndecidedBytes: Int = defaultMaxUndecidedBytes) {
        self.format = format
        self.maxFrameLength = maxFrameLength
        self.maxBufferedBytes = maxBufferedBytes
        self.maxUndecidedBytes = maxUndecidedBytes
    }

    /// `format` with ``maxFrameLength`` in place of its own, when one is set.
    public func applied(to format: FrameFormat) -> FrameFormat {
        guard let maxFrameLength else { return format }
        var limited = format
        limited.maxFrameLength = maxFrameLength
        return limited
    }
}
