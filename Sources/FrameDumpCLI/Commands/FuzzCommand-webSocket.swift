import WebSocketFraming
import WebSocketFuzzing

extension FuzzCommand {
    /// `--target websocket`: ``WebSocketFuzzCase``s until the budget is used up or one fails,
    /// compressed with ``ZlibDeflater`` and inflated with ``ZlibInflater``. Case *i*'s seed is
    /// the campaign seed plus *i* times a constant, so case 0's is the campaign seed and a
    /// failing case runs alone again with `--seed CASE_SEED --iterations 1`.
    static func runWebSocket(seed: UInt64, budget: Budget, context: CommandContext) throws -> ExitStatus {
        try WebSocketAccept.requireLibCrypto()
        StandardError.writeLine("framedump fuzz: seed \(hex(seed)), WebSocket layer")
        let started = FuzzWatchdog.now()
        var cases = 0, damaged = 0, bytes = 0
        while !budget.isUsedUp(cases: cases, since: started) {
            let caseSeed = seed &+ UInt64(cases) &* 0x9E37_79B9_7F4A_7C15
            let fuzzCase: WebSocketFuzzCase
            do {
                fuzzCase = try WebSocketFuzzCase(seed: caseSeed, makeDeflater: { ZlibDeflater() }, accept: WebSocketAccept.value(forKey:))
            } catch {
                throw CommandFailure(message: "framedump fuzz: writing websocket case \(cases) (case seed \(hex(caseSeed))) failed: \(error)", status: .badInput)
            }
            cases += 1
            if !fuzzCase.damage.isEmpty { damaged += 1 }
            bytes += fuzzCase.streams[0].count + fuzzCase.streams[1].count
            let failures = fuzzCase.run(makeInflater: { ZlibInflater() })
            guard failures.isEmpty else {
                context.output.write(report(fuzzCase, failures: failures, index: cases - 1, campaignSeed: seed))
                return .badInput
            }
        }
        let seconds = (FuzzWatchdog.now() &- started) / 1_000_000_000
        context.output.write("fuzz: \(cases) websocket cases (\(damaged) damaged) in \(seconds) s, \(bytes >> 10) KiB of streams, 0 failures; seed \(hex(seed))\n")
        return .success
    }

    /// A failing case: what broke, the command that runs it again, and its bytes.
    private static func report(_ fuzzCase: WebSocketFuzzCase, failures: [String], index: Int, campaignSeed: UInt64) -> String {
        var text = "framedump fuzz: FAILED websocket case \(index) of seed \(hex(campaignSeed))\n"
        for failure in failures { text += "  \(failure)\n" }
        text += "  reproduce: framedump fuzz --target websocket --seed \(hex(fuzzCase.seed)) --iterations 1\n"
        text += "  case: deflate \(fuzzCase.deflate ? "on" : "off")\(fuzzCase.noContextTakeover ? " (no context takeover)" : ""), "
        text += "damage: \(fuzzCase.damage.isEmpty ? "none" : fuzzCase.damage.map(\.description).joined(separator: ", ")), "
        text += "\(fuzzCase.chunks.count) chunks (\(fuzzCase.chunks.prefix(12).map { "\($0.direction) \($0.count)" }.joined(separator: ", "))\(fuzzCase.chunks.count > 12 ? ", …" : ""))\n"
        for (side, stream) in fuzzCase.streams.enumerated() {
            var hex: [UInt8] = []
            ByteFormatting.appendHex(stream.prefix(FuzzFindingReport.hexLimit / 2)[...], to: &hex)
            text += "  \(side == 0 ? "c2s" : "s2c"): \(stream.count) bytes: \(String(decoding: hex, as: UTF8.self))\(stream.count > FuzzFindingReport.hexLimit / 2 ? "... (cut)" : "")\n"
        }
        return text
    }
}
