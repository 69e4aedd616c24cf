import FrameCodec
import FrameFuzzing

/// `framedump fuzz`: property-based, differential fuzzing of the frame decoder.
///
/// ```
/// seed ─> FuzzCase (frames, damage, chunking) ─> FrameEncoder ─> bytes ─> FrameDecoder ─┐
///                                                                   └─> reference model ─┴─> compare
/// ```
/// Runs until the iteration count or the time budget is used up, or the first failure, which
/// it prints with the case seed, the command that reproduces it and a minimized input.
enum FuzzCommand: Command {
    static let spec = CommandSpec(
        name: "fuzz",
        summary: "Fuzz the frame decoder with generated, damaged and re-chunked streams.",
        discussion: """
        Each case encodes random valid frames (fields within their widths and allowed values,
        bodies from empty to 1 MiB), then either feeds the stream as it is, cut at random
        points, byte by byte, at header boundaries or whole, and checks that exactly the
        encoded frames come back at their offsets; or first damages it (bit flips, inserted
        garbage and abandoned headers, deleted bytes, gaps, truncation, lengths over the
        limit, corrupted checksums) and checks that every byte is accounted for once, the
        output matches a slow reference model, the bytes held between chunks stay below the
        max frame length (or the header length, if longer), and frames after the damage and
        the next intact magic are recovered.

        Without --format: every preset and random layouts, in turn. A failure prints the
        case seed, a command that reproduces it and a minimized input in hex; the run stops
        there with exit status 2. Progress goes to standard error when it is a terminal.

        --target reassembly fuzzes TCP reassembly instead: random streams cut into segments,
        extra copies (half with altered bytes), shuffled, RSTs at sequence numbers no receiver
        expects mixed in, under a random overlap policy; every byte must be delivered once,
        every RST ignored, and under first and last the bytes and the overlap notices must be
        a byte-by-byte model's (docs/reassembly.md).

        --target websocket fuzzes the WebSocket layer: random conversations (an Upgrade, text and
        binary messages in random fragments with pings and pongs between them, masks, close
        frames, permessage-deflate on or off) fed in random chunks must decode to exactly the
        frames, messages and inner bytes written; damaged ones (bad opcodes, reserved bits,
        unmasked client frames, oversize lengths, garbage deflate data, bit flips, truncation)
        must account for every byte (docs/websocket.md).
        """,
        options: [
            .value("format", short: "F", valueName: "NAME|SPEC|random",
                   help: "Fuzz one layout: a preset, a spec, or 'random' for a new\nrandom layout per case. Default: all presets and random."),
            .value("seed", valueName: "N", help: "The campaign seed, decimal or 0x hex. Default: from the clock\n(printed, so the run can be repeated)."),
            .value("iterations", short: "n", valueName: "N", defaultValue: "2000", help: "Cases to run."),
            .value("time", valueName: "SECONDS", help: "Run for this long instead of a number of cases."),
            .value("target", valueName: "decoder|reassembly|websocket", defaultValue: "decoder",
                   help: "What to fuzz: the frame decoder, TCP reassembly (RSTs,\noverlaps, overlap policies), or the WebSocket layer."),
        ],
        positionals: []
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        let layouts = try arguments.value("format").map(layouts) ?? FrameFormat.presets.map { .format($0) } + [.random]
        let seed = try arguments.value("seed").map { try number($0, option: "seed") } ?? FuzzWatchdog.now()
        let budget: Budget
        if let seconds = arguments.value("time") {
            guard arguments.value("iterations") == nil else { throw UsageError("give --iterations or --time, not both") }
            budget = .nanoseconds(try number(seconds, option: "time") &* 1_000_000_000)
        } else {
            budget = .cases(Int(clamping: try number(arguments.value("iterations") ?? "2000", option: "iterations")))
        }

        switch arguments.value("target") ?? "decoder" {
        case "decoder": break
        case "reassembly": return runReassembly(seed: seed, budget: budget, context: context)
        case "websocket": return try runWebSocket(seed: seed, budget: budget, context: context)
        case let other: throw UsageError("invalid --target '\(other)': expected decoder, reassembly or websocket")
        }
        var fuzzer = FrameFuzzer(layouts: layouts, seed: seed)
        let progress = Terminal.isTerminal(2)
        let watchdog = FuzzWatchdog.shared
        watchdog.start()
        let started = FuzzWatchdog.now()
        var damagedCases = 0
        var slowest: (nanoseconds: UInt64, seed: UInt64, bytes: Int) = (0, 0, 0)
        var lastProgress = started
        StandardError.writeLine("framedump fuzz: seed \(hex(seed)), \(layouts.map(describe).joined(separator: ", "))")

        while !budget.isUsedUp(cases: fuzzer.caseCount, since: started) {
            let fuzzCase = fuzzer.nextCase()
            let size = fuzzCase.approximateByteCount
            // Generous: a debug build checks a few MB/s; a hang or quadratic blow-up is far slower.
            let limit = 30_000_000_000 &+ UInt64(size) &* 20_000
            watchdog.begin(reproduction(fuzzCase, index: fuzzer.caseCount - 1, campaignSeed: seed), limitNanoseconds: limit)
            var finding = fuzzer.run(fuzzCase)
            let elapsed = watchdog.end()
            if fuzzCase.isDamaged { damagedCases += 1 }
            if elapsed > slowest.nanoseconds { slowest = (elapsed, fuzzCase.seed, size) }
            if finding == nil, elapsed > limit {
                finding = FrameFuzzer.Finding(
                    original: fuzzCase, minimized: fuzzCase,
                    failures: [FuzzFailure(.time, "took \(elapsed / 1_000_000) ms for about \(size) bytes (limit \(limit / 1_000_000) ms)")],
                    minimizedInput: nil
                )
            }
            if let finding {
                if progress { StandardError.writeLine("") }
                context.output.write(FuzzFindingReport.text(finding, index: fuzzer.caseCount - 1, campaignSeed: seed))
                return .badInput
            }
            let now = FuzzWatchdog.now()
            if progress, now &- lastProgress > 250_000_000 {
                lastProgress = now
                let seconds = Double(now &- started) / 1e9
                let rate = Double(fuzzer.caseCount) / max(seconds, 1e-9)
                StandardError.write("\r\u{1B}[K\(fuzzer.caseCount) cases, \(Int(rate)) cases/s, \(fuzzer.byteCount >> 20) MiB decoded, \(Int(seconds)) s")
            }
        }
        if progress { StandardError.write("\r\u{1B}[K") }
        let seconds = (FuzzWatchdog.now() &- started) / 1_000_000_000
        context.output.write("""
            fuzz: \(fuzzer.caseCount) cases (\(damagedCases) damaged) in \(Int(seconds)) s, \
            \(fuzzer.byteCount >> 20) MiB decoded, 0 failures; seed \(hex(seed))
            slowest case: \(slowest.nanoseconds / 1_000_000) ms, about \(slowest.bytes) bytes (seed \(hex(slowest.seed)))

            """)
        return .success
    }

    /// `--target reassembly`: ``ReassemblyFuzzCase``s from the campaign seed until the budget is
    /// used up or one fails, which is printed with its case seed.
    private static func runReassembly(seed: UInt64, budget: Budget, context: CommandContext) -> ExitStatus {
        StandardError.writeLine("framedump fuzz: seed \(hex(seed)), TCP reassembly")
        var random = FuzzRandom(seed: seed)
        let started = FuzzWatchdog.now()
        var cases = 0, bytes = 0
        while !budget.isUsedUp(cases: cases, since: started) {
            let fuzzCase = ReassemblyFuzzCase(seed: random.next())
            cases += 1
            bytes += fuzzCase.byteCount
            if let failure = fuzzCase.run() {
                context.output.write("fuzz: reassembly case \(cases - 1) (case seed \(hex(fuzzCase.seed))) failed: \(failure)\n")
                return .badInput
            }
        }
        let seconds = (FuzzWatchdog.now() &- started) / 1_000_000_000
        context.output.write("fuzz: \(cases) reassembly cases in \(seconds) s, \(bytes >> 10) KiB of segments, 0 failures; seed \(hex(seed))\n")
        return .success
    }

    /// How long a run lasts.
    enum Budget {
        case cases(Int)
        case nanoseconds(UInt64)

        func isUsedUp(cases: Int, since start: UInt64) -> Bool {
            switch self {
            case .cases(let count): cases >= count
            case .nanoseconds(let limit): FuzzWatchdog.now() &- start >= limit
            }
        }
    }

    private static func layouts(_ text: String) throws(UsageError) -> [FrameFuzzer.Layout] {
        text == "random" ? [.random] : [.format(try FrameOutputOptions.resolveFormat(text))]
    }

    private static func describe(_ layout: FrameFuzzer.Layout) -> String {
        switch layout {
        case .format(let format): format.name
        case .random: "random layouts"
        }
    }

    /// A non-negative integer option value, decimal or `0x` hex.
    private static func number(_ text: String, option: String) throws(UsageError) -> UInt64 {
        let value = text.hasPrefix("0x") || text.hasPrefix("0X") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let value else { throw UsageError("--\(option) needs a non-negative integer (decimal or 0x hex), got '\(text)'") }
        return value
    }

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// What the watchdog prints if the case never returns.
    private static func reproduction(_ fuzzCase: FuzzCase, index: Int, campaignSeed: UInt64) -> String {
        "  case \(index) of seed \(hex(campaignSeed)); reproduce: \(FuzzFindingReport.command(fuzzCase))\n"
    }
}
