import FrameCodec
import PacketDecoding

/// Frames every stream of an input and renders the results: the part of `decode` that does not
/// care where the bytes came from.
///
/// ```
/// StreamSource ──StreamInput──> DecodePipeline ──> FrameDecoder per stream ──> FrameRenderer ──> OutputStream
///                                (detects the format
///                                 from the first bytes)
/// ```
///
/// Data at an offset past the stream's current end is preceded by a gap for the missing bytes;
/// data before it (already delivered) is trimmed, so each byte is framed once.
final class DecodePipeline<Renderer: FrameRenderer> {
    /// How many bytes of the first stream are gathered before guessing the format: what
    /// `FrameFormat.detect` reads at most (the longest preset header), so nothing more is copied.
    static var detectionWindow: Int { DirectionFraming.detectionProbeLength }
    /// How many inputs without data (labels, gaps, ends) may be held before detection gives up
    /// waiting for data.
    static var maxHeldInputs: Int { 4096 }

    private let makeRenderer: (FrameFormat) -> Renderer
    private let output: OutputStream
    private var format: FrameFormat?
    private var renderer: Renderer?
    private var decoders: [StreamID: FrameDecoder] = [:]
    /// Labels of the streams that have one, printed with their outputs.
    private var labels: [StreamID: StreamLabel] = [:]
    /// The latest ``StreamInput/clock(_:)``, printed with the outputs that follow it.
    private var time: Timestamp?
    /// Inputs held back (copied) while the format is still being detected.
    private var pending: [PendingInput] = []
    /// Data bytes in `pending`: at most ``detectionWindow``, however large the inputs.
    private(set) var heldByteCount = 0
    private var pendingStreamEnded = false
    /// Called once with the detected format (not when the format was given).
    private let detected: (FrameFormat) -> Void
    private let maxFrameLength: Int?
    /// What has been decoded so far.
    private(set) var summary = DecodeSummary()
    /// Sees every frame and event after it is rendered, with its stream: `listen --respond`
    /// answers requests from here.
    var observer: ((StreamID, FrameDecoderOutput) throws -> Void)?
    /// How many frames to render before stopping (`decode -c N`), or `nil` for no limit. Once
    /// reached, later frames and events are neither rendered nor counted.
    var frameLimit: Int?

    private var reachedFrameLimit: Bool { frameLimit.map { summary.frames >= $0 } ?? false }

    /// - Parameters:
    ///   - format: the format to use, or `nil` to detect it from the first stream's first bytes.
    ///   - output: where renderings are appended; flushed a block at a time.
    ///   - makeRenderer: builds the renderer once the format is known.
    ///   - detected: told which format detection chose.
    ///   - maxFrameLength: replaces the format's max frame length (given or detected), in bytes;
    ///     `nil` keeps it (`--max-frame-length`).
    init(
        format: FrameFormat?,
        output: OutputStream,
        makeRenderer: @escaping (FrameFormat) -> Renderer,
        detected: @escaping (FrameFormat) -> Void,
        maxFrameLength: Int? = nil
    ) {
        self.makeRenderer = makeRenderer
        self.output = output
        self.detected = detected
        self.maxFrameLength = maxFrameLength
        if let format { use(format) }
    }

    /// Takes one step of the input.
    ///
    /// - Throws: ``CommandFailure`` (exit 1) when detection finds no preset, ``OutputError``.
    func consume(_ input: StreamInput) throws {
        guard format != nil else {
            guard case .data(let stream, let offset, let bytes) = input else { return try hold(input) }
            // Copy only what detection still needs; the rest is framed in place once it is decided.
            let needed = Swift.max(Self.detectionWindow - heldByteCount, 0)
            try hold(.data(stream, offset: offset, bytes: UnsafeRawBufferPointer(rebasing: bytes.prefix(needed))))
            if bytes.count > needed, format != nil {
                try consume(.data(stream, offset: offset &+ UInt64(needed), bytes: UnsafeRawBufferPointer(rebasing: bytes.dropFirst(needed))))
            }
            return
        }
        switch input {
        case .label(let stream, let label):
            labels[stream] = label
        case .clock(let time):
            self.time = time
        case .data(let stream, let offset, let bytes):
            try feed(stream, offset: offset) { decoder, emit in
                // Bytes before the stream's end were delivered already: frame them once.
                let overlap = decoder.streamOffset > offset ? decoder.streamOffset - offset : 0
                let fresh = overlap < UInt64(bytes.count) ? bytes.dropFirst(Int(overlap)) : bytes.dropFirst(bytes.count)
                try decoder.process(UnsafeRawBufferPointer(rebasing: fresh), emit)
            }
        case .gap(let stream, let offset, let byteCount):
            try feed(stream, offset: offset) { decoder, emit in try decoder.noteGap(byteCount: byteCount, emit) }
        case .end(let stream):
            defer { labels[stream] = nil }
            guard var decoder = decoders.removeValue(forKey: stream) else { return }
            try decoder.finish { try emit($0, from: stream) }
        }
    }

    /// Ends the run: decides the format if still undecided, renders the closing text, flushes.
    func finish() throws {
        if format == nil, !pending.isEmpty { try detect() }
        for stream in decoders.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            try consume(.end(stream))
        }
        renderer?.finish(summary, into: &output.buffer)
        try output.flush()
    }

    private func use(_ format: FrameFormat) {
        var format = format
        if let maxFrameLength { format.maxFrameLength = maxFrameLength }
        self.format = format
        renderer = makeRenderer(format)
    }

    /// Runs `step` on `stream`'s decoder after bringing the stream up to `offset` (a gap for
    /// missing bytes). The decoder is taken out of the table during the step so that its buffer
    /// stays uniquely referenced (no copy on write).
    private func feed(
        _ stream: StreamID,
        offset: UInt64,
        _ step: (inout FrameDecoder, (FrameDecoderOutput) throws -> Void) throws -> Void
    ) throws {
        var decoder = decoders.removeValue(forKey: stream) ?? FrameDecoder(format: format!, startOffset: offset)
        func emitFromStream(_ decoded: FrameDecoderOutput) throws { try emit(decoded, from: stream) }
        if offset > decoder.streamOffset {
            try decoder.noteGap(byteCount: offset - decoder.streamOffset, emitFromStream)
        }
        try step(&decoder, emitFromStream)
        decoders[stream] = decoder
    }

    private func emit(_ decoded: FrameDecoderOutput, from stream: StreamID) throws {
        guard !reachedFrameLimit else { return }
        summary.count(decoded)
        renderer!.render(decoded, label: labels[stream], time: time, into: &output.buffer)
        try output.flushIfBlockFull()
        try observer?(stream, decoded)
    }

    /// Holds `input` until enough is known to detect the format: a detection window of bytes,
    /// or the end of a stream. Holding is bounded by that window (``consume(_:)`` passes no more
    /// data than fits in it) and by a count of inputs, for a source that sends many empty
    /// streams first.
    private func hold(_ input: StreamInput) throws {
        let copy = PendingInput(input)
        pending.append(copy)
        switch copy {
        case .data(_, _, let bytes): heldByteCount += bytes.count
        case .end: pendingStreamEnded = true
        case .gap, .label, .clock: break
        }
        if heldByteCount >= Self.detectionWindow || pendingStreamEnded || pending.count >= Self.maxHeldInputs {
            try detect()
        }
    }

    /// Detects the format from the held bytes of the first stream that has any, and replays
    /// everything held.
    private func detect() throws {
        var prefix: [UInt8] = []
        var first: StreamID?
        for case .data(let stream, _, let bytes) in pending where first == nil || stream == first {
            first = stream
            prefix += bytes
            if prefix.count >= Self.detectionWindow { break }
        }
        guard !prefix.isEmpty else {
            // Nothing to frame yet: wait for data (or, at the end, report nothing).
            pending.removeAll()
            pendingStreamEnded = false
            return
        }
        guard let format = FrameFormat.detect(prefix.prefix(Self.detectionWindow)) else {
            var shown: [UInt8] = []
            for byte in prefix.prefix(8) {
                if !shown.isEmpty { shown.append(UInt8(ascii: " ")) }
                ByteFormatting.appendHex(byte, to: &shown)
            }
            let presets = FrameFormat.presets.map(\.name).joined(separator: ", ")
            throw CommandFailure(
                message: """
                framedump decode: no preset format fits the first bytes (\(String(decoding: shown, as: UTF8.self))\(prefix.count > 8 ? " ..." : ""))
                Choose one with --format NAME|SPEC; presets: \(presets) (see 'framedump formats').
                """,
                status: .usage
            )
        }
        use(format)
        detected(format)
        let held = pending
        pending.removeAll()
        for input in held {
            switch input {
            case .data(let stream, let offset, let bytes):
                try bytes.withUnsafeBytes { try consume(.data(stream, offset: offset, bytes: $0)) }
            case .gap(let stream, let offset, let byteCount):
                try consume(.gap(stream, offset: offset, byteCount: byteCount))
            case .end(let stream):
                try consume(.end(stream))
            case .label(let stream, let label):
                try consume(.label(stream, label))
            case .clock(let time):
                try consume(.clock(time))
            }
        }
    }
}

/// A ``StreamInput`` with its bytes copied, held while the format is detected.
private enum PendingInput {
    case data(StreamID, UInt64, [UInt8])
    case gap(StreamID, UInt64, UInt64)
    case end(StreamID)
    case label(StreamID, StreamLabel)
    case clock(Timestamp)

    init(_ input: StreamInput) {
        switch input {
        case .data(let stream, let offset, let bytes): self = .data(stream, offset, Array(bytes))
        case .gap(let stream, let offset, let byteCount): self = .gap(stream, offset, byteCount)
        case .end(let stream): self = .end(stream)
        case .label(let stream, let label): self = .label(stream, label)
        case .clock(let time): self = .clock(time)
        }
    }
}
