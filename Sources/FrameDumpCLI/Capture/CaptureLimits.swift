import FrameCodec
import PacketDecoding
import StreamFraming

/// The memory bounds a capture is decoded under, as the command line sets them: the
/// reassembler's (``ReassemblyLimits``: out-of-order bytes, connections, idle time) and, for the
/// commands that frame (`decode`, `capture`), the frame decoders' (the longest frame, the bytes
/// of partial frames all streams together may hold). Every one has a finite default, and
/// reaching one is a `limit` event (docs/reassembly.md, "Limits").
struct CaptureLimits {
    /// Out-of-order bytes, connections and idle time for the reassembler.
    var reassembly = ReassemblyLimits.default
    /// `--overlap-policy`: which copy of overlapping segment bytes the reassembler keeps.
    var overlapPolicy = OverlapPolicy.linux
    /// `--max-frame-length`: replaces the format's ``FrameFormat/maxFrameLength`` (given or
    /// detected), in bytes, header included; `nil` keeps the format's.
    var maxFrameLength: Int?
    /// `--max-buffered`: bytes of unfinished frames all frame decoders together may hold.
    var maxBufferedBytes = FramingConfiguration.defaultMaxBufferedBytes

    /// The reassembly options: `decode`, `streams` and `capture` take them.
    static let reassemblyOptions: [OptionSpec] = [
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

    /// The framing options: `decode` and `capture` take them.
    static let framingOptions: [OptionSpec] = [
        .value("max-frame-length", valueName: "BYTES",
               help: "Longest frame accepted, header included (K, M, G suffixes);\nlonger lengths are oversize. Default: the format's (16M)."),
        .value("max-buffered", valueName: "BYTES", defaultValue: "64M",
               help: "Captures: bytes of unfinished frames all streams may hold;\nbeyond it the oldest partial frame is reported truncated."),
    ]

    /// The defaults.
    init() {}

    /// The limits the options in `arguments` set; the defaults for those not given.
    ///
    /// - Throws: ``UsageError`` for a value that is not a positive count.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        func bytes(_ name: String) throws(UsageError) -> Int? {
            try arguments.value(name).map { text throws(UsageError) in try ByteCountOption.parse(text, option: name) }
        }
        func count(_ name: String) throws(UsageError) -> Int? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Int(text), value > 0 else { throw UsageError("invalid --\(name) '\(text)': expected a whole number of 1 or more") }
            return value
        }
        if let value = try bytes("max-ooo-bytes") { reassembly.maxOutOfOrderBytesPerDirection = value }
        if let value = try bytes("max-ooo-total") { reassembly.maxOutOfOrderBytesTotal = value }
        if let value = try count("max-connections") { reassembly.maxConnections = value }
        if let seconds = try count("idle-timeout") {
            let (nanoseconds, overflow) = Int64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
            reassembly.idleTimeoutNanoseconds = overflow ? .max : nanoseconds
        }
        if let text = arguments.value("overlap-policy") {
            guard let policy = OverlapPolicy(rawValue: text) else {
                throw UsageError("invalid --overlap-policy '\(text)': expected first, last or linux")
            }
            overlapPolicy = policy
        }
        maxFrameLength = try bytes("max-frame-length")
        if let value = try bytes("max-buffered") { maxBufferedBytes = value }
    }

    /// The framing engine's configuration: `format` (or detection, when `nil`) under these bounds.
    func framing(format: FrameFormat?) -> FramingConfiguration {
        FramingConfiguration(format: format, maxFrameLength: maxFrameLength, maxBufferedBytes: maxBufferedBytes)
    }
}
