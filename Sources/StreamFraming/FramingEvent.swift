import FrameCodec
import PacketDecoding

/// What a ``FramingEngine`` hands back, in stream order for each stream and in the order of
/// the inputs that completed them across streams (a new format's `formatDetected` at once).
///
/// `Context` is what the caller attached to each stream when its connection opened (a label,
/// counters); every event carries the stream, so the caller reads it without a lookup.
public enum FramingEvent<Context> {
    /// A frame, or a decoder event accounting for bytes that are not in one (`skip`,
    /// `oversize`, `truncated`, `gap`). ``FramedStream/time`` is the time of the input that
    /// completed it. A frame's bytes are a slice of the decoder's buffer (see `Frame`).
    case output(FrameDecoderOutput, stream: FramedStream<Context>)
    /// `stream`'s format was detected from its first bytes: `format`, with the configured max
    /// frame length applied. `isNew` is `true` the first time the engine uses the format (it is
    /// then ``FramingEngine/formats``'s last), so a caller that renders per format registers it
    /// then. Comes before the stream's first output.
    case formatDetected(FrameFormat, stream: FramedStream<Context>, isNew: Bool)
    /// `stream`'s first bytes fitted no preset; it is decoded with the fallback format (the
    /// given one, or the first detected in the input). Comes before the stream's first output;
    /// only for streams that held data.
    case formatAssumed(stream: FramedStream<Context>)
    /// No format can be found for `stream`: the call then throws ``FormatDetectionError``.
    case formatUndetectable(FramedStream<Context>, firstBytes: [UInt8])
    /// A memory bound was reached for `stream` (for the reassembler's connection limit, the
    /// connection's client-to-server stream). What it cost follows as outputs: a
    /// `truncated` for ``FramingLimit/bufferedBytesTotal``, gaps and closes for the reassembler's.
    case limit(FramingLimit, stream: FramedStream<Context>)
    /// What the TCP reassembler noticed in `stream` (an ignored RST, a segment outside the
    /// stream, differing copies, discarded bytes), in stream order with its outputs. For a
    /// ``ReassemblyNotice/discarded(offset:length:capturedBytes:)`` the decoder first reports its
    /// unfinished frame `truncated` and resyncs after the range, as after a gap.
    case notice(ReassemblyNotice, stream: FramedStream<Context>)
    /// Both streams of a connection ended (they emitted their last outputs before this, held
    /// back with them while another stream waited for a format).
    case connectionClosed(client: FramedStream<Context>, server: FramedStream<Context>)
}
