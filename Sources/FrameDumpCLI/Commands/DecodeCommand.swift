import FrameCodec

/// `framedump decode [OPTIONS] [FILE|-] [FILTER...]`: splits a byte stream into frames and shows them.
///
/// The command only wires things together. A hex dump: a ``HexDumpSource`` produces stream
/// input, a ``DecodePipeline`` frames it, and a ``FrameRenderer`` (``TextRenderer`` or
/// ``JSONLinesWriter``) renders it into the buffered standard output. A capture (told apart by
/// its first bytes, ``InputKind``): see ``CaptureDecoding``.
enum DecodeCommand: Command {
    static let spec = CommandSpec(
        name: "decode",
        summary: "Split a byte stream into frames and show each frame and every bad byte.",
        discussion: """
        Reads a hex dump from FILE (or -r FILE), or from standard input when FILE is '-' or
        absent. One input only: merge captures first (mergecap -w merged.pcap a.pcap b.pcap).
        Any common dump form is accepted: plain hex, NSData <...>, xxd, hexdump -C, Wireshark's
        "Copy as Hex Dump", 0x.., C array literals; dumps separated by blank lines are one stream.

        A pcap or pcapng capture (told apart by its first bytes; also on standard input, e.g.
        'tcpdump -i lo --immediate-mode -U -w - port 9000 | framedump decode -') is reassembled per TCP connection
        and direction, and each direction is framed on its own; frames print as the packet that
        completes them is read. A filter (pcap-filter(7), as tcpdump takes it) keeps only the
        packets it matches: trailing words, or -f EXPR. -c N stops after N frames. While a
        capture file is read, a progress line shows on standard error when that is a terminal
        and standard output is not.

        Without --format the preset is detected from the first bytes and named on standard error.
        Exit status: 0 every byte in a good frame, 1 usage error, 2 bad frames (skip, oversize,
        checksum mismatch, truncated, gap) or unreadable input. JSON schema: docs/cli.md.
        """,
        options: [
            InputArgument.readOption,
            .value("count", short: "c", valueName: "N", help: "Stop after N frames (as capture -c); the exit status is\nthat of what was decoded."),
        ] + FrameOutputOptions.specs(
            formatHelp: "A preset (see 'framedump formats') or a layout spec,\ne.g. 'magic:u16=0x55AA ver:u8 cmd:u8 len:u32be crc:crc32be'."
        ) + [
            .value(
                "filter", short: "f", valueName: "EXPR",
                help: "Captures: keep only packets matching this BPF filter\n(pcap-filter(7)), e.g. 'tcp port 9000'."
            ),
            .flag("summary", help: "Captures: print totals per connection at the end\n(frames, bytes, skips, gaps, crc errors, cmd histogram)."),
        ] + CaptureLimits.framingOptions + CaptureLimits.reassemblyOptions,
        positionals: [
            PositionalSpec(name: "FILE|-", isOptional: true, help: "The hex dump or capture to read; '-' or absent: standard input."),
            PositionalSpec(name: "FILTER...", isOptional: true, help: "Captures: a BPF filter, as words (joined by spaces).", isVariadic: true),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let format = try arguments.value("format").map(resolveFormat)
        let limits = try CaptureLimits(arguments)
        let frameLimit = try arguments.positiveInteger("count")
        let input = try InputArgument(arguments)
        let path = input.path ?? "-"
        if path == "-", Terminal.isTerminal(0) {
            // Otherwise a bare `framedump decode` looks hung.
            StandardError.writeLine("framedump: reading a hex dump from standard input; end it with Ctrl-D")
        }
        let filter = CaptureDecoding.filter(option: arguments.value("filter"), words: input.filterWords)
        let opened: InputKind.Opened
        switch InputKind.identify(path: path) {
        case .capture(let capture):
            return try CaptureDecoding.run(path: path, opened: capture, filter: filter, format: format, limits: limits,
                                           arguments: arguments, context: context, frameLimit: frameLimit)
        case .hexDump(let text):
            opened = text
        case .unreadable:
            // Read as a hex dump, whose reader names the reason, after the usage checks below.
            opened = InputKind.Opened(prefix: [], stream: nil)
        }
        if filter != nil {
            let what = input.filterWords.first.map { "unexpected argument '\($0)': a filter" } ?? "a filter"
            throw UsageError("\(what) applies only to a capture (pcap or pcapng), and \(path == "-" ? "standard input" : path) is not one")
        }
        if arguments.flag("summary") { throw UsageError("--summary applies only to a capture; a hex dump is one stream") }
        let source = HexDumpSource(path: path, opened: opened)
        let includesPayload = arguments.value("payload") != "none"
        if arguments.flag("json") {
            return try decode(source, format: format, maxFrameLength: limits.maxFrameLength, frameLimit: frameLimit, context: context) { format in
                JSONLinesWriter(format: format, includesPayload: includesPayload)
            }
        }
        let choice = ColorChoice(rawValue: arguments.value("color") ?? "auto") ?? .auto
        let style = TextStyle(
            enabled: Terminal.usesColor(choice, environment: context.environment, outputIsTerminal: context.outputIsTerminal)
        )
        return try decode(source, format: format, maxFrameLength: limits.maxFrameLength, frameLimit: frameLimit, context: context) { format in
            TextRenderer(format: format, style: style, showsBody: includesPayload)
        }
    }

    /// Runs `source` through a pipeline rendering with `makeRenderer`, stopping after
    /// `frameLimit` frames when given.
    ///
    /// A closed standard output ends the run quietly, with the status of what was decoded so far.
    private static func decode<Renderer: FrameRenderer>(
        _ source: some StreamSource,
        format: FrameFormat?,
        maxFrameLength: Int?,
        frameLimit: Int?,
        context: CommandContext,
        makeRenderer: @escaping (FrameFormat) -> Renderer
    ) throws -> ExitStatus {
        let pipeline = DecodePipeline(format: format, output: context.output, makeRenderer: makeRenderer, detected: { detected in
            StandardError.writeLine("framedump: detected format \(detected.name) from the first bytes (use --format to choose another)")
        }, maxFrameLength: maxFrameLength)
        pipeline.frameLimit = frameLimit
        do {
            try source.run(pipeline.consume)
            try pipeline.finish()
        } catch OutputError.closed {
            return pipeline.summary.exitStatus
        }
        return pipeline.summary.exitStatus
    }

    /// The format a `--format` value names: a preset, or a spec.
    ///
    /// - Throws: ``UsageError`` pointing at the column where the spec went wrong, and suggesting
    ///   a preset when the value looks like a mistyped preset name.
    static func resolveFormat(_ text: String) throws(UsageError) -> FrameFormat {
        do {
            return try FrameFormat(nameOrSpec: text)
        } catch {
            // A bare word is most likely a mistyped preset name.
            let isWord = !text.contains { $0 == ":" || $0 == "=" || $0 == " " }
            let hint = isWord ? Suggestion.hint(for: text, among: FrameFormat.presets.map(\.name)) : ""
            let caret = String(repeating: " ", count: max(0, error.column - 1)) + "^"
            throw UsageError("invalid --format at column \(error.column): expected \(error.expected)\(hint)\n  \(text)\n  \(caret)")
        }
    }
}
