import FrameCodec
import PacketCapture
import PacketDecoding
import StreamFraming
import TLSDecryption
import WebSocketFraming

/// One run of `decode`, `capture` or a live command: the ``FramingEngine`` that frames every
/// stream, and what the CLI does with its events — render them, count them, and say on standard
/// error which format was chosen.
///
/// ```
/// hex dump ─────────────── open/receive/end ─┐
/// capture: CaptureEvent ── consume ──────────┼─> FramingEngine ──FramingEvent──> OutputRenderer ──> OutputStream
/// socket: LiveDecoding ─── open/receive/end ─┘     (StreamFraming)                 (text / JSON Lines)
/// ```
///
/// The session owns no format policy and no bound: those are the engine's. It adds the
/// output-side concerns: the renderer's per-format registrations, the counts behind the exit
/// status, `--summary`'s totals, `capture -c`'s frame limit and `listen --respond`'s observer.
///
/// With TLS keys or `--format websocket`, a capture's connections pass through their layers (a
/// ``ConnectionLayerStack`` each, of ``ConnectionLayers``) between reassembly and the engine: the
/// engine frames each direction's plaintext (or, with `--inner`, its WebSocket binary messages'
/// payloads), and the layers' events (WebSocket's frames among them) are rendered with the frames.
///
/// A struct, held in a local and mutated in place (see ``FramingEngine``): its engine and its
/// sink are disjoint stored properties, so the engine's callback may mutate the sink.
struct DecodeSession<Renderer: OutputRenderer> {
    private var engine: FramingEngine<StreamContext>
    private var sink: Sink
    /// The layers of each open connection; `nil` without TLS keys or WebSocket.
    private var layers: ConnectionLayers?
    /// The chunk times of each connection whose layer has not decided yet whether it is TLS.
    private var probeTimes: [Int: ProbeTimes] = [:]

    /// - Parameters:
    ///   - configuration: The format policy and the framing bounds.
    ///   - renderer: Renders frames, events and totals.
    ///   - output: Where renderings go; written a block at a time.
    ///   - keepsTotals: Whether to keep each connection's ``ConnectionTotals`` for ``finish()``
    ///     (`--summary`; memory then grows by one small record per connection).
    ///   - alwaysCloses: Whether ``finish()`` writes the closing text even when no stream had a
    ///     format (a capture: `0 frames`); a hex dump with no bytes writes nothing.
    ///   - tlsKeys: Decrypt TLS connections of a capture with these keys; `nil`: frame every
    ///     connection's bytes as they are.
    ///   - webSocket: Read every connection of a capture as WebSocket (`--format websocket`).
    ///   - detectedWebSocket: Read a capture's connections that begin with a WebSocket Upgrade
    ///     as WebSocket, so (no `--format`); `nil`: look for none.
    init(configuration: FramingConfiguration, renderer: Renderer, output: OutputStream, keepsTotals: Bool = false,
         alwaysCloses: Bool = true, tlsKeys: TLSKeyProvider? = nil, webSocket: WebSocketSettings? = nil,
         detectedWebSocket: WebSocketSettings? = nil) {
        engine = FramingEngine(configuration: configuration)
        layers = ConnectionLayers(keys: tlsKeys, webSocket: webSocket, detectedWebSocket: detectedWebSocket)
        sink = Sink(renderer: renderer, output: output, keepsTotals: keepsTotals, alwaysCloses: alwaysCloses)
        if let format = engine.formats.first {
            sink.register(format)
            sink.givenFormat = format
        }
    }

    /// Counts of every frame and event rendered.
    var summary: DecodeSummary { sink.summary }

    /// Where renderings go.
    var output: OutputStream { sink.output }

    /// The exit status for what was rendered: 2 if any frame or event was bad, or any data lost.
    var exitStatus: ExitStatus { sink.summary.isClean && sink.problems == 0 ? .success : .badInput }

    /// How many frames to render before stopping (`-c N`), or `nil` for no limit. Once reached,
    /// later frames and events are neither rendered nor counted.
    var frameLimit: Int? {
        get { sink.frameLimit }
        set { sink.frameLimit = newValue }
    }

    /// Whether ``frameLimit`` frames have been rendered.
    var reachedFrameLimit: Bool { sink.reachedFrameLimit }

    /// Sees every frame and event after it is rendered, with its stream: `listen --respond`
    /// answers requests from here.
    var observer: ((StreamKey, FrameDecoderOutput) throws -> Void)? {
        get { sink.observer }
        set { sink.observer = newValue }
    }

    /// Takes one event of a capture.
    ///
    /// - Parameters:
    ///   - event: What the capture's reassembly found.
    ///   - time: The capture time of the packet it came from.
    /// - Throws: ``OutputError``; ``CommandFailure`` (exit 1) when no format can be found.
    mutating func consume(_ event: CaptureEvent, at time: Timestamp) throws {
        guard !sink.reachedFrameLimit else { return }
        if layers != nil, case .stream(let event) = event, try consumeLayered(event, at: time) { return }
        switch event {
        case .stream(.data(let connection, let direction, _, let bytes)):
            // Stream data, the event of almost every packet, matched here rather than through
            // the engine's adapter: binding the whole event copied it (and its payload) per packet.
            do {
                try engine.receive(bytes, on: StreamKey(connection: connection, direction: direction), at: time, into: &sink)
            } catch is FormatDetectionError {
                throw sink.detectionFailure
            }
        case .stream(let event):
            // The contexts are made from two values, not from the sink: a closure over the sink
            // would copy it.
            let (keepsTotals, givenFormat, process) = (sink.keepsTotals, sink.givenFormat, sink.nextProcess)
            sink.nextProcess = nil
            try framing { engine, sink in
                try engine.consume(event, at: time, contexts: { connection, client, server in
                    let process = process?.connection == connection ? process?.process : nil
                    return Sink.contexts(client: StreamLabel(connection: connection, direction: .clientToServer, source: client,
                                                             destination: server, process: process),
                                         keepsTotals: keepsTotals, givenFormat: givenFormat)
                }, into: &sink)
            }
            if case .connectionOpened(let connection, _, _, _) = event, let layer = layers?.layer(connection) {
                try framing { engine, sink in try Self.frameInner(of: connection, layer, &engine, &sink) }
            }
        case .connectionProcess(let connection, let process):
            sink.nextProcess = (connection, process)
        case .malformedPacket(let number, let reason, let offset):
            sink.problems += 1
            sink.renderer.renderMalformedPacket(number: number, time: time, reason: reason, offset: offset, into: &sink.output.buffer)
            try sink.output.flushIfBlockFull()
        case .fragmentsDropped(let drop):
            sink.problems += 1
            sink.renderer.renderFragmentsDropped(drop, time: time, into: &sink.output.buffer)
            try sink.output.flushIfBlockFull()
        case .unsupportedLinkType, .latestCounters:
            break
        }
    }

    /// With `--summary`, renders the packets a capture skipped for an unsupported layer (none: nothing).
    mutating func renderUnsupported(_ counts: UnsupportedLayerCounts) throws {
        guard sink.keepsTotals, counts.packets > 0 else { return }
        sink.renderer.renderUnsupported(counts, into: &sink.output.buffer)
        try sink.output.flushIfBlockFull()
    }

    /// Feeds a reassembly event of a connection that has a layer to the layer, whose outputs go
    /// to the engine; a new connection gets its layer (and is then opened as usual).
    ///
    /// - Returns: Whether the event was handled; `false` for what the engine takes directly.
    private mutating func consumeLayered(_ event: ReassemblyEvent, at time: Timestamp) throws -> Bool {
        switch event {
        case .connectionOpened(let connection, _, _, let roles):
            layers!.open(connection, roles: roles)
            return false
        case .data(let connection, let direction, _, let bytes):
            guard let layer = layers!.layer(connection) else { return false }
            if let tls = layer.tls, tls.isTLS == nil {
                probeTimes[connection, default: ProbeTimes()].record(bytes.count, of: direction, at: time)
            }
            try throughLayer(connection, at: time) { emit in try layer.receive(bytes, from: direction, emit) }
            // Decrypted bytes have no chunk of their own: they come when their record is complete.
            if layer.tls?.isTLS == true { probeTimes[connection] = nil }
            // Not WebSocket, no TLS: its later bytes go to the engine directly.
            if layer.isTransparent {
                _ = layers!.close(connection)
                probeTimes[connection] = nil
            }
        case .gap(let connection, let direction, _, let length, _):
            guard let layer = layers!.layer(connection) else { return false }
            try throughLayer(connection, at: time) { emit in try layer.noteGap(byteCount: length, from: direction, emit) }
        case .directionClosed(let connection, let direction, _, _):
            guard let layer = layers!.layer(connection) else { return false }
            try throughLayer(connection, at: time) { emit in try layer.endStream(direction, emit) }
        case .connectionClosed(let summary, _):
            if let layer = layers!.close(summary.connection) {
                try throughLayer(summary.connection, at: time) { emit in
                    for direction in StreamDirection.allCases { try layer.endStream(direction, emit) }
                }
            }
            probeTimes[summary.connection] = nil
            return false
        case .notice(let notice, let connection, let direction):
            // A discarded range is of the layer's input (TCP offsets), not of the stream the engine
            // frames: the layer takes it as a gap (TLS stops the direction, WebSocket resyncs) and
            // says what it cost its own stream; the notice is shown as it is, like a layer's event.
            guard case .discarded(_, let length, _) = notice, let layer = layers!.layer(connection) else { return false }
            if let context = engine.stream(StreamKey(connection: connection, direction: direction))?.context, let label = context.label {
                try sink.receive(notice, label: label, time: time)
            }
            try throughLayer(connection, at: time) { emit in try layer.noteGap(byteCount: length, from: direction, emit) }
        case .limitHit, .connectionForgotten:
            return false
        }
        return true
    }

    /// Runs a layer step whose outputs feed `connection`'s streams in the engine; bytes the
    /// layer held while it decided are framed at their own packets' times.
    private mutating func throughLayer(
        _ connection: Int, at time: Timestamp,
        _ step: ((ConnectionLayerOutput<LayerEvent>) throws -> Void) throws -> Void
    ) throws {
        var held = probeTimes.removeValue(forKey: connection)
        defer { if let held, !held.isEmpty { probeTimes[connection] = held } }
        let layer = layers!.layer(connection)
        try framing { engine, sink in
            try step { output in
                switch output {
                case .data(let bytes, let direction):
                    let key = StreamKey(connection: connection, direction: direction)
                    guard held != nil else { return try engine.receive(bytes, on: key, at: time, into: &sink) }
                    try held!.split(bytes, of: direction, now: time) { piece, pieceTime in
                        try engine.receive(piece, on: key, at: pieceTime, into: &sink)
                    }
                case .gap(let byteCount, let direction):
                    try engine.noteGap(byteCount: byteCount, on: StreamKey(connection: connection, direction: direction), at: time, into: &sink)
                case .end(let direction):
                    try engine.endStream(StreamKey(connection: connection, direction: direction), at: time, into: &sink)
                case .event(let event):
                    if case .webSocketDetected = event, let layer {
                        try Self.frameInner(of: connection, layer, &engine, &sink)
                    }
                    let direction = event.direction ?? .clientToServer
                    guard let context = engine.stream(StreamKey(connection: connection, direction: direction))?.context,
                          let label = context.label else { return }
                    try sink.receive(event, label: label, totals: context.totals, time: time)
                    // The response head is the server's bytes: its direction counts them.
                    if case .webSocket(let event) = event, case .handshake = event,
                       let server = engine.stream(StreamKey(connection: connection, direction: .serverToClient))?.context.totals {
                        server.count(event, of: .serverToClient)
                    }
                }
            }
        }
    }

    /// Once `connection` is known to be WebSocket, tells the engine how to frame its streams: not
    /// at all without `--inner` (the layer consumes every byte, so they must not wait for a
    /// format), with `--inner FORMAT`'s format when detection found the connection; otherwise
    /// (the run's format, `--inner auto`) by the engine's policy.
    private static func frameInner(of connection: Int, _ layer: ConnectionLayerStack,
                                   _ engine: inout FramingEngine<StreamContext>, _ sink: inout Sink) throws {
        guard layer.webSocket != nil else { return }
        if !layer.passesInner {
            try engine.frame(connection, with: .none, into: &sink)
        } else if let format = layer.settings?.innerFormat {
            let (index, isNew) = engine.addFormat(format)
            if isNew { sink.register(engine.formats[index]) }
            try engine.frame(connection, with: .format(index), into: &sink)
        }
    }

    /// Opens a connection of labelled streams (a socket's) or the single unlabelled stream of a
    /// hex dump (`client: nil`, connection 0).
    mutating func openConnection(_ connection: Int, client: StreamLabel?) {
        let (clientContext, serverContext) = Sink.contexts(client: client, keepsTotals: sink.keepsTotals, givenFormat: sink.givenFormat)
        engine.openConnection(connection, client: clientContext, server: serverContext)
    }

    /// Frames the next bytes of `key`'s stream, arrived at `time`.
    ///
    /// - Throws: ``OutputError``; ``CommandFailure`` (exit 1) when no format can be found.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, on key: StreamKey, at time: Timestamp) throws {
        try framing { engine, sink in try engine.receive(bytes, on: key, at: time, into: &sink) }
    }

    /// Ends `key`'s stream: an unfinished frame is reported `truncated`.
    mutating func end(_ key: StreamKey, at time: Timestamp) throws {
        try framing { engine, sink in try engine.endStream(key, at: time, into: &sink) }
    }

    /// Ends both streams of `connection` (unfinished frames reported `truncated`) and forgets it.
    mutating func closeConnection(_ connection: Int, at time: Timestamp) throws {
        try framing { engine, sink in try engine.closeConnection(connection, at: time, into: &sink) }
    }

    /// Ends the run: open streams end, streams still waiting for a format get the fallback (or
    /// the run fails), then the `--summary` totals and the closing text.
    ///
    /// - Throws: ``CommandFailure`` (exit 1) when streams had data but no format could be
    ///   detected; ``OutputError``.
    mutating func finish() throws {
        try framing { engine, sink in try engine.finish(into: &sink) }
        if engine.assumedStreams > 1 {
            StandardError.writeLine(
                "framedump: \(engine.assumedStreams) streams in all fit no preset format and were decoded as \(engine.formats[0].name)")
        }
        if engine.skippedStreams > 0 {
            StandardError.writeLine(
                "framedump: \(engine.skippedStreams) streams fit no preset format while no stream had shown one; "
                    + "beyond the \(engine.configuration.maxUndecidedBytes) bytes they may hold waiting for one, their bytes were skipped")
        }
        try sink.finish(hasFormat: !engine.formats.isEmpty)
    }

    /// Runs a step of the engine, turning a failed detection into the command's usage error.
    private mutating func framing(_ body: (inout FramingEngine<StreamContext>, inout Sink) throws -> Void) throws {
        do {
            try body(&engine, &sink)
        } catch is FormatDetectionError {
            throw sink.detectionFailure
        }
    }
}

extension DecodeSession {
    /// Everything but the engine: the renderer and the counts; the engine's receiver.
    private struct Sink: FramingReceiver {
        var renderer: Renderer
        let output: OutputStream
        let keepsTotals: Bool
        let alwaysCloses: Bool
        /// Formats registered with the renderer, by renderer index (the engine's indices).
        var formats: [FrameFormat] = []
        /// The `--format`, limits applied, if one was given.
        var givenFormat: FrameFormat?
        var summary = DecodeSummary()
        /// Events that mean lost or undecodable data besides the decoder's and the reassembler's
        /// notices (counted in ``summary``): limits reached, malformed packets, dropped fragments.
        var problems = 0
        var frameLimit: Int?
        var observer: ((StreamKey, FrameDecoderOutput) throws -> Void)?
        /// Closed connections' totals, for `--summary` (a stream still waiting for a format
        /// adds to its totals later, through the shared ``StreamTotals``).
        var closedConnections: [ConnectionTotals] = []
        /// The failure to throw once the engine gives up detecting a format.
        var noFormatFailure: CommandFailure?

        /// ``noFormatFailure`` as the run ends with it: a usage error (exit 1, choose a format)
        /// when nothing was written, bad input (exit 2) when lines were — another connection's
        /// layer events, a given-up stream's skips — so a script reading them knows they are
        /// not the whole of the input.
        var detectionFailure: CommandFailure {
            var failure = noFormatFailure!
            if output.hasOutput { failure.status = .badInput }
            return failure
        }
        /// The process of the connection whose `connectionOpened` comes next (PKTAP captures).
        var nextProcess: (connection: Int, process: PacketProcess)?

        init(renderer: Renderer, output: OutputStream, keepsTotals: Bool, alwaysCloses: Bool) {
            self.renderer = renderer
            self.output = output
            self.keepsTotals = keepsTotals
            self.alwaysCloses = alwaysCloses
        }

        var reachedFrameLimit: Bool { frameLimit.map { summary.frames >= $0 } ?? false }

        mutating func register(_ format: FrameFormat) {
            formats.append(format)
            let index = renderer.add(format)
            assert(index == formats.count - 1)
        }

        /// The contexts of the streams `client` labels and its reverse (`nil`: a hex dump's), with
        /// `--summary` totals when `keepsTotals` (of `givenFormat` when the format was given).
        static func contexts(client: StreamLabel?, keepsTotals: Bool, givenFormat: FrameFormat?) -> (StreamContext, StreamContext) {
            func totals() -> StreamTotals? { keepsTotals ? StreamTotals(format: givenFormat) : nil }
            return (StreamContext(label: client, totals: totals()), StreamContext(label: client?.reversed, totals: totals()))
        }

        mutating func receive(_ decoded: FrameDecoderOutput, from stream: FramedStream<StreamContext>) throws {
            guard !reachedFrameLimit else { return }
            summary.count(decoded)
            // `nil` for a stream given up while no format was known: its bytes are skips.
            let format = stream.formatIndex
            // Held in a local, the context keeps its label alive for the call, so the label is
            // passed in place rather than copied.
            let context = stream.context
            if let totals = context.totals {
                if totals.format == nil, let format { totals.format = formats[format] }
                totals.count(decoded)
            }
            let time = context.isTimed ? stream.time : nil
            renderer.render(decoded, format: format, label: context.label, time: time, into: &output.buffer)
            try output.flushIfBlockFull()
            try observer?(stream.key, decoded)
        }

        mutating func receive(_ event: FramingEvent<StreamContext>) throws {
            switch event {
            case .output(let decoded, let stream):
                try receive(decoded, from: stream)
            case .formatDetected(let format, let stream, let isNew):
                guard isNew else { return }
                // The engine added it to its formats last; the renderer's indices follow the same order.
                register(format)
                StandardError.writeLine(
                    "framedump: detected format \(format.name) from the first bytes\(Self.of(stream)) (use --format to choose another)")
            case .formatAssumed(let stream):
                guard let format = stream.formatIndex, !noteGiven else { return }
                noteGiven = true
                StandardError.writeLine(
                    "framedump: the first bytes\(Self.of(stream)) fit no preset format; decoding it as \(formats[format].name)")
            case .formatUndetectable(let stream, let firstBytes):
                noFormatFailure = Self.noFormatFailure(stream, firstBytes: firstBytes)
            case .limit(let limit, let stream):
                problems += 1
                guard !reachedFrameLimit, let label = stream.context.label else { return }
                renderer.renderLimit(limit, label: label, time: stream.time, into: &output.buffer)
                try output.flushIfBlockFull()
            case .notice(let notice, let stream):
                guard let label = stream.context.label else {
                    if !reachedFrameLimit { summary.count(notice) }
                    return
                }
                try receive(notice, label: label, time: stream.time)
            case .connectionClosed(let client, let server):
                guard keepsTotals, let label = client.context.label else { return }
                closedConnections.append(ConnectionTotals(
                    connection: label.connection, client: label.source, server: label.destination,
                    directions: [client.context.totals!, server.context.totals!]))
            }
        }

        /// Renders and counts a reassembly notice about `label`'s stream.
        mutating func receive(_ notice: ReassemblyNotice, label: StreamLabel, time: Timestamp) throws {
            guard !reachedFrameLimit else { return }
            summary.count(notice)
            renderer.renderNotice(notice, label: label, time: time, into: &output.buffer)
            try output.flushIfBlockFull()
        }

        /// Whether the note about a stream that fit no preset was written (it is written once).
        var noteGiven = false
        /// Whether the note about a detected WebSocket connection was written (it is written once).
        var notedWebSocket = false

        /// Renders a layer's event; undecrypted bytes, WebSocket violations and unread bytes count
        /// as problems (exit status 2), WebSocket frames as frames.
        mutating func receive(_ event: LayerEvent, label: StreamLabel, totals: StreamTotals?, time: Timestamp) throws {
            guard !reachedFrameLimit else { return }
            switch event {
            case .tls(let event):
                switch event {
                case .noKey, .decryptError: problems += 1
                case .session, .alert: break
                }
                renderer.renderTLS(event, label: label, time: time, into: &output.buffer)
            case .webSocket(let event):
                totals?.count(event, of: label.direction)
                switch event {
                case .frame: summary.frames += 1
                case .violation, .unread: problems += 1
                case .handshake, .message: break
                }
                renderer.renderWebSocket(event, label: label, time: time, into: &output.buffer)
            case .webSocketDetected:
                guard !notedWebSocket else { return }
                notedWebSocket = true
                StandardError.writeLine("framedump: detected WebSocket from the Upgrade request of \(label.name) (use --format to choose another)")
            }
            try output.flushIfBlockFull()
        }

        mutating func finish(hasFormat: Bool) throws {
            if keepsTotals {
                for connection in closedConnections.sorted(by: { $0.connection < $1.connection }) {
                    renderer.renderTotals(connection, into: &output.buffer)
                    try output.flushIfBlockFull()
                }
            }
            if hasFormat || alwaysCloses { renderer.finish(summary, into: &output.buffer) }
            try output.flush()
        }

        /// ` of conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000`, or nothing for a hex dump's stream.
        private static func of(_ stream: FramedStream<StreamContext>) -> String {
            stream.context.label.map { " of \($0.name)" } ?? ""
        }

        /// Decoding cannot go on without a format: name the first stream that fit none and its bytes.
        private static func noFormatFailure(_ stream: FramedStream<StreamContext>, firstBytes: [UInt8]) -> CommandFailure {
            var shown: [UInt8] = []
            for byte in firstBytes.prefix(8) {
                if !shown.isEmpty { shown.append(UInt8(ascii: " ")) }
                ByteFormatting.appendHex(byte, to: &shown)
            }
            let bytes = String(decoding: shown, as: UTF8.self) + (firstBytes.count > 8 ? " ..." : "")
            let presets = FrameFormat.presets.map(\.name).joined(separator: ", ")
            let what = if let label = stream.context.label {
                firstBytes.isEmpty
                    ? "no stream starts with data a format can be detected from (first: \(label.name))"
                    : "no preset format fits the first bytes of any stream (first: \(label.name): \(bytes))"
            } else {
                "no preset format fits the first bytes (\(bytes))"
            }
            return CommandFailure(
                message: """
                framedump decode: \(what)
                Choose one with --format NAME|SPEC; presets: \(presets) (see 'framedump formats').
                """,
                status: .usage
            )
        }
    }
}
