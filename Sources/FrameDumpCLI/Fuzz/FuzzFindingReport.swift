import FrameCodec
import FrameFuzzing

/// The text `framedump fuzz` prints for a failing case: what broke, how to reproduce it, and
/// the smallest input found that still breaks it.
enum FuzzFindingReport {
    /// Hex of inputs longer than this is cut, with the length said.
    static let hexLimit = 4096

    static func text(_ finding: FrameFuzzer.Finding, index: Int, campaignSeed: UInt64) -> String {
        let original = finding.original
        var text = "framedump fuzz: FAILED case \(index) of seed \(FuzzCommand.hex(campaignSeed)), format \(original.format.name)\n"
        for failure in finding.failures { text += "  \(failure)\n" }
        text += "  reproduce: \(command(original))\n"
        let minimized = finding.minimized
        text += "  minimized case: \(minimized.frames.count) frames (bodies \(minimized.frames.map(\.body.count))), "
        text += "damage: \(minimized.damage.isEmpty ? "none" : minimized.damage.map { "\($0)" }.joined(separator: ", ")), "
        text += "chunking: \(minimized.chunking)\n"
        text += "  layout: \(FormatDescription.spec(minimized.format))\n"
        if let input = finding.minimizedInput ?? minimized.decoderInput {
            let chunks = input.pieces.filter { if case .chunk = $0 { true } else { false } }.count
            text += "  \(finding.minimizedInput == nil ? "input" : "minimized input"): \(input.bytes.count) bytes in \(chunks) chunks"
            text += " ('|' between chunks, [gap N] a gap)\n"
            if let failure = DecoderOracle.check(input).first { text += "  fails with: \(failure)\n" }
            let hex = input.annotatedHex
            text += "    " + (hex.count > hexLimit ? String(hex.prefix(hexLimit)) + "... (cut)" : hex) + "\n"
        }
        return text
    }

    /// A command line that runs exactly this case again: the case seed with the layout the
    /// case was drawn for (a preset name, the spec text a parsed layout is named by, or
    /// `random`), which the seed lowers the limit of again when the case did.
    static func command(_ fuzzCase: FuzzCase) -> String {
        let name = fuzzCase.format.name
        let layout = name.allSatisfy { $0.isLetter || $0.isNumber } ? name : "'\(name)'"
        return "framedump fuzz --format \(layout) --seed \(FuzzCommand.hex(fuzzCase.seed)) --iterations 1"
    }
}
