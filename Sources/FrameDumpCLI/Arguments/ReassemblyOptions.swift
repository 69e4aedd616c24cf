import PacketDecoding

/// `--max-ooo-bytes`, `--max-ooo-total`, `--max-connections`, `--idle-timeout` and
/// `--overlap-policy`: the reassembler's bounds (``ReassemblyLimits``) and overlap rule,
/// declared and parsed once for `decode`, `streams` and `capture` (the way
/// swift-argument-parser's option groups are).
struct ReassemblyOptions {
    /// The bounds the options set; the defaults for those not given.
    var limits = ReassemblyLimits.default
    /// Which copy of overlapping segment bytes is kept (docs/reassembly.md, "Overlap policies").
    var overlapPolicy = OverlapPolicy.linux

    /// The options, in the order help lists them.
    static let specs: [OptionSpec] = [
        .value("max-ooo-bytes", valueName: "BYTES", defaultValue: "4M",
               help: "Captures: out-of-order bytes one direction may hold\nbefore its oldest hole is given up (K, M, G suffixes)."),
        .value("max-ooo-total", valueName: "BYTES", defaultValue: "64M",
               help: "Captures: out-of-order bytes all connections may hold."),
        .value("max-connections", valueName: "N", defaultValue: "262144",
               help: "Captures: connections tracked at once; beyond it the least\nrecently active is evicted."),
        .value("idle-timeout", valueName: "SECONDS", defaultValue: "3600",
               help: "Captures: capture time without a segment after which a\nconnection is flushed and forgotten."),
        .value("overlap-policy", valueName: "POLICY", defaultValue: "linux",
               help: "Captures: which copy of overlapping segment bytes is kept:\nfirst, last or linux (docs/reassembly.md). Copies that differ\nare reported either way."),
    ]

    /// The defaults.
    init() {}

    /// The values `arguments` gives for ``specs``.
    ///
    /// - Throws: ``UsageError`` for a value that is not a positive count, or a policy not named.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let text = arguments.value("max-ooo-bytes") {
            limits.maxOutOfOrderBytesPerDirection = try ByteCountOption.parse(text, option: "max-ooo-bytes")
        }
        if let text = arguments.value("max-ooo-total") {
            limits.maxOutOfOrderBytesTotal = try ByteCountOption.parse(text, option: "max-ooo-total")
        }
        if let value = try Self.count(arguments, "max-connections") { limits.maxConnections = value }
        if let seconds = try Self.count(arguments, "idle-timeout") {
            let (nanoseconds, overflow) = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
            limits.idleTimeoutNanoseconds = overflow ? .max : nanoseconds
        }
        if let text = arguments.value("overlap-policy") {
            guard let policy = OverlapPolicy(rawValue: text) else {
                throw UsageError("invalid --overlap-policy '\(text)': expected first, last or linux")
            }
            overlapPolicy = policy
        }
    }

    private static func count(_ arguments: ParsedArguments, _ name: String) throws(UsageError) -> Int? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Int(text), value > 0 else { throw UsageError("invalid --\(name) '\(text)': expected a whole number of 1 or more") }
        return value
    }
}
