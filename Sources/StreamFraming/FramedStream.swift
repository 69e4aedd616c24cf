import FrameCodec
import PacketDecoding

/// One direction's byte stream as a ``FramingEngine`` frames it: the caller's context, the
/// format, the time of the input being framed, and — inside the engine — the frame decoder and
/// what the stream holds while its format is undecided.
///
/// A class, so the engine's tables, its waiting list and its queue of partial frames share one
/// instance, the decoder's buffer is mutated in place (never copied on write), and events hand
/// the stream to the caller without copying anything.
///
/// The state touched per input and per frame opts out of the runtime's exclusivity checks
/// (`@exclusivity(unchecked)`): as class properties each access cost a `swift_beginAccess`
/// (docs/performance.md). No overlapping access happens: only the engine mutates a stream, on
/// the caller's thread, and while its decoder is mutated the event callback may read
/// ``time``, ``formatIndex`` and ``context`` but never reaches the decoder.
public final class FramedStream<Context> {
    /// Inputs held while the format is undecided, copied out of the caller's buffers.
    @usableFromInline enum HeldInput {
        case data([UInt8])
        case gap(UInt64)
        /// A reassembler's notice, kept in stream order (a `discarded` one is gap-like).
        case notice(ReassemblyNotice)
        case end

        @usableFromInline var isData: Bool {
            if case .data = self { return true }
            return false
        }
    }

    /// The stream's connection and direction.
    public let key: StreamKey
    /// What the caller attached to the stream when its connection opened.
    public let context: Context
    /// The time given with the input being framed: the time of what the stream emits next
    /// (for inputs held while the format was undecided, each output gets its own input's time).
    public var time: Timestamp { currentTime }
    @exclusivity(unchecked) @usableFromInline var currentTime = Timestamp(nanoseconds: 0)
    /// The index of the stream's format in ``FramingEngine/formats``; `nil` until it is decided.
    public var formatIndex: Int? { currentFormatIndex }
    @exclusivity(unchecked) @usableFromInline var currentFormatIndex: Int?

    /// The frame decoder, once the format is decided; `nil` before, and after the stream ended.
    @exclusivity(unchecked) @usableFromInline var decoder: FrameDecoder?
    /// Inputs held until the format is decided, with their times and input sequence numbers.
    @usableFromInline var held: [(input: HeldInput, time: Timestamp, sequence: UInt64)] = []
    /// The input sequence number of the first of ``held`` (`nil` when nothing is held): the
    /// engine holds back later outputs of other streams until this stream's come.
    @usableFromInline var firstHeldSequence: UInt64?
    /// Data bytes in ``held``.
    @usableFromInline var heldByteCount = 0
    /// Whether the held bytes fit no preset and wait for a format detected in another stream.
    @usableFromInline var isWaiting = false
    /// Whether the stream was given up while waiting (the undecided-bytes budget was spent): its
    /// bytes are `skip` outputs from then on, at ``skipOffset``.
    @usableFromInline var isSkipping = false
    /// The stream offset of a skipping stream's next input.
    @usableFromInline var skipOffset: UInt64 = 0
    /// Whether the stream ended and its decoder was released.
    @usableFromInline var isFinished = false
    /// The decoder's ``FrameDecoder/pendingByteCount`` when the engine last counted it, for
    /// the total over all streams.
    @exclusivity(unchecked) @usableFromInline var countedBufferedBytes = 0
    /// Links of the ``PartialFrameQueue``: the streams whose partial frames are older and newer.
    @exclusivity(unchecked) @usableFromInline var olderPartial: FramedStream?
    @exclusivity(unchecked) @usableFromInline var newerPartial: FramedStream?
    /// Whether the stream is in the ``PartialFrameQueue``.
    @exclusivity(unchecked) @usableFromInline var isQueued = false

    @usableFromInline init(key: StreamKey, context: Context) {
        self.key = key
        self.context = context
    }

    /// Whether the stream's format is still undecided: its inputs are being held.
    public var isUndecided: Bool { currentFormatIndex == nil && !isFinished }

    @usableFromInline func hold(_ input: HeldInput, at time: Timestamp, sequence: UInt64) {
        held.append((input, time, sequence))
        if case .data(let bytes) = input { heldByteCount += bytes.count }
    }

    /// The held data before the first held gap or end, up to
    /// ``FramingEngine/detectionProbeLength`` bytes: what the format is detected from.
    @usableFromInline var heldDataPrefix: [UInt8] {
        var prefix: [UInt8] = []
        for (input, _, _) in held {
            if case .notice(let notice) = input, !notice.isDiscarded { continue }
            guard case .data(let bytes) = input else { break }
            prefix += bytes.prefix(FramingEngine<Context>.detectionProbeLength - prefix.count)
            if prefix.count == FramingEngine<Context>.detectionProbeLength { break }
        }
        return prefix
    }

    /// Frees the decoder once the stream has ended.
    @usableFromInline func release() {
        decoder = nil
        isFinished = true
    }
}
