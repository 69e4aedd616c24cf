import FrameCodec
import PacketCapture
import PacketDecoding

/// `framedump capture -i IFACE [OPTIONS] [FILTER...]`: captures packets on a network interface
/// through libpcap and decodes their TCP streams live, each frame printed as the packet that
/// completes it arrives.
///
/// ```
/// LiveCapture ──> CaptureSource ──> DecodeSession ──> renderer ──> stdout (flushed per packet)
/// (immediate        (parse, TCP        (FramingEngine:
///  mode, BPF)        reassembly)        FrameDecoder per direction)
///      └── -w FILE: every packet also saved by a PcapWriter
/// ```
///
/// Everything after the packet source is `decode`'s capture path (``CaptureDecoding``), so a
/// live capture and the same packets saved to a file decode identically.
enum CaptureCommand: Command {
    static let spec = CommandSpec(
        name: "capture",
        summary: "Capture TCP traffic on a network interface and decode its frames live.",
        discussion: """
        Captures on IFACE through libpcap (immediate mode: each packet as it arrives) and decodes
        every TCP connection as 'decode' does a capture file: reassembled per direction, each
        direction framed on its own, each frame printed once the packet completing it arrives.
        A filter (pcap-filter(7), as tcpdump takes it) keeps only the packets it matches:
        trailing words, or -f EXPR. Example: framedump capture -i lo --format h12 tcp port 7000

        Ctrl-C (SIGINT) or SIGTERM stops cleanly: output flushed, the summary printed, and
        libpcap's packet counts (received by the filter, dropped) on standard error; a second
        Ctrl-C ends at once. Capturing needs root or CAP_NET_RAW.
        Exit status: 0 every byte in a good frame, 1 usage error or no permission to capture,
        2 bad frames, lost data or a read error.
        """,
        options: [
            .value("interface", short: "i", valueName: "IFACE", help: "The interface to capture on (see -D), e.g. lo, eth0, any."),
            .flag("list-interfaces", short: "D", help: "List the interfaces libpcap can capture on, and exit."),
            .value("count", short: "c", valueName: "N", help: "Stop after N frames."),
            .value("write", short: "w", valueName: "FILE", help: "Also save every captured packet to FILE (pcap, as tcpdump -w)."),
        ] + FrameOutputOptions.specs(
            formatHelp: "A preset (see 'framedump formats'), a layout spec, or websocket;\nwithout it each direction's preset is detected."
        ) + [
            .value("filter", short: "f", valueName: "EXPR", help: "Keep only packets matching this BPF filter, e.g. 'tcp port 7000'."),
            .flag("summary", help: "Print totals per connection at the end."),
            TLSKeySource.option,
            FrameOutputOptions.innerSpec,
            .value(
                "snaplen", short: "s", valueName: "BYTES", defaultValue: String(LiveCapture.defaultSnaplen),
                help: "Bytes kept per packet; less cuts segments (their bytes become gaps)."
            ),
        ] + FramingOptions.specs + ReassemblyOptions.specs,
        positionals: [
            PositionalSpec(name: "FILTER...", isOptional: true, help: "A BPF filter, as words (joined by spaces).", isVariadic: true),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        if arguments.flag("list-interfaces") {
            try listInterfaces(context: context)
            return .success
        }
        guard let interface = arguments.value("interface") else {
            throw UsageError("-i IFACE is required: the interface to capture on (list them with 'framedump capture -D')")
        }
        let count = try arguments.positiveInteger("count")
        let snaplen = try arguments.positiveInteger("snaplen") ?? LiveCapture.defaultSnaplen
        let options = try FrameOutputOptions(arguments)
        let limits = try CaptureLimits(reassembly: ReassemblyOptions(arguments), framing: FramingOptions(arguments))
        let filter = CaptureDecoding.filter(option: arguments.value("filter"), words: arguments.positionals[...])
        // The client appends to its key log while it runs: missing keys are looked for again.
        let tlsKeys = try TLSKeySource.keys(arguments, capture: nil, followsGrowth: true)

        let capture: LiveCapture
        do {
            capture = try LiveCapture(interface: interface, snaplen: snaplen)
        } catch let error as CaptureError {
            throw CommandFailure(message: "framedump capture: \(error.message)", status: .usage)
        }
        if let warning = capture.warning { StandardError.writeLine("framedump capture: warning: \(warning)") }
        let source = CaptureSource(live: capture)
        if let filter { try source.setFilter(filter) }
        let writer = try arguments.value("write").map { path in
            do {
                return try PcapWriter(path: path, matching: capture)
            } catch {
                throw CommandFailure(message: "framedump capture: cannot write \(path): \(error)", status: .badInput)
            }
        }
        // Printed once the capture is active and filtered: from here on no matching packet is missed.
        StandardError.writeLine(
            "framedump capture: listening on \(interface), link type \(capture.linkType), snapshot length \(capture.snaplen) bytes"
                + (filter.map { ", filter '\($0)'" } ?? ""))

        let (outcome, signal) = try CaptureInterruption.during(capture) {
            try CaptureDecoding.decode(source, options: options, limits: limits, keepsTotals: arguments.flag("summary"),
                                       context: context, frameLimit: count, flushesEachPacket: true,
                                       packetObserver: writer.map { writer in { try writer.write($0) } }, tlsKeys: tlsKeys)
        }
        var failed = false
        if let writer {
            do {
                try writer.close()
            } catch {
                StandardError.writeLine("framedump capture: \(error)")
                failed = true
            }
        }
        report(outcome, signal: signal, capture: capture)
        if let error = outcome.statistics?.readError {
            StandardError.writeLine("framedump capture: \(interface): \(error)")
            failed = true
        }
        return failed ? .badInput : outcome.status
    }

    /// One line on standard error: what was decoded, why the capture stopped, and libpcap's
    /// counters (`pcap_stats`), as tcpdump prints them.
    private static func report(_ outcome: CaptureDecoding.Outcome, signal: Int32?, capture: LiveCapture) {
        let frames = outcome.summary.frames
        var line = "framedump capture: \(counted(frames, "frame"))"
        if let packets = outcome.statistics?.packets {
            line += " in \(counted(packets, "packet"))"
        }
        if let signal { line += ", stopped by \(CaptureInterruption.name(signal))" }
        do {
            let statistics = try capture.statistics()
            line += "; \(statistics.received) packets received by filter, \(statistics.droppedByKernel) dropped by kernel, "
                + "\(statistics.droppedByInterface) dropped by interface"
        } catch {
            line += "; packet counts unavailable: \(error)"
        }
        StandardError.writeLine(line)
    }

    /// `-D`: one interface a line, numbered as tcpdump numbers them, with its flags and
    /// libpcap's description.
    private static func listInterfaces(context: CommandContext) throws {
        let interfaces: [CaptureInterface]
        do {
            interfaces = try LiveCapture.interfaces()
        } catch {
            throw CommandFailure(message: "framedump capture: cannot list interfaces: \(error)", status: .badInput)
        }
        for (index, interface) in interfaces.enumerated() {
            var flags: [String] = []
            if interface.isUp { flags.append("up") }
            if interface.isRunning { flags.append("running") }
            if interface.isLoopback { flags.append("loopback") }
            var line = "\(index + 1). \(interface.name) [\(flags.joined(separator: ", "))]"
            if let description = interface.description { line += " \(description)" }
            context.output.write(line + "\n")
        }
    }
}
