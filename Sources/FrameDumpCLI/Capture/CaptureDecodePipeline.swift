import FrameCodec
import PacketDecoding

/// Frames every direction of every TCP connection of a capture and renders the results in
/// capture order: the part of `decode` that reads a ``CaptureSource``'s events.
///
/// ```
/// CaptureSource ──CaptureEvent──> CaptureDecodePipeline ──> FrameDecoder per direction ──> CaptureRenderer ──> OutputStream
///                                  (format per direction:     (gaps: noteGap → truncated,
///                                   given, or detected)        gap, resync on next magic)
/// ```
///
/// Each direction has its own `FrameDecoder`, created at the connection's first event and
/// dropped when the connection closes, so memory follows the open connections, not the capture.
/// A frame is rendered when the packet that completes it is read, labelled with that packet's
/// time (events flushed at the end of the capture carry the last packet's time).
///
/// **Format detection** (no `--format`): each direction's format is detected from its own first
/// bytes (up to the 12 bytes `FrameFormat.detect` reads; fewer when a gap or the end comes
/// first); the first time a format is chosen, standard error says so. A direction whose bytes
/// fit no preset — a capture that starts mid-frame, say — is decoded with the first format
/// detected in the capture; until there is one it waits, holding its bytes (at most
/// ``maxWaitingBytes`` over all directions), and its frames are rendered when one is found, with
/// their own timestamps. If no direction fits a preset, decode fails as for a hex dump.
///
/// A struct, held in a local and mutated in place: exclusive access to its state is then proven
/// at compile time, where as a class every event and frame paid the runtime's checks
/// (`swift_beginAccess`) on its stored properties.
struct CaptureDecodePipeline<Renderer: CaptureRenderer> {
    /// Bytes that directions waiting for a format may hold, over all of them, before decode gives
    /// up and asks for `--format`.
    static var maxWaitingBytes: Int { 1 << 20 }

    private var renderer: Renderer
    private let output: OutputStream
    /// Formats registered with the renderer, by renderer index.
    private var formats: [FrameFormat] = []
    /// The given format, or the first detected: used for directions that fit no preset.
    private var defaultFormat: Int?
    private let formatIsGiven: Bool
    private let keepsTotals: Bool
    private let limits: CaptureLimits
    private var connections: [Int: ConnectionFraming] = [:]
    /// Bytes of unfinished frames all decoders hold, counted as each decoder steps.
    private var bufferedBytes = 0
    /// The directions holding them, the partial frame waiting longest first.
    private var partialFrames = PartialFrameQueue()
    /// Directions whose bytes fit no preset, waiting for a first format to be detected elsewhere.
    private var waiting: [DirectionFraming] = []
    private var waitingBytes = 0
    private var undetectedStreams = 0
    /// Closed connections, for `--summary` (their decoders released; a direction still waiting
    /// for a format adds to its totals later).
    private var closedConnections: [ConnectionFraming] = []
    /// Counts of every frame and event rendered.
    private(set) var summary = DecodeSummary()
    /// Capture events that mean lost or undecodable data besides the decoder's events: limits
    /// reached, malformed packets, dropped fragments.
    private(set) var captureProblems = 0
    /// How many frames to render before stopping (`capture -c N`), or `nil` for no limit. Once
    /// reached, later frames and events are neither rendered nor counted.
    var frameLimit: Int?

    /// Whether ``frameLimit`` frames have been rendered.
    var reachedFrameLimit: Bool { frameLimit.map { summary.frames >= $0 } ?? false }

    /// - Parameters:
    ///   - format: The format of every direction, or `nil` to detect each direction's.
    ///   - limits: `--max-frame-length` (applied to the given and detected formats) and
    ///     `--max-buffered`.
    ///   - renderer: Renders frames, events and totals.
    ///   - output: Where renderings go; written a block at a time.
    ///   - keepsTotals: Whether to keep each connection's ``ConnectionTotals`` for ``finish()``
    ///     (`--summary`; memory then grows by one small record per connection).
    init(format: FrameFormat?, limits: CaptureLimits = CaptureLimits(), renderer: Renderer, output: OutputStream, keepsTotals: Bool) {
        self.renderer = renderer
        self.output = output
        self.keepsTotals = keepsTotals
        self.limits = limits
        formatIsGiven = format != nil
        if let format { defaultFormat = register(limits.applied(to: format)) }
    }

    /// The exit status for what was rendered: 2 if any frame or event was bad.
    var exitStatus: ExitStatus { summary.isClean && captureProblems == 0 ? .success : .badInput }

    /// Takes one event of the capture.
    ///
    /// - Parameters:
    ///   - event: What the capture source found.
    ///   - time: The capture time of the packet it came from.
    /// - Throws: ``OutputError``; ``CommandFailure`` (exit 1) when directions waiting for a format
    ///   hold more than ``maxWaitingBytes``.
    mutating func consume(_ event: CaptureEvent, at time: Timestamp) throws {
        guard !reachedFrameLimit else { return }
        switch event {
        case .stream(let event):
            try consume(event, at: time)
        case .malformedPacket(let number, let reason, let offset):
            captureProblems += 1
            renderer.renderMalformedPacket(number: number, time: time, reason: reason, offset: offset, into: &output.buffer)
            try output.flushIfBlockFull()
        case .fragmentsDropped(let drop):
            captureProblems += 1
            renderer.renderFragmentsDropped(drop, time: time, into: &output.buffer)
            try output.flushIfBlockFull()
        case .latestCounters:
            break
        }
    }

    private mutating func consume(_ event: ReassemblyEvent, at time: Timestamp) throws {
        switch event {
        case .connectionOpened(let number, let client, let server, _):
            let connection = ConnectionFraming(number: number, client: client, server: server)
            if formatIsGiven, let defaultFormat {
                for direction in connection.directions { use(defaultFormat, for: direction) }
            }
            connections[number] = connection
        case .data(let number, let direction, _, let bytes):
            guard let stream = connections[number]?.directions[direction.rawValue] else { return }
            stream.time = time
            if stream.decoder != nil {
                try step(stream, at: time) { decoder, emit in try decoder.process(bytes, emit) }
            } else {
                stream.hold(.data(Array(bytes)), at: time)
                if stream.isWaiting {
                    waitingBytes += bytes.count
                    try checkWaitingBudget()
                } else if stream.heldDataPrefix.count >= DirectionFraming.detectionProbeLength {
                    try detect(stream)
                }
            }
        case .gap(let number, let direction, _, let length, _):
            guard let stream = connections[number]?.directions[direction.rawValue] else { return }
            stream.time = time
            if stream.decoder != nil {
                try step(stream, at: time) { decoder, emit in try decoder.noteGap(byteCount: length, emit) }
            } else {
                stream.hold(.gap(length), at: time)
                if !stream.isWaiting { try detect(stream) }
            }
        case .directionClosed(let number, let direction, _, _):
            guard let stream = connections[number]?.directions[direction.rawValue] else { return }
            stream.time = time
            try end(stream, at: time)
        case .connectionClosed(let closed, _):
            guard let connection = connections.removeValue(forKey: closed.connection) else { return }
            for stream in connection.directions {
                stream.time = time
                try end(stream, at: time)
            }
            if keepsTotals { closedConnections.append(connection) }
        case .limitHit(let limit, let number, let direction):
            captureProblems += 1
            guard let connection = connections[number] else { return }
            let label = connection.directions[(direction ?? .clientToServer).rawValue].label
            renderer.renderLimit(.reassembly(limit), label: label, time: time, into: &output.buffer)
            try output.flushIfBlockFull()
        }
    }

    /// Ends the run: directions still waiting for a format get the default one (or decode fails),
    /// then the `--summary` totals and the closing text.
    ///
    /// - Throws: ``CommandFailure`` (exit 1) when streams had data but no format could be
    ///   detected; ``OutputError``.
    mutating func finish() throws {
        if !waiting.isEmpty {
            guard defaultFormat != nil else { throw noFormatFailure(waiting[0]) }
            try resolveWaiting()
        }
        if undetectedStreams > 1, let defaultFormat {
            StandardError.writeLine(
                "framedump: \(undetectedStreams) streams in all fit no preset format and were decoded as \(formats[defaultFormat].name)")
        }
        if keepsTotals {
            for connection in closedConnections.sorted(by: { $0.number < $1.number }) {
                renderer.renderTotals(connection.totals, into: &output.buffer)
                try output.flushIfBlockFull()
            }
        }
        renderer.finish(summary, into: &output.buffer)
        try output.flush()
    }

    /// Runs one step of `stream`'s decoder (its outputs rendered), then counts what the decoder
    /// holds and keeps the total of all decoders within `--max-buffered`.
    private mutating func step(
        _ stream: DirectionFraming,
        at time: Timestamp,
        _ body: (inout FrameDecoder, (FrameDecoderOutput) throws -> Void) throws -> Void
    ) throws {
        var completedFrame = false
        try body(&stream.decoder!) { decoded in
            if case .frame = decoded { completedFrame = true }
            try emit(decoded, from: stream)
        }
        countBuffered(stream, completedFrame: completedFrame)
        if bufferedBytes > limits.maxBufferedBytes { try giveUpPartialFrames(at: time) }
    }

    /// Brings ``bufferedBytes`` and the queue of partial frames up to date with what `stream`'s
    /// decoder holds now (nothing once it is released).
    private mutating func countBuffered(_ stream: DirectionFraming, completedFrame: Bool) {
        let held = stream.decoder?.bufferedByteCount ?? 0
        bufferedBytes += held - stream.countedBufferedBytes
        stream.countedBufferedBytes = held
        if held == 0 {
            partialFrames.remove(stream)
        } else if completedFrame || !stream.isQueued {
            partialFrames.moveToBack(stream)
        }
    }

    /// `--max-buffered` reached: the partial frames that have waited longest are given up —
    /// a `limit` event, then `truncated` — until the total is within the limit again.
    private mutating func giveUpPartialFrames(at time: Timestamp) throws {
        while bufferedBytes > limits.maxBufferedBytes, let oldest = partialFrames.first {
            captureProblems += 1
            oldest.time = time
            renderer.renderLimit(.bufferedBytesTotal, label: oldest.label, time: time, into: &output.buffer)
            try oldest.decoder!.abandonPartialFrame { try emit($0, from: oldest) }
            countBuffered(oldest, completedFrame: false)
        }
    }

    private mutating func emit(_ decoded: FrameDecoderOutput, from stream: DirectionFraming) throws {
        guard !reachedFrameLimit else { return }
        summary.count(decoded)
        stream.totals?.count(decoded, commandField: stream.commandField)
        renderer.render(decoded, format: stream.formatIndex, label: stream.label, time: stream.time, into: &output.buffer)
        try output.flushIfBlockFull()
    }

    /// The end of a direction (its FIN, or the connection's close): the decoder reports its
    /// unfinished tail and is released. A direction still deciding its format decides now.
    private mutating func end(_ stream: DirectionFraming, at time: Timestamp) throws {
        guard !stream.isFinished else { return }
        if stream.decoder != nil {
            try stream.decoder!.finish { try emit($0, from: stream) }
            stream.release()
            countBuffered(stream, completedFrame: false)
        } else if stream.held.isEmpty {
            stream.release()
        } else {
            stream.hold(.end, at: time)
            if stream.isWaiting {
                try checkWaitingBudget()
            } else {
                try detect(stream)
            }
        }
    }

    /// Chooses `stream`'s format from its held bytes and replays them; or, when they fit no
    /// preset and no format is known yet, puts the stream on the waiting list.
    private mutating func detect(_ stream: DirectionFraming) throws {
        if let format = FrameFormat.detect(stream.heldDataPrefix).map(limits.applied) {
            let index: Int
            if let known = formats.firstIndex(of: format) {
                index = known
            } else {
                index = register(format)
                StandardError.writeLine(
                    "framedump: detected format \(format.name) from the first bytes of \(stream.name) "
                        + "(use --format to choose another)")
            }
            try replay(stream, with: index)
            if defaultFormat == nil {
                defaultFormat = index
                try resolveWaiting()
            }
        } else if let defaultFormat {
            noteUndetected(stream)
            try replay(stream, with: defaultFormat)
        } else {
            stream.isWaiting = true
            waiting.append(stream)
            waitingBytes += stream.heldByteCount
            try checkWaitingBudget()
        }
    }

    /// Decodes the waiting directions with the default format, in the order they started waiting.
    private mutating func resolveWaiting() throws {
        guard let defaultFormat else { return }
        let resolved = waiting
        waiting.removeAll()
        waitingBytes = 0
        for stream in resolved {
            stream.isWaiting = false
            noteUndetected(stream)
            try replay(stream, with: defaultFormat)
        }
    }

    /// Gives `stream` the format at `index` and feeds its decoder everything held, each input
    /// labelled with the time of the packet it came in.
    private mutating func replay(_ stream: DirectionFraming, with index: Int) throws {
        use(index, for: stream)
        let held = stream.held
        stream.held.removeAll()
        stream.heldByteCount = 0
        for (input, time) in held {
            stream.time = time
            switch input {
            case .data(let bytes):
                try step(stream, at: time) { decoder, emit in try decoder.process(bytes, emit) }
            case .gap(let length):
                try step(stream, at: time) { decoder, emit in try decoder.noteGap(byteCount: length, emit) }
            case .end:
                try end(stream, at: time)
            }
        }
    }

    private mutating func use(_ index: Int, for stream: DirectionFraming) {
        let format = formats[index]
        stream.formatIndex = index
        stream.decoder = FrameDecoder(format: format)
        stream.commandField = format.fields.firstIndex { $0.name == "cmd" }
        if keepsTotals { stream.totals = StreamTotals(format: format) }
    }

    private mutating func register(_ format: FrameFormat) -> Int {
        formats.append(format)
        let index = renderer.add(format)
        assert(index == formats.count - 1)
        return index
    }

    /// Says on standard error, the first time only, that a stream fit no preset.
    private mutating func noteUndetected(_ stream: DirectionFraming) {
        guard stream.heldByteCount > 0, let defaultFormat else { return }
        undetectedStreams += 1
        if undetectedStreams == 1 {
            StandardError.writeLine(
                "framedump: the first bytes of \(stream.name) fit no preset format; decoding it as \(formats[defaultFormat].name)")
        }
    }

    private func checkWaitingBudget() throws {
        if waitingBytes > Self.maxWaitingBytes, let first = waiting.first { throw noFormatFailure(first) }
    }

    /// Decode cannot go on without a format: name the first stream that fit none and its bytes.
    private func noFormatFailure(_ stream: DirectionFraming) -> CommandFailure {
        let prefix = stream.heldDataPrefix
        var shown: [UInt8] = []
        for byte in prefix.prefix(8) {
            if !shown.isEmpty { shown.append(UInt8(ascii: " ")) }
            ByteFormatting.appendHex(byte, to: &shown)
        }
        let presets = FrameFormat.presets.map(\.name).joined(separator: ", ")
        let what = prefix.isEmpty
            ? "no stream starts with data a format can be detected from (first: \(stream.name))"
            : "no preset format fits the first bytes of any stream (first: \(stream.name): "
                + "\(String(decoding: shown, as: UTF8.self))\(prefix.count > 8 ? " ..." : ""))"
        return CommandFailure(
            message: """
            framedump decode: \(what)
            Choose one with --format NAME|SPEC; presets: \(presets) (see 'framedump formats').
            """,
            status: .usage
        )
    }
}
