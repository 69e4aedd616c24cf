import PacketDecoding

/// `framedump streams [OPTIONS] FILE|- [FILTER...]` (or `-r FILE`): the TCP connections of a capture as the
/// reassembler sees them, apart from any framing — and, with `--write-dir`, each direction's
/// bytes in its own file (like tcpflow), so reassembly can be checked against other tools.
enum StreamsCommand: Command {
    static let spec = CommandSpec(
        name: "streams",
        summary: "List the TCP connections of a capture; write each direction's bytes to a file.",
        discussion: """
        Reads a pcap or pcapng capture from FILE (or -r FILE), or from standard input when
        FILE is '-', and reassembles its TCP connections (docs/reassembly.md). Lists each
        connection: number, client → server, state (open, half-closed, closed-fin, reset,
        evicted, idle-timeout, replaced), and per direction the packets, stream bytes, gaps
        (offset:length in the stream), retransmitted bytes and out-of-order segments. A filter
        (pcap-filter(7)) keeps only the packets it matches: trailing words, or -f EXPR. While a
        file is read, a progress line shows on standard error when that is a terminal.

        With --write-dir DIR, each direction's bytes go to DIR/connNNNN-DIR-SRC.PORT-DST.PORT.bin.
        Files hold only captured bytes, back to back: gaps are not filled in (the listing says
        where they were). With --tls-keylog (or a pcapng's own secrets), a TLS connection's
        files hold its decrypted application data (docs/tls.md). Exit status: 0, 1 usage error or
        bad filter, 2 gaps, malformed or unsupported packets, limits reached, or an unreadable
        capture. JSON schema: docs/cli.md.
        """,
        options: [
            InputArgument.readOption,
            .flag("json", short: "j", help: "Print JSON Lines: one object per connection, then the capture's counts."),
            .value("write-dir", short: "w", valueName: "DIR",
                   help: "Write each direction's reassembled bytes to its own file in DIR\n(created if missing)."),
            .value("filter", short: "f", valueName: "EXPR",
                   help: "Keep only packets matching this BPF filter (pcap-filter(7)),\ne.g. 'tcp port 9000'."),
            ProcessOption.spec,
            TLSKeySource.option,
        ] + ReassemblyOptions.specs,
        positionals: [
            PositionalSpec(name: "FILE|-", isOptional: true, help: "The capture to read; '-': standard input. Required unless -r FILE."),
            PositionalSpec(name: "FILTER...", isOptional: true, help: "A BPF filter, as words (joined by spaces).", isVariadic: true),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let input = try InputArgument(arguments)
        guard let path = input.path else { throw UsageError("missing argument FILE|- (or -r FILE): the capture to read") }
        let limits = try CaptureLimits(reassembly: ReassemblyOptions(arguments))
        let opened: InputKind.Opened
        switch InputKind.identify(path: path) {
        case .capture(let capture):
            opened = capture
        case .unreadable(let error):
            throw CommandFailure(message: "framedump streams: cannot read \(path): \(error.text)", status: .badInput)
        case .hexDump:
            throw CommandFailure(
                message: "framedump streams: \(path == "-" ? "standard input" : path) is not a pcap or pcapng capture",
                status: .badInput)
        }
        var source = try CaptureSource(path: path, opened: opened)
        if let filter = CaptureDecoding.filter(option: arguments.value("filter"), words: input.filterWords) {
            try source.setFilter(filter)
        }
        source.processSelector = try ProcessOption(arguments).selector
        // The listing is written once the reading is over, so the line never meets it on a terminal.
        source.progress = ProgressLine.forInput(path: path, opened: opened, outputIsTerminal: false)
        let files = try arguments.value("write-dir").map { directory throws(CommandFailure) in try StreamFileWriter(directory: directory) }
        let listing = StreamListing(files: files, tlsKeys: try TLSKeySource.keys(arguments, capture: path))
        let statistics = try source.run(limits: limits.reassembly, overlapPolicy: limits.overlapPolicy, reportsLatestCounters: true) { event, time in try listing.consume(event, at: time) }
        if arguments.flag("json") {
            context.output.buffer.append(contentsOf: listing.jsonLines(statistics))
        } else {
            context.output.write(listing.text(statistics))
        }
        if let error = statistics.readError {
            try context.output.flush()
            StandardError.writeLine("framedump: \(source.displayName): \(error) (listed the \(statistics.packets) packets before it)")
            return .badInput
        }
        return listing.hasProblems || statistics.unsupportedPackets > 0 ? .badInput : .success
    }
}
