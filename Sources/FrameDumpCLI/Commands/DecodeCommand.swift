import FrameCodec
import PacketDecoding
import StreamFraming

/// `framedump decode [OPTIONS] [FILE|-] [FILTER...]`: splits a byte stream into frames and shows them.
///
/// The command only wires things together. A hex dump: a ``HexDumpSource`` reads its bytes, a
/// ``DecodeSession`` frames them as one stream, and an ``OutputRenderer`` (text or JSON Lines)
/// renders them into the buffered standard output. A capture (told apart by its first bytes,
/// ``InputKind``): see ``CaptureDecoding``; it ends in the same session.
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
            formatHelp: "A preset (see 'framedump formats') or a layout spec,\ne.g. 'magic:u16=0x55AA ver:u8 cmd:u8 len:u32be crc:crc32be';\ncaptures: websocket (RFC 6455 frames; docs/websocket.md)."
        ) + [
            .value(
                "filter", short: "f", valueName: "EXPR",
                help: "Captures: keep only packets matching this BPF filter\n(pcap-filter(7)), e.g. 'tcp port 9000'."
            ),
            .flag("summary", help: "Captures: print totals per connection at the end\n(frames, bytes, skips, gaps, crc errors, cmd histogram)."),
            ProcessOption.spec,
            TLSKeySource.option,
            FrameOutputOptions.innerSpec,
        ] + FramingOptions.specs + ReassemblyOptions.specs,
        positionals: [
            PositionalSpec(name: "FILE|-", isOptional: true, help: "The hex dump or capture to read; '-' or absent: standard input."),
            PositionalSpec(name: "FILTER...", isOptional: true, help: "Captures: a BPF filter, as words (joined by spaces).", isVariadic: true),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let options = try FrameOutputOptions(arguments)
        let limits = try CaptureLimits(reassembly: ReassemblyOptions(arguments), framing: FramingOptions(arguments))
        let frameLimit = try arguments.positiveInteger("count")
        let process = try ProcessOption(arguments)
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
            return try CaptureDecoding.run(path: path, opened: capture, filter: filter, process: process.selector,
                                           options: options, limits: limits,
                                           keepsTotals: arguments.flag("summary"), context: context, frameLimit: frameLimit,
                                           tlsKeys: TLSKeySource.keys(arguments, capture: path))
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
        if process.selector != nil { throw UsageError("--process applies only to a capture; a hex dump names no process") }
        if arguments.value("tls-keylog") != nil { throw UsageError("--tls-keylog applies only to a capture (pcap or pcapng)") }
        try options.refuseWebSocket(in: "a hex dump (one stream, no connection)")
        let bytes = try HexDumpSource(path: path, opened: opened).read()
        let configuration = limits.framing(format: options.format)
        if options.json {
            return try decode(bytes, configuration: configuration, renderer: JSONLinesOutputRenderer(includesPayload: options.includesPayload, bodies: options.bodies),
                              frameLimit: frameLimit, context: context)
        }
        return try decode(bytes, configuration: configuration,
                          renderer: TextOutputRenderer(style: options.textStyle(context), showsBody: true, bodies: options.bodies),
                          frameLimit: frameLimit, context: context)
    }

    /// Frames a hex dump's bytes as one unlabelled stream, rendered with `renderer`, stopping
    /// after `frameLimit` frames when given.
    ///
    /// A closed standard output ends the run quietly, with the status of what was decoded so far.
    private static func decode(_ bytes: [UInt8], configuration: FramingConfiguration, renderer: some OutputRenderer,
                               frameLimit: Int?, context: CommandContext) throws -> ExitStatus {
        var session = DecodeSession(configuration: configuration, renderer: renderer, output: context.output, alwaysCloses: false)
        session.frameLimit = frameLimit
        let stream = StreamKey(connection: 0, direction: .clientToServer)
        let time = Timestamp(nanoseconds: 0)
        session.openConnection(0, client: nil)
        do {
            try bytes.withUnsafeBytes { try session.receive($0, on: stream, at: time) }
            try session.end(stream, at: time)
            try session.finish()
        } catch OutputError.closed {
            return session.exitStatus
        }
        return session.exitStatus
    }
}
