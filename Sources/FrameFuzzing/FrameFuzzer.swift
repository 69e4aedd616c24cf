import FrameCodec

/// A fuzzing campaign over the frame decoder: an endless, reproducible series of cases.
///
/// Case `n` of a campaign with seed `s` has seed `s` itself for `n == 0` and a seed mixed from
/// `s` and `n` after that, and its format is the campaign's format `n mod count`. So the seed
/// a failing case prints, given with that one format, makes that case the first of a new
/// campaign: `framedump fuzz --format F --seed CASE_SEED --iterations 1`.
public struct FrameFuzzer: Sendable {
    /// What a campaign draws layouts from.
    public enum Layout: Sendable, Hashable {
        case format(FrameFormat)
        /// A fresh ``RandomLayout`` per case, drawn from the case seed.
        case random
    }

    /// A case that failed, shrunk, with everything needed to reproduce it.
    public struct Finding: Sendable {
        /// The case as generated.
        public var original: FuzzCase
        /// The same failure on a smaller case.
        public var minimized: FuzzCase
        /// The failures of the original case; the first is the one minimization kept.
        public var failures: [FuzzFailure]
        /// The smallest decoder input found that still fails, when the failure is one a bare
        /// input shows (not a round-trip or recovery expectation).
        public var minimizedInput: DecoderInput?

        public init(original: FuzzCase, minimized: FuzzCase, failures: [FuzzFailure], minimizedInput: DecoderInput?) {
            self.original = original
            self.minimized = minimized
            self.failures = failures
            self.minimizedInput = minimizedInput
        }
    }

    public let layouts: [Layout]
    public let seed: UInt64
    /// Cases drawn so far.
    public private(set) var caseCount = 0
    /// Bytes those cases fed to the decoder (per chunking; each case runs two).
    public private(set) var byteCount = 0

    public init(layouts: [Layout], seed: UInt64) {
        precondition(!layouts.isEmpty, "a campaign needs at least one layout")
        self.layouts = layouts
        self.seed = seed
    }

    /// The seed of case `index`.
    public func caseSeed(_ index: Int) -> UInt64 {
        guard index > 0 else { return seed }
        var random = FuzzRandom(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return random.next()
    }

    /// Draws the next case (without running it).
    public mutating func nextCase() -> FuzzCase {
        let caseSeed = caseSeed(caseCount)
        let format: FrameFormat
        switch layouts[caseCount % layouts.count] {
        case .format(let given):
            format = given
        case .random:
            var random = FuzzRandom(seed: caseSeed ^ 0x6C61_796F_7574)
            format = RandomLayout.make(&random)
        }
        caseCount += 1
        return FuzzCase(seed: caseSeed, format: format)
    }

    /// Runs `fuzzCase`; `nil` when it passes, else the finding, minimized.
    public mutating func run(_ fuzzCase: FuzzCase) -> Finding? {
        let failures = fuzzCase.check()
        byteCount += fuzzCase.decoderInput?.bytes.count ?? 0
        guard let first = failures.first else { return nil }
        let minimized = fuzzCase.minimized(keeping: first.property)
        var finding = Finding(original: fuzzCase, minimized: minimized, failures: failures, minimizedInput: nil)
        if DecoderOracle.inputProperties.contains(first.property), let input = minimized.decoderInput {
            finding.minimizedInput = input.minimized { candidate in
                DecoderOracle.check(candidate).contains { $0.property == first.property }
            }
        }
        return finding
    }
}

extension DecoderOracle {
    /// The properties ``DecoderOracle/check(_:)`` judges from the input alone.
    public static let inputProperties: Set<FuzzFailure.Property> = [.accounting, .frameBytes, .reference, .memory, .streamOffset, .droppedBodies, .throwingReceiver]
}
