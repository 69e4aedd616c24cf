import FrameCodec
import PacketCapture
import PacketDecoding
import StreamFraming

/// `framedump analyze [OPTIONS] CAPTURE [FILTER...]`: checks a long-connection client's
/// keep-alive, reconnect and delivery behaviour in a capture against a policy.
///
/// The capture goes the way `decode`'s does (``CaptureSource`` → ``CaptureReadAhead`` →
/// ``DecodeSession`` → ``FramingEngine``), with an ``AnalyzeRenderer`` as the output; the same
/// capture events also go to the ``Analyzer`` for the TCP opens, closes and refusals.
enum AnalyzeCommand: Command {
    static let spec = CommandSpec(
        name: "analyze",
        summary: "Check a client's heartbeats, reconnects, acks and sessions against a policy.",
        discussion: """
        Reads a pcap or pcapng capture, frames each TCP stream as 'decode' does, and checks every
        connection and client host against a policy (docs/analyze.md): heartbeat intervals, pong
        timeouts, dead connections and who closed them, reconnect backoff and jitter, message acks,
        retransmissions, duplicates, reordering, and the session pool. Prints one line per rule:
        PASS, FAIL or NOT SEEN, with the measured figures and, for a failure, the frames that show it.

        --policy takes a file or a built-in name (im-default). --time-scale F multiplies every
        time of the policy by F, for test clients that run it faster (0.05: 30 s heartbeats as 1.5 s).
        Exit status: 0 every rule seen passed, 1 usage error, 2 a rule failed or the capture could
        not be fully read. JSON schema (--json): docs/analyze.md.
        """,
        options: [
            .value("policy", short: "p", valueName: "FILE|NAME", defaultValue: "im-default",
                   help: "The policy: a JSON file, or a built-in name (im-default)."),
            .value("time-scale", valueName: "F", help: "Multiply every time in the policy by F (e.g. 0.05)."),
            .value("format", short: "F", valueName: "NAME|SPEC", help: "A preset or a layout spec (default: detected, as decode)."),
            .flag("json", short: "j", help: "Print JSON Lines: verdict and measure records."),
            .value("report", valueName: "FILE.html", help: "Also write an HTML report with SVG diagrams to FILE.html."),
            .value(
                "color", valueName: "WHEN", allowedValues: ColorChoice.allCases.map(\.rawValue), defaultValue: "auto",
                help: "Colour human output: auto (on a terminal), always or never."
            ),
            .value("filter", short: "f", valueName: "EXPR", help: "Keep only packets matching this BPF filter."),
        ] + FramingOptions.specs + ReassemblyOptions.specs,
        positionals: [
            PositionalSpec(name: "CAPTURE", isOptional: false, help: "The pcap or pcapng file to read ('-': standard input)."),
            PositionalSpec(name: "FILTER...", isOptional: true, help: "A BPF filter, as words (joined by spaces).", isVariadic: true),
        ]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let policy = try loadPolicy(arguments)
        let limits = try CaptureLimits(reassembly: ReassemblyOptions(arguments), framing: FramingOptions(arguments))
        // --format, --json and --color as decode reads them (analyze has no --payload).
        let options = try FrameOutputOptions(arguments)
        try options.refuseWebSocket(in: "analyze")
        let policyName = arguments.value("policy") ?? "im-default"
        if let format = options.format, let problem = FrameClassifier(format: format, policy: policy).problems.first {
            throw UsageError("--policy \(policyName): \(problem)")
        }
        let path = arguments.positionals[0]
        let filter = CaptureDecoding.filter(option: arguments.value("filter"), words: arguments.positionals.dropFirst())
        let opened: InputKind.Opened
        switch InputKind.identify(path: path) {
        case .capture(let capture): opened = capture
        case .hexDump: throw CommandFailure(message: "framedump analyze: \(path) is not a pcap or pcapng capture", status: .badInput)
        case .unreadable(let error): throw CommandFailure(message: "framedump analyze: cannot read \(path): \(error.text)", status: .badInput)
        }
        let source = try CaptureSource(path: path, opened: opened)
        if let filter { try source.setFilter(filter) }

        let analyzer = Analyzer(policy: policy)
        var session = DecodeSession(configuration: limits.framing(format: options.format), renderer: AnalyzeRenderer(analyzer: analyzer),
                                    output: context.output)
        let statistics = try CaptureReadAhead.run(source, limits: limits.reassembly, overlapPolicy: limits.overlapPolicy) { event, time in
            try session.consume(event, at: time)
            analyzer.observe(event, at: time)
        }
        try session.finish()
        let result = analyzer.finish()

        if let report = arguments.value("report") {
            try AnalysisReport.write(result, to: report)
        }
        if options.json {
            VerdictWriter.jsonLines(result, into: &context.output.buffer)
        } else {
            VerdictWriter.text(result, style: options.textStyle(context), into: &context.output.buffer)
        }
        try context.output.flush()

        var incomplete = session.exitStatus != .success || statistics.unsupportedPackets > 0
        for problem in analyzer.policyProblems {
            StandardError.writeLine("framedump analyze: --policy \(policyName): \(problem); frames of that format were not all told apart")
            incomplete = true
        }
        if let error = statistics.readError {
            StandardError.writeLine("framedump analyze: \(source.displayName): \(error) (analyzed the \(counted(statistics.packets, "packet")) before it)")
            incomplete = true
        } else if session.exitStatus != .success {
            StandardError.writeLine("framedump analyze: the capture has bad frames or missing bytes (see 'framedump decode \(path)'); the figures leave them out")
        }
        return result.failed || incomplete ? .badInput : .success
    }

    /// `--policy` (a built-in name, else a file) with `--time-scale` applied.
    private static func loadPolicy(_ arguments: ParsedArguments) throws -> AnalyzePolicy {
        let name = arguments.value("policy") ?? "im-default"
        var policy: AnalyzePolicy
        if let builtIn = AnalyzePolicy.builtIn(named: name) {
            policy = builtIn
        } else {
            let bytes: [UInt8]
            switch FileDescriptorIO.readFile(atPath: name) {
            case .success(let read): bytes = read
            case .failure(let error):
                let names = AnalyzePolicy.builtInNames.joined(separator: ", ")
                throw UsageError("--policy '\(name)': not a built-in policy (\(names)) and cannot be read: \(error.text)")
            }
            do {
                policy = try AnalyzePolicy.parse(bytes[...])
            } catch {
                throw UsageError("--policy \(name): \(error)")
            }
        }
        if let text = arguments.value("time-scale") {
            guard let factor = Double(text), factor > 0, factor.isFinite else {
                throw UsageError("--time-scale '\(text)': expected a number greater than 0, e.g. 0.05")
            }
            // Policy times are below 10⁹ s; scaled, they must stay there, so that sums of them
            // and their tolerance fit the nanosecond arithmetic.
            guard policy.longestTime * factor < 1e18 else {
                throw UsageError("--time-scale '\(text)': makes the policy's longest time over 10^9 seconds")
            }
            policy = policy.scaled(by: factor)
        }
        return policy
    }
}
