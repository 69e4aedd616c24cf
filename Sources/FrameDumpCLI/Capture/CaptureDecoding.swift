import FrameCodec
import PacketCapture
import PacketDecoding
import StreamFraming

/// `framedump decode` on a capture: wires a ``CaptureSource`` to a ``DecodeSession`` (the
/// framing engine and an ``OutputRenderer``, JSON Lines or text), and turns what happened into
/// the exit status.
enum CaptureDecoding {
    /// The BPF filter the command line gives: `-f EXPR`, the trailing words joined by spaces
    /// (tcpdump's convention, so `tcp port 9000` needs no quotes), or both joined with `and`.
    ///
    /// - Returns: The expression, or `nil` when there is none.
    static func filter(option: String?, words: ArraySlice<String>) -> String? {
        let trailing = words.isEmpty ? nil : words.joined(separator: " ")
        switch (option, trailing) {
        case (let option?, let trailing?): return "(\(option)) and (\(trailing))"
        case (let option?, nil): return option
        case (nil, let trailing?): return trailing
        case (nil, nil): return nil
        }
    }

    /// Decodes the capture at `path` (or standard input) as `decode`'s options say.
    ///
    /// - Parameters:
    ///   - path: A file, or `-`.
    ///   - opened: What identifying the input read and left open (see ``InputKind/Opened``).
    ///   - filter: The BPF filter, if any.
    ///   - process: `--process`: keep only this process's connections (PKTAP), if given.
    ///   - options: `--format`, `--json`, `--payload`, `--color`.
    ///   - limits: The reassembly and framing bounds (`--max-ooo-bytes`, `--max-buffered`, …).
    ///   - keepsTotals: `--summary`.
    ///   - context: Standard output and the environment.
    ///   - frameLimit: Stop reading after this many frames (`decode -c`); `nil`: read to the end.
    ///   - tlsKeys: Decrypt TLS connections with these keys (`--tls-keylog`, the file's own
    ///     secrets blocks); `nil`: frame every connection's bytes as they are.
    /// - Returns: 0 when every byte of every stream was in a good frame; 2 when anything was bad
    ///   or lost (a bad frame or event, a gap, a malformed packet, a reassembly limit, an
    ///   unsupported link type or layer, a read error).
    /// - Throws: ``CommandFailure``: the capture cannot be opened (exit 2), the filter does not
    ///   compile (exit 1, libpcap's message), no format fits (exit 1).
    static func run(path: String, opened: InputKind.Opened, filter: String?, process: ProcessSelector? = nil, options: FrameOutputOptions,
                    limits: CaptureLimits, keepsTotals: Bool, context: CommandContext, frameLimit: Int? = nil,
                    tlsKeys: KeyLogFile? = nil) throws -> ExitStatus {
        var source = try CaptureSource(path: path, opened: opened)
        if let filter { try source.setFilter(filter) }
        source.processSelector = process
        source.progress = ProgressLine.forInput(path: path, opened: opened, outputIsTerminal: context.outputIsTerminal)
        // From a pipe (`tcpdump -w - | framedump decode -`) frames show as their packet arrives.
        let outcome = try decode(source, options: options, limits: limits, keepsTotals: keepsTotals, context: context,
                                 frameLimit: frameLimit, flushesEachPacket: opened.arrivesLive, tlsKeys: tlsKeys)
        if let error = outcome.statistics?.readError {
            StandardError.writeLine(readErrorLine(error, in: source, packets: outcome.statistics!.packets, verb: "decoded"))
            return .badInput
        }
        // `0 frames` alone does not say whether the streams held no frame or the filter kept no segment
        // (an unsupported link type has had its own warning).
        if let statistics = outcome.statistics, statistics.segments == 0, statistics.unsupportedPackets == 0 {
            let kept = filter.map { " (\(counted(statistics.packets, "packet")) matched the filter: \($0))" } ?? " (\(counted(statistics.packets, "packet")))"
            StandardError.writeLine("framedump decode: no TCP segments in \(source.displayName)\(kept)")
        }
        return outcome.status
    }

    /// `framedump: NAME: ERROR (VERB the N packets before it)`: a read error, where reading
    /// stopped, and how far the command got.
    private static func readErrorLine(_ error: CaptureError, in source: CaptureSource, packets: Int, verb: String) -> String {
        "framedump: \(source.displayName): \(error) (\(verb) the \(counted(packets, "packet")) before it)"
    }

    /// What decoding a capture gave.
    struct Outcome {
        /// 0 when every byte was in a good frame and every packet decoded; 2 otherwise.
        var status: ExitStatus
        /// Frames and events rendered.
        var summary: DecodeSummary
        /// Packet counts; `nil` when standard output closed first.
        var statistics: CaptureStatistics?
    }

    /// Decodes what `source` delivers, rendered as the options say: the path `decode FILE` and
    /// `capture -i` share.
    ///
    /// - Parameters:
    ///   - source: The packets.
    ///   - options: `--format` (or detection), `--json`, `--payload`, `--color`.
    ///   - limits: The reassembly and framing bounds.
    ///   - keepsTotals: `--summary`.
    ///   - context: Standard output and the environment.
    ///   - frameLimit: Stop reading after this many frames (`capture -c`, `decode -c`); `nil`: read to the end.
    ///   - flushesEachPacket: Write out each packet's renderings before the next read, so a live
    ///     capture prints each frame the moment it completes (otherwise a block at a time), and
    ///     do not hold frames back behind undecided streams for capture order.
    ///   - packetObserver: Sees every packet read (`capture -w`).
    ///   - tlsKeys: Decrypt TLS connections with these keys; `nil`: no TLS layer.
    /// - Returns: The status, the counts and the packet statistics. A read error is in
    ///   `statistics.readError`, for the caller to report; it does not change `status`.
    /// - Throws: ``CommandFailure`` (exit 1) when no format fits; its message starts with the
    ///   read error when the reading had stopped at one.
    static func decode(_ source: CaptureSource, options: FrameOutputOptions, limits: CaptureLimits, keepsTotals: Bool,
                       context: CommandContext, frameLimit: Int? = nil, flushesEachPacket: Bool = false,
                       packetObserver: ((CapturedPacket) throws -> Void)? = nil, tlsKeys: KeyLogFile? = nil) throws -> Outcome {
        func decode(with renderer: some OutputRenderer) throws -> Outcome {
            var configuration = limits.framing(format: options.format)
            // Live: each frame is printed when its packet comes, not held behind another stream's.
            configuration.ordersAcrossStreams = !flushesEachPacket
            if !options.readsFrameBodies { configuration.bodyRetention = .headersOnly }
            var session = DecodeSession(configuration: configuration, renderer: renderer,
                                        output: context.output, keepsTotals: keepsTotals, tlsKeys: tlsKeys,
                                        webSocket: options.webSocket.map { limits.webSocket($0) },
                                        detectedWebSocket: options.format == nil && options.webSocket == nil
                                            ? limits.webSocket(options.detectedWebSocket) : nil)
            session.frameLimit = frameLimit
            let statistics: CaptureStatistics
            do {
                if packetObserver == nil, frameLimit == nil, !flushesEachPacket {
                    // A file: read ahead on a second thread (same events, same order).
                    statistics = try CaptureReadAhead.run(source, limits: limits.reassembly, overlapPolicy: limits.overlapPolicy) { event, time in
                        try session.consume(event, at: time)
                    }
                } else {
                    statistics = try source.run(limits: limits.reassembly, overlapPolicy: limits.overlapPolicy, packetObserver: packetObserver, packetDone: {
                        if flushesEachPacket, !context.output.buffer.isEmpty { try context.output.flush() }
                        return !session.reachedFrameLimit
                    }) { event, time in try session.consume(event, at: time) }
                }
                try session.renderUnsupported(UnsupportedLayerCounts(statistics))
                do {
                    try session.finish()
                } catch var failure as CommandFailure {
                    // Still undecided when the reading stopped at a damaged record: the damage
                    // is news too, and the format might have shown in the bytes after it.
                    guard let error = statistics.readError else { throw failure }
                    failure.message = readErrorLine(error, in: source, packets: statistics.packets, verb: "read") + "\n" + failure.message
                    throw failure
                }
            } catch OutputError.closed {
                return Outcome(status: session.exitStatus, summary: session.summary, statistics: nil)
            }
            let status = statistics.unsupportedPackets > 0 || statistics.readError != nil ? .badInput : session.exitStatus
            return Outcome(status: status, summary: session.summary, statistics: statistics)
        }
        if options.json {
            return try decode(with: JSONLinesOutputRenderer(includesPayload: options.includesPayload, bodies: options.bodies))
        }
        return try decode(with: TextOutputRenderer(style: options.textStyle(context), showsBody: true, bodies: options.bodies))
    }
}
