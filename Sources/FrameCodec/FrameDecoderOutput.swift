/// What a ``FrameDecoder`` hands back: a frame, or an event that accounts for bytes that are not in one.
///
/// Every byte fed to a decoder ends up in exactly one frame or one event's byte count (an
/// ``oversize(offset:declaredLength:)`` event counts one byte), and outputs come in stream order
/// with no overlaps, so the byte counts of one stream's outputs add up to its length.
public enum FrameDecoderOutput: Sendable, Hashable {
    /// A complete frame.
    case frame(Frame)
    /// Bytes scanned past while looking for a valid header (bad magic, unexpected field value).
    ///
    /// One run of garbage is one event, however many chunks it spans.
    case skip(offset: UInt64, byteCount: UInt64)
    /// A header declared a frame longer than the max frame length (or whose length arithmetic
    /// overflowed or went negative). Accounts for one byte, the header's first; the decoder
    /// resyncs from the next byte. `declaredLength` is the raw length field value.
    case oversize(offset: UInt64, declaredLength: UInt64)
    /// At end of stream, an unfinished frame or header: offset and bytes left.
    case truncated(offset: UInt64, byteCount: UInt64)
    /// Bytes never captured (a hole in the TCP stream). Bytes buffered before the gap that
    /// could not form a frame are reported as `truncated` first; then the decoder resyncs.
    case gap(offset: UInt64, byteCount: UInt64)

    /// Stream bytes this output accounts for: the frame's length, an event's byte count, or 1
    /// for ``oversize(offset:declaredLength:)``.
    public var byteCount: UInt64 {
        switch self {
        case .frame(let frame): UInt64(frame.length)
        case .skip(_, let count), .truncated(_, let count), .gap(_, let count): count
        case .oversize: 1
        }
    }

    /// Absolute stream offset of the first byte this output accounts for.
    public var offset: UInt64 {
        switch self {
        case .frame(let frame): frame.offset
        case .skip(let offset, _), .oversize(let offset, _), .truncated(let offset, _), .gap(let offset, _): offset
        }
    }
}
