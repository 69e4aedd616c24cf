import FrameCodec
import PacketDecoding

/// `framedump decode` on a capture: wires a ``CaptureSource`` to a ``CaptureDecodePipeline``
/// and a ``CaptureRenderer`` (JSON Lines or text), and turns what happened into the exit status.
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
    ///   - prefix: The bytes already read from standard input.
    ///   - filter: The BPF filter, if any.
    ///   - format: The `--format`, or `nil` to detect each direction's.
    ///   - arguments: The rest of the options (`--json`, `--payload`, `--color`, `--summary`).
    ///   - context: Standard output and the environment.
    /// - Returns: 0 when every byte of every stream was in a good frame; 2 when anything was bad
    ///   or lost (a bad frame or event, a gap, a malformed packet, a reassembly limit, an
    ///   unsupported link type, a read error).
    /// - Throws: ``CommandFailure``: the capture cannot be opened (exit 2), the filter does not
    ///   compile (exit 1, libpcap's message), no format fits (exit 1).
    static func run(path: String, prefix: [UInt8], filter: String?, format: FrameFormat?,
                    arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let source = try CaptureSource(path: path, prefix: prefix)
        if let filter { try source.setFilter(filter) }
        let includesPayload = arguments.value("payload") != "none"
        let keepsTotals = arguments.flag("summary")
        if arguments.flag("json") {
            let renderer = CaptureJSONRenderer(includesPayload: includesPayload)
            return try decode(source, format: format, renderer: renderer, keepsTotals: keepsTotals, context: context)
        }
        let choice = ColorChoice(rawValue: arguments.value("color") ?? "auto") ?? .auto
        let style = TextStyle(
            enabled: Terminal.usesColor(choice, environment: context.environment, outputIsTerminal: context.outputIsTerminal)
        )
        let renderer = CaptureTextRenderer(style: style, showsBody: includesPayload)
        return try decode(source, format: format, renderer: renderer, keepsTotals: keepsTotals, context: context)
    }

    private static func decode(_ source: CaptureSource, format: FrameFormat?, renderer: some CaptureRenderer,
                               keepsTotals: Bool, context: CommandContext) throws -> ExitStatus {
        let pipeline = CaptureDecodePipeline(format: format, renderer: renderer, output: context.output, keepsTotals: keepsTotals)
        let statistics: CaptureStatistics
        do {
            statistics = try source.run(limits: .default) { event, time in try pipeline.consume(event, at: time) }
            try pipeline.finish()
        } catch OutputError.closed {
            return pipeline.exitStatus
        }
        if let error = statistics.readError {
            StandardError.writeLine("framedump: \(source.displayName): \(error) (decoded the \(statistics.packets) packets before it)")
            return .badInput
        }
        return statistics.unsupportedPackets > 0 ? .badInput : pipeline.exitStatus
    }
}
