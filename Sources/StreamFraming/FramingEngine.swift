import FrameCodec
import PacketDecoding

/// The one framing engine: cuts the byte streams of any number of connections into frames,
/// one ``FrameDecoder`` per direction, and hands back frames and events as values.
///
/// Every input of framedump ends here — a hex dump (one stream), a capture (through
/// ``consume(_:at:contexts:_:)``, the adapter from `TCPReassembler`'s events), a socket — so
/// they all follow one format policy and one memory bound. The engine prints nothing, keeps
/// no globals and decides no exit status: that is the caller's.
///
/// ```
///  caller                                     FramingEngine                           caller
///  openConnection(1, client: a, server: b)
///  receive([55 aa 01 03 00 00 00 05 …], c2s)  ─> FramedStream c2s ─> FrameDecoder ─> .output(.frame(offset 0, 17 bytes), c2s)
///  receive([… 3 bytes of a header], c2s)      ─>   (held: 3 bytes of a partial frame)
///  noteGap(byteCount: 40, c2s)                ─>                                  ─> .output(.truncated(17, 3)), .output(.gap(20, 40))
///  endStream(s2c) / closeConnection(1)        ─>   (unfinished tails reported)    ─> .output(.truncated…)…, .connectionClosed
///  finish()                                   ─>   (undecided streams decided, open connections closed)
/// ```
///
/// **Streams.** A stream is named by its ``StreamKey`` (connection and direction). A
/// connection is opened with ``openConnection(_:client:server:)``, which attaches the caller's
/// context to each direction; its streams then take data (contiguous: each chunk continues
/// where the last ended), gaps (bytes never seen; the decoder reports the unfinished frame as
/// `truncated`, counts the gap and resyncs), an end (FIN, EOF: the unfinished tail is
/// `truncated`), and the connection a close (both ends, RST, eviction). Offsets in outputs are
/// absolute stream offsets, counted from the stream's first byte, gaps included. Inputs for a
/// stream whose connection is not open, or has ended, are ignored.
///
/// **Format policy.** With ``FramingConfiguration/format`` set, every stream uses it. Without,
/// each stream's format is detected from its own first bytes (``FrameFormat/detect(_:)``, at
/// most ``detectionProbeLength`` bytes; fewer when a gap or the end comes first), the stream's
/// inputs being held (copied) until then. A stream whose first bytes fit no preset — a capture
/// that starts mid-frame, say — is decoded with the first format detected in the input; until
/// there is one it waits, holding its inputs, and is decoded when one is found, each output with
/// its own input's time. The waiting streams hold at most ``FramingConfiguration/maxUndecidedBytes``
/// together: beyond it the one waiting longest is given up — what it held, and every byte it
/// gets later, are `skip` outputs — so detection goes on over any number of streams in bounded
/// memory (``skippedStreams``). If no format is ever found, ``finish(at:into:)`` emits
/// ``FramingEvent/formatUndetectable(_:firstBytes:)`` and throws ``FormatDetectionError``.
///
/// **Order.** Outputs come in the order of the inputs that completed them, across streams:
/// while a stream holds inputs undecided, later outputs of other streams are held back and
/// come after its own (FramingEngine-ordering.swift), within ``FramingConfiguration/maxUndecidedBytes``.
/// Only a new format's ``FramingEvent/formatDetected(_:stream:isNew:)`` comes at once.
///
/// **Memory.** Held inputs are bounded as above; the bytes of unfinished frames all decoders
/// hold are bounded by ``FramingConfiguration/maxBufferedBytes``: past it the partial frame
/// that has waited longest is given up (``FramingEvent/limit(_:stream:)``, then `truncated`),
/// in O(1) per step (``PartialFrameQueue``). A stream's decoder is released when the stream
/// ends, so memory follows the open connections, not the input.
///
/// **Receiving.** Each input method takes a ``FramingReceiver`` `inout` (the fast path: the
/// caller's receiver is specialized and called directly), or a closure (``Emit``) that gets every
/// event, outputs as ``FramingEvent/output(_:stream:)``.
///
/// **Errors.** Every method rethrows what the receiver throws, and stops there:
/// the engine is then in a consistent state but the rest of that input's outputs are lost, so a
/// caller that throws (a closed output, say) should stop feeding the engine.
///
/// A struct, held in a local and mutated in place: exclusive access to its state is then proven
/// at compile time, where as a class every event and frame paid the runtime's checks
/// (`swift_beginAccess`) on its stored properties.
public struct FramingEngine<Context> {
    /// A closure that receives the engine's events, in order (outputs as
    /// ``FramingEvent/output(_:stream:)``): the simple alternative to a ``FramingReceiver``.
    public typealias Emit = (FramingEvent<Context>) throws -> Void

    /// Bytes of a stream held to detect its format: what `FrameFormat.detect` reads at most.
    public static var detectionProbeLength: Int { FrameFormat.detectionProbeLength }

    /// The format policy and the bounds.
    public let configuration: FramingConfiguration
    /// The formats in use, in the order they were first used: the given one, or each newly
    /// detected one (``FramingEvent/formatDetected(_:stream:isNew:)``); indexed by
    /// ``FramedStream/formatIndex``. Each has the configured max frame length applied.
    public var formats: [FrameFormat] { usedFormats }
    @usableFromInline var usedFormats: [FrameFormat] = []
    /// Bytes of unfinished frames all decoders hold now.
    public var bufferedBytes: Int { bufferedByteCount }
    @usableFromInline var bufferedByteCount = 0
    /// Streams whose first bytes fit no preset: decoded with the fallback format (a count, for a
    /// caller's closing note).
    public var assumedStreams: Int { assumedStreamCount }
    @usableFromInline var assumedStreamCount = 0

    /// The given format, or the first detected: used for streams that fit no preset.
    @usableFromInline var fallbackFormat: Int?
    @usableFromInline var connections: [Int: StreamPair] = [:]
    /// The streams holding partial frames, the one waiting longest first.
    @usableFromInline var partialFrames = PartialFrameQueue<Context>()
    /// Streams whose bytes fit no preset, waiting for a first format to be detected elsewhere.
    /// Streams whose bytes fit no preset, waiting for a first format to be detected elsewhere:
    /// `waiting[waitingHead...]`, the one waiting longest first.
    @usableFromInline var waiting: [FramedStream<Context>] = []
    @usableFromInline var waitingHead = 0
    @usableFromInline var waitingBytes = 0
    /// Streams given up while waiting (their bytes skipped), and the first one's first bytes.
    public var skippedStreams: Int { skippedStreamCount }
    @usableFromInline var skippedStreamCount = 0
    @usableFromInline var firstSkipped: (stream: FramedStream<Context>, firstBytes: [UInt8])?

    // Capture order across streams (FramingEngine-ordering.swift).
    /// The number of the input being taken (each public input method counts one).
    @usableFromInline var inputSequence: UInt64 = 0
    /// Streams holding inputs, with the number of their first held one, the oldest first:
    /// `barriers[barrierHead...]` (entries whose stream no longer holds from that input are stale).
    @usableFromInline var barriers: [(stream: FramedStream<Context>, sequence: UInt64)] = []
    @usableFromInline var barrierHead = 0
    /// Outputs held back behind a holding stream, in input order: `heldOutputs[heldOutputsHead...]`.
    @usableFromInline var heldOutputs: [HeldOutput] = []
    @usableFromInline var heldOutputsHead = 0
    @usableFromInline var heldOutputBytes = 0
    /// While a stream's held inputs are replayed: the number of the one being replayed, whether
    /// its outputs are merged into the held ones, and those outputs.
    @usableFromInline var replaySequence: UInt64?
    @usableFromInline var replayMerges = false
    @usableFromInline var replayed: [HeldOutput] = []

    /// Both streams of an open connection, indexed by `StreamDirection.rawValue`.
    @usableFromInline struct StreamPair {
        @usableFromInline let streams: [FramedStream<Context>]
        @inlinable init(streams: [FramedStream<Context>]) { self.streams = streams }
    }

    /// - Parameter configuration: The format policy and the memory bounds.
    public init(configuration: FramingConfiguration = FramingConfiguration()) {
        self.configuration = configuration
        if let format = configuration.format {
            usedFormats.append(configuration.applied(to: format))
            fallbackFormat = 0
        }
    }

    /// The stream `key` names, while its connection is open; `nil` otherwise.
    @inlinable
    public func stream(_ key: StreamKey) -> FramedStream<Context>? {
        connections[key.connection]?.streams[key.direction.rawValue]
    }

    /// Connections open now.
    public var openConnectionCount: Int { connections.count }

    /// Opens a connection: both its streams start at offset 0.
    ///
    /// Opening a number that is already open replaces it without ending its streams (their
    /// unfinished frames are not reported); close it first.
    ///
    /// - Parameters:
    ///   - connection: The connection's number, unique among open connections.
    ///   - client: The context of the client-to-server stream.
    ///   - server: The context of the server-to-client stream.
    public mutating func openConnection(_ connection: Int, client: Context, server: Context) {
        let streams = [
            FramedStream(key: StreamKey(connection: connection, direction: .clientToServer), context: client),
            FramedStream(key: StreamKey(connection: connection, direction: .serverToClient), context: server),
        ]
        if let fallbackFormat, configuration.format != nil {
            for stream in streams { use(fallbackFormat, for: stream) }
        }
        connections[connection] = StreamPair(streams: streams)
    }

    /// Frames the next bytes of `key`'s stream.
    ///
    /// - Parameters:
    ///   - bytes: The bytes following the stream's last; read during the call only (the ones
    ///     a format decision or a partial frame needs later are copied).
    ///   - key: The stream.
    ///   - time: When the bytes arrived (a packet's capture time, a read's wall-clock time);
    ///     becomes ``FramedStream/time`` for the outputs they complete.
    ///   - receiver: Receives the outputs, in order.
    /// - Throws: What `receiver` throws.
    @inlinable
    public mutating func receive<R: FramingReceiver>(_ bytes: UnsafeRawBufferPointer, on key: StreamKey, at time: Timestamp, into receiver: inout R) throws where R.Context == Context {
        guard !bytes.isEmpty, let stream = stream(key) else { return }
        inputSequence += 1
        stream.currentTime = time
        if stream.decoder != nil {
            try step(stream, .bytes(bytes), at: time, &receiver)
        } else if stream.isSkipping {
            try skip(.skip(offset: stream.skipOffset, byteCount: UInt64(bytes.count)), of: stream, &receiver)
        } else if !stream.isFinished {
            try hold(bytes, of: stream, at: time, &receiver)
        }
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// Notes `byteCount` bytes of `key`'s stream that were never seen (a hole in the capture):
    /// the decoder reports an unfinished frame as `truncated`, then the `gap`, then resyncs.
    ///
    /// - Parameters:
    ///   - byteCount: Missing bytes, at least 1.
    ///   - key: The stream.
    ///   - time: When the gap was found.
    ///   - receiver: Receives the outputs.
    /// - Throws: What `receiver` throws; ``FormatDetectionError`` (see ``receive(_:on:at:into:)``).
    @inlinable
    public mutating func noteGap<R: FramingReceiver>(byteCount: UInt64, on key: StreamKey, at time: Timestamp, into receiver: inout R) throws where R.Context == Context {
        guard byteCount > 0, let stream = stream(key) else { return }
        inputSequence += 1
        stream.currentTime = time
        if stream.decoder != nil {
            try step(stream, .gap(byteCount), at: time, &receiver)
        } else if stream.isSkipping {
            try skip(.gap(offset: stream.skipOffset, byteCount: byteCount), of: stream, &receiver)
        } else if !stream.isFinished {
            holdInput(.gap(byteCount), of: stream, at: time)
            if !stream.isWaiting { try detect(stream, &receiver) }
        }
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// Ends `key`'s stream (its FIN, or the end of a socket's reads): an unfinished frame is
    /// reported `truncated` and the decoder released. Later inputs for it are ignored.
    ///
    /// - Throws: What `receiver` throws; ``FormatDetectionError``.
    @inlinable
    public mutating func endStream<R: FramingReceiver>(_ key: StreamKey, at time: Timestamp, into receiver: inout R) throws where R.Context == Context {
        guard let stream = stream(key) else { return }
        inputSequence += 1
        stream.currentTime = time
        try end(stream, at: time, &receiver)
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// Ends both streams of `connection` (closed, reset, evicted, or the input ended), then
    /// emits ``FramingEvent/connectionClosed(client:server:)``; the connection number is free
    /// again.
    ///
    /// - Throws: What `receiver` throws; ``FormatDetectionError``.
    @inlinable
    public mutating func closeConnection<R: FramingReceiver>(_ connection: Int, at time: Timestamp, into receiver: inout R) throws where R.Context == Context {
        guard let pair = connections.removeValue(forKey: connection) else { return }
        inputSequence += 1
        for stream in pair.streams {
            stream.currentTime = time
            try end(stream, at: time, &receiver)
        }
        try deliver(.connectionClosed(client: pair.streams[0], server: pair.streams[1]), about: pair.streams[0], &receiver)
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// Passes on a bound the reassembler reached for `connection` (and `direction`, for the
    /// out-of-order bounds) as a ``FramingEvent/limit(_:stream:)`` event.
    ///
    /// - Throws: What `receiver` throws.
    @inlinable
    public mutating func noteLimit<R: FramingReceiver>(_ limit: ReassemblyLimit, connection: Int, direction: StreamDirection?,
                                                      at time: Timestamp, into receiver: inout R) throws where R.Context == Context {
        guard let stream = stream(StreamKey(connection: connection, direction: direction ?? .clientToServer)) else { return }
        inputSequence += 1
        stream.currentTime = time
        try deliver(.limit(.reassembly(limit), stream: stream), about: stream, &receiver)
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// Passes on what the reassembler noticed in `key`'s stream as a ``FramingEvent/notice(_:stream:)``
    /// event, in stream order: held with the stream's inputs while its format is undecided. A
    /// ``ReassemblyNotice/discarded(offset:length:capturedBytes:)`` range takes its place in
    /// the stream like a gap — the decoder reports its unfinished frame `truncated` and resyncs
    /// after it — but is reported as the notice instead of a `gap`.
    ///
    /// - Throws: What `receiver` throws; ``FormatDetectionError`` (see ``receive(_:on:at:into:)``).
    @inlinable
    public mutating func noteNotice<R: FramingReceiver>(_ notice: ReassemblyNotice, on key: StreamKey, at time: Timestamp,
                                                       into receiver: inout R) throws where R.Context == Context {
        guard let stream = stream(key), !stream.isFinished else { return }
        inputSequence += 1
        stream.currentTime = time
        if stream.decoder != nil {
            try step(stream, .notice(notice), at: time, &receiver)
        } else if stream.isSkipping {
            if case .discarded(_, let length, _) = notice { stream.skipOffset += length }
            try deliver(.notice(notice, stream: stream), about: stream, &receiver)
        } else {
            holdInput(.notice(notice), of: stream, at: time)
            if notice.isDiscarded, !stream.isWaiting { try detect(stream, &receiver) }
        }
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// Ends the input: closes the connections still open (in order of their numbers), then
    /// decodes the streams still waiting for a format with the fallback format.
    ///
    /// - Parameters:
    ///   - time: The time of the outputs this flushes; `nil` keeps each stream's last.
    ///   - receiver: Receives the outputs.
    /// - Throws: What `receiver` throws; ``FormatDetectionError`` when streams had data and no
    ///   format was ever detected.
    @inlinable
    public mutating func finish<R: FramingReceiver>(at time: Timestamp? = nil, into receiver: inout R) throws where R.Context == Context {
        for connection in connections.keys.sorted() {
            try closeConnection(connection, at: time ?? connections[connection]!.streams[0].time, into: &receiver)
        }
        // What is still held back waits for streams that fit no preset: with no format to
        // decode them, it is emitted as it is.
        defer { try? flushHeldOutputs(&receiver, all: true) }
        guard fallbackFormat == nil else {
            try resolveWaiting(&receiver)
            return try flushHeldOutputs(&receiver, all: true)
        }
        try flushHeldOutputs(&receiver, all: true)
        // The streams given up waited longest: the first of them is the first that fit no preset.
        if let (stream, firstBytes) = firstSkipped { throw try undetectable(stream, firstBytes: firstBytes, &receiver) }
        if let first = waiting.dropFirst(waitingHead).first {
            throw try undetectable(first, firstBytes: first.heldDataPrefix, &receiver)
        }
    }
}

// MARK: - Decoding and the partial-frame budget

extension FramingEngine {
    /// One input for a decoder.
    @usableFromInline enum Step {
        case bytes(UnsafeRawBufferPointer)
        case held([UInt8])
        case gap(UInt64)
        case notice(ReassemblyNotice)
    }

    /// Runs one step of `stream`'s decoder (its outputs emitted), then counts what the decoder
    /// holds and keeps the total of all decoders within ``FramingConfiguration/maxBufferedBytes``.
    @inlinable
    mutating func step<R: FramingReceiver>(_ stream: FramedStream<Context>, _ input: Step, at time: Timestamp, _ receiver: inout R) throws where R.Context == Context {
        // A closure literal per call, not a local function: a local function capturing
        // `completedFrame` made it a boxed variable with a runtime exclusivity check per frame.
        var completedFrame = false
        switch input {
        case .bytes(let bytes):
            try stream.decoder!.process(bytes) { decoded in
                if case .frame = decoded { completedFrame = true }
                try deliver(decoded, from: stream, &receiver)
            }
        case .held(let bytes):
            try stream.decoder!.process(bytes) { decoded in
                if case .frame = decoded { completedFrame = true }
                try deliver(decoded, from: stream, &receiver)
            }
        case .gap(let byteCount):
            try stream.decoder!.noteGap(byteCount: byteCount) { try deliver($0, from: stream, &receiver) }
        case .notice(let notice):
            guard case .discarded(_, let length, _) = notice else {
                return try deliver(.notice(notice, stream: stream), about: stream, &receiver)
            }
            // The decoder treats the range as a gap (truncating and resyncing); its `gap` output is
            // the notice.
            try stream.decoder!.noteGap(byteCount: length) { decoded in
                if case .gap = decoded {
                    try deliver(.notice(notice, stream: stream), about: stream, &receiver)
                } else {
                    try deliver(decoded, from: stream, &receiver)
                }
            }
        }
        countBuffered(stream, completedFrame: completedFrame)
        if bufferedBytes > configuration.maxBufferedBytes { try giveUpPartialFrames(at: time, &receiver) }
    }

    /// Brings ``bufferedBytes`` and the queue of partial frames up to date with what `stream`'s
    /// decoder holds now (nothing once it is released).
    @inlinable
    mutating func countBuffered(_ stream: FramedStream<Context>, completedFrame: Bool) {
        let held = stream.decoder?.pendingByteCount ?? 0
        bufferedByteCount += held - stream.countedBufferedBytes
        stream.countedBufferedBytes = held
        if held == 0 {
            partialFrames.remove(stream)
        } else if completedFrame || !stream.isQueued {
            partialFrames.moveToBack(stream)
        }
    }

    /// The partial-frame budget is spent: the partial frames that have waited longest are given
    /// up — a `limit` event, then `truncated` — until the total is within the budget again.
    @usableFromInline mutating func giveUpPartialFrames<R: FramingReceiver>(at time: Timestamp, _ receiver: inout R) throws where R.Context == Context {
        while bufferedBytes > configuration.maxBufferedBytes, let oldest = partialFrames.first {
            oldest.currentTime = time
            try deliver(.limit(.bufferedBytesTotal, stream: oldest), about: oldest, &receiver)
            try oldest.decoder!.abandonPartialFrame { try deliver($0, from: oldest, &receiver) }
            countBuffered(oldest, completedFrame: false)
        }
    }

    /// The end of a stream: the decoder reports its unfinished tail and is released. A stream
    /// still deciding its format decides now.
    @inlinable
    mutating func end<R: FramingReceiver>(_ stream: FramedStream<Context>, at time: Timestamp, _ receiver: inout R) throws where R.Context == Context {
        guard !stream.isFinished else { return }
        if stream.decoder != nil {
            try stream.decoder!.finish { try deliver($0, from: stream, &receiver) }
            stream.release()
            countBuffered(stream, completedFrame: false)
        } else if stream.held.isEmpty {
            stream.release()
        } else {
            holdInput(.end, of: stream, at: time)
            if stream.isWaiting {
                try checkWaitingBudget(&receiver)
            } else {
                try detect(stream, &receiver)
            }
        }
    }
}

// MARK: - Format detection

extension FramingEngine {
    /// Takes bytes of a stream whose format is undecided: copies only what detection still
    /// needs and decides; the rest is framed in place once the format is known, or held (within
    /// ``FramingConfiguration/maxUndecidedBytes``) while the stream waits for a fallback.
    @usableFromInline mutating func hold<R: FramingReceiver>(_ bytes: UnsafeRawBufferPointer, of stream: FramedStream<Context>, at time: Timestamp,
                               _ receiver: inout R) throws where R.Context == Context {
        if stream.isWaiting || stream.isSkipping { return try holdWaiting(bytes[...], of: stream, at: time, &receiver) }
        let needed = Swift.max(Self.detectionProbeLength - stream.heldByteCount, 0)
        holdInput(.data(Array(bytes.prefix(needed))), of: stream, at: time)
        if stream.heldByteCount >= Self.detectionProbeLength { try detect(stream, &receiver, then: bytes.dropFirst(needed)) }
    }

    /// Holds `bytes` of a stream waiting for a format from another stream, first giving up the
    /// streams that have waited longest until they fit the budget. If the stream itself is given
    /// up (or was), the bytes are skipped without being copied.
    @usableFromInline mutating func holdWaiting<R: FramingReceiver>(_ bytes: Slice<UnsafeRawBufferPointer>, of stream: FramedStream<Context>, at time: Timestamp,
                                      _ receiver: inout R) throws where R.Context == Context {
        guard !bytes.isEmpty else { return }
        while !stream.isSkipping, waitingBytes + bytes.count > configuration.maxUndecidedBytes, waitingHead < waiting.count {
            try giveUpOldestWaiting(&receiver)
        }
        if stream.isSkipping { return try skip(.skip(offset: stream.skipOffset, byteCount: UInt64(bytes.count)), of: stream, &receiver) }
        waitingBytes += bytes.count
        holdInput(.data(Array(bytes)), of: stream, at: time)
    }

    /// Chooses `stream`'s format from its held bytes and replays them, then frames `rest` (the
    /// bytes of the same input that detection did not need); or, when they fit no preset and no
    /// format is known yet, puts the stream on the waiting list with `rest`.
    ///
    /// The streams that were waiting for a first format are decoded after `rest`, so outputs
    /// come in the order of the inputs that completed them.
    @usableFromInline mutating func detect<R: FramingReceiver>(_ stream: FramedStream<Context>, _ receiver: inout R,
                                 then rest: Slice<UnsafeRawBufferPointer> = UnsafeRawBufferPointer(start: nil, count: 0)[...]) throws
    where R.Context == Context {
        let time = stream.time
        if let format = FrameFormat.detect(stream.heldDataPrefix).map(configuration.applied) {
            let known = usedFormats.firstIndex(of: format)
            let index = known ?? register(format)
            stream.currentFormatIndex = index
            try replay(stream, with: index, &receiver, announcing: .formatDetected(format, stream: stream, isNew: known == nil))
            if !rest.isEmpty { try step(stream, .bytes(UnsafeRawBufferPointer(rebasing: rest)), at: time, &receiver) }
            if fallbackFormat == nil {
                fallbackFormat = index
                try resolveWaiting(&receiver)
            }
        } else if let fallbackFormat {
            try assume(fallbackFormat, for: stream, &receiver)
            if !rest.isEmpty { try step(stream, .bytes(UnsafeRawBufferPointer(rebasing: rest)), at: time, &receiver) }
        } else {
            stream.isWaiting = true
            waiting.append(stream)
            waitingBytes += stream.heldByteCount
            try checkWaitingBudget(&receiver)
            try holdWaiting(rest, of: stream, at: time, &receiver)
        }
    }

    /// Decodes the waiting streams with the fallback format, in the order they started waiting.
    @usableFromInline mutating func resolveWaiting<R: FramingReceiver>(_ receiver: inout R) throws where R.Context == Context {
        guard let fallbackFormat else { return }
        let resolved = waiting[waitingHead...]
        waiting.removeAll()
        waitingHead = 0
        waitingBytes = 0
        for stream in resolved {
            stream.isWaiting = false
            try assume(fallbackFormat, for: stream, &receiver)
        }
    }

    /// Decodes a stream that fit no preset with the fallback format, saying so first when it
    /// held data (a stream that starts with a gap has nothing to say it about).
    @usableFromInline mutating func assume<R: FramingReceiver>(_ index: Int, for stream: FramedStream<Context>, _ receiver: inout R) throws where R.Context == Context {
        stream.currentFormatIndex = index
        var announcement: FramingEvent<Context>?
        if stream.heldByteCount > 0 {
            assumedStreamCount += 1
            announcement = .formatAssumed(stream: stream)
        }
        try replay(stream, with: index, &receiver, announcing: announcement)
    }

    /// Gives `stream` the format at `index` and feeds its decoder everything held, each input
    /// with its own time and sequence number, after `announcement` (at the first input's).
    @usableFromInline mutating func replay<R: FramingReceiver>(_ stream: FramedStream<Context>, with index: Int, _ receiver: inout R,
                                                               announcing announcement: FramingEvent<Context>?) throws where R.Context == Context {
        use(index, for: stream)
        let held = stream.held
        releaseHeld(of: stream)
        beginReplay()
        defer { endReplay() }
        if case .formatDetected = announcement {
            // At once, not in input order: a new format is registered before any output uses it.
            try receiver.receive(announcement!)
        } else if let announcement {
            replaySequence = held.first?.sequence ?? inputSequence
            try deliver(announcement, about: stream, &receiver)
        }
        for (input, time, sequence) in held {
            replaySequence = sequence
            stream.currentTime = time
            switch input {
            case .data(let bytes):
                try step(stream, .held(bytes), at: time, &receiver)
            case .gap(let length):
                try step(stream, .gap(length), at: time, &receiver)
            case .notice(let notice):
                try step(stream, .notice(notice), at: time, &receiver)
            case .end:
                try end(stream, at: time, &receiver)
            }
        }
    }

    @usableFromInline func use(_ index: Int, for stream: FramedStream<Context>) {
        stream.currentFormatIndex = index
        stream.decoder = FrameDecoder(format: usedFormats[index], bodyRetention: configuration.bodyRetention)
    }

    @usableFromInline mutating func register(_ format: FrameFormat) -> Int {
        usedFormats.append(format)
        return usedFormats.count - 1
    }

    /// Gives up the streams that have waited longest until the waiting ones fit the budget.
    @usableFromInline mutating func checkWaitingBudget<R: FramingReceiver>(_ receiver: inout R) throws where R.Context == Context {
        while waitingBytes > configuration.maxUndecidedBytes, waitingHead < waiting.count { try giveUpOldestWaiting(&receiver) }
    }

    /// Gives up the stream that has waited longest for a format: what it held becomes `skip`
    /// outputs (its gaps `gap`, its notices passed on, its end ends it), and so does every
    /// later byte of it. Amortized O(1) besides the outputs: the list's head moves, compacted
    /// when it passes half.
    @usableFromInline mutating func giveUpOldestWaiting<R: FramingReceiver>(_ receiver: inout R) throws where R.Context == Context {
        let stream = waiting[waitingHead]
        waitingHead += 1
        if waitingHead >= 64, waitingHead * 2 >= waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
        waitingBytes -= stream.heldByteCount
        stream.isWaiting = false
        stream.isSkipping = true
        skippedStreamCount += 1
        if firstSkipped == nil { firstSkipped = (stream, stream.heldDataPrefix) }
        try skipHeld(of: stream, &receiver)
    }

    /// Replays what a stream that frames nothing (given up, or decided so by its caller) held:
    /// its data as `skip` outputs, its gaps as `gap`s, its notices passed on, its end ending it.
    @usableFromInline mutating func skipHeld<R: FramingReceiver>(of stream: FramedStream<Context>, _ receiver: inout R) throws where R.Context == Context {
        let held = stream.held
        releaseHeld(of: stream)
        beginReplay()
        defer { endReplay() }
        // Contiguous held data (the detection probe, then the rest) is one skip.
        var pending: UInt64 = 0
        for (index, (input, time, sequence)) in held.enumerated() {
            replaySequence = sequence
            stream.currentTime = time
            switch input {
            case .data(let bytes):
                pending += UInt64(bytes.count)
                if index + 1 == held.count || !held[index + 1].input.isData {
                    try skip(.skip(offset: stream.skipOffset, byteCount: pending), of: stream, &receiver)
                    pending = 0
                }
            case .gap(let length):
                try skip(.gap(offset: stream.skipOffset, byteCount: length), of: stream, &receiver)
            case .notice(let notice):
                if case .discarded(_, let length, _) = notice { stream.skipOffset += length }
                try deliver(.notice(notice, stream: stream), about: stream, &receiver)
            case .end:
                stream.release()
            }
        }
    }

    /// Emits an output of a given-up stream and moves its offset past it.
    @usableFromInline mutating func skip<R: FramingReceiver>(_ output: FrameDecoderOutput, of stream: FramedStream<Context>, _ receiver: inout R) throws where R.Context == Context {
        stream.skipOffset += output.byteCount
        try deliver(output, from: stream, &receiver)
    }

    /// Framing cannot go on without a format: says which stream fit none, and returns the error.
    @usableFromInline mutating func undetectable<R: FramingReceiver>(_ stream: FramedStream<Context>, firstBytes: [UInt8],
                                                            _ receiver: inout R) throws -> FormatDetectionError where R.Context == Context {
        try deliver(.formatUndetectable(stream, firstBytes: firstBytes), about: stream, &receiver)
        try flushHeldOutputs(&receiver, all: true)
        return FormatDetectionError(stream: stream.key, firstBytes: firstBytes)
    }
}
