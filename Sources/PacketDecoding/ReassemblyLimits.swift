/// The bounds that keep reassembly memory finite whatever the capture holds.
///
/// Every limit has a finite default: memory stays bounded without the caller flushing anything
/// (gopacket's `MaxBufferedPagesPerConnection`/`MaxBufferedPagesTotal` and PcapPlusPlus's
/// `maxOutOfOrderFragments` are unlimited by default). Reaching a limit is never an error:
/// the reassembler reports a ``ReassemblyEvent/limitHit(_:connection:direction:)`` event,
/// declares the oldest hole a gap (or evicts the least recently active connection) and goes on.
///
/// Out-of-order memory is charged as payload bytes plus ``heldChunkOverhead`` bytes per held
/// chunk (a run of contiguous held bytes), so a flood of tiny segments with holes between them
/// is bounded too.
public struct ReassemblyLimits: Sendable, Hashable {
    /// Bytes of bookkeeping charged per held out-of-order chunk on top of its payload.
    public static let heldChunkOverhead = 64

    /// Out-of-order bytes one direction may hold while waiting for a hole to fill.
    /// Default 4 MiB: about 32 round trips of a 1 Gbit/s × 1 ms window.
    public var maxOutOfOrderBytesPerDirection: Int
    /// Out-of-order bytes all connections together may hold. Default 64 MiB.
    public var maxOutOfOrderBytesTotal: Int
    /// Connections tracked at once, open or recently closed. Default 262,144: about 170 MiB
    /// of bookkeeping at ~650 bytes per connection (measured RSS, release build). A new connection beyond it evicts the least
    /// recently active closed one, or if none, the least recently active open one.
    public var maxConnections: Int
    /// Capture-time nanoseconds without a segment after which a connection is flushed and
    /// forgotten. Default 3600 s: memory is already bounded by ``maxConnections``, and a shorter
    /// timeout splits real connections that pause (a 300 s timeout cuts an OpenFlow session
    /// with a 367 s pause in the corpus's `of13_ericsson.pcapng` in two; Linux conntrack keeps
    /// established flows 5 days). `Int64.max` disables it.
    public var idleTimeoutNanoseconds: Int64
    /// Delivered bytes one direction keeps until the peer acknowledges them, to compare
    /// retransmissions with (``ReassemblyNotice/overlap(offset:length:kept:)``). Default 64 KiB.
    /// Past it the oldest go; a retransmission of bytes no longer kept is not compared (it is
    /// still counted in ``StreamStatistics/retransmittedBytes``). 0 compares none.
    public var maxRetainedBytesPerDirection: Int
    /// Memory all connections together keep for that (storage, counted by capacity). Default
    /// 16 MiB; a direction that would pass it keeps none until the total is under it again.
    public var maxRetainedBytesTotal: Int

    /// The defaults: 4 MiB per direction, 64 MiB total, 262,144 connections, 3600 s idle,
    /// 64 KiB / 16 MiB of delivered bytes kept for comparison.
    public static let `default` = ReassemblyLimits()

    /// Limits with the given bounds; each default is the one documented on its property.
    ///
    /// - Parameters:
    ///   - maxOutOfOrderBytesPerDirection: Out-of-order bytes one direction may hold; default 4 MiB.
    ///   - maxOutOfOrderBytesTotal: Out-of-order bytes all connections may hold; default 64 MiB.
    ///   - maxConnections: Connections tracked at once; default 262,144; values below 1 count as 1.
    ///   - idleTimeoutNanoseconds: Capture-time nanoseconds of silence before a connection is
    ///     flushed; default 3600 s; `Int64.max` disables it.
    ///   - maxRetainedBytesPerDirection: Delivered bytes one direction keeps for comparing
    ///     retransmissions; default 64 KiB.
    ///   - maxRetainedBytesTotal: Delivered bytes all connections keep for it; default 16 MiB.
    public init(maxOutOfOrderBytesPerDirection: Int = 4 << 20,
                maxOutOfOrderBytesTotal: Int = 64 << 20,
                maxConnections: Int = 262_144,
                idleTimeoutNanoseconds: Int64 = 3_600_000_000_000,
                maxRetainedBytesPerDirection: Int = 64 << 10,
                maxRetainedBytesTotal: Int = 16 << 20) {
        self.maxOutOfOrderBytesPerDirection = maxOutOfOrderBytesPerDirection
        self.maxOutOfOrderBytesTotal = maxOutOfOrderBytesTotal
        self.maxConnections = max(1, maxConnections)
        self.idleTimeoutNanoseconds = idleTimeoutNanoseconds
        self.maxRetainedBytesPerDirection = max(0, maxRetainedBytesPerDirection)
        self.maxRetainedBytesTotal = max(0, maxRetainedBytesTotal)
    }
}

/// Which of the ``ReassemblyLimits`` was reached.
public enum ReassemblyLimit: Sendable, Hashable, CustomStringConvertible {
    /// ``ReassemblyLimits/maxOutOfOrderBytesPerDirection``: the direction's oldest hole became a gap.
    case outOfOrderBytesPerDirection
    /// ``ReassemblyLimits/maxOutOfOrderBytesTotal``: holes of the connection that has held
    /// out-of-order bytes longest became gaps.
    case outOfOrderBytesTotal
    /// ``ReassemblyLimits/maxConnections``: the least recently active open connection was evicted.
    case maxConnections

    /// The limit's name as JSON Lines `limit` shows it (`max_connections`, …), in snake case
    /// like the other JSON values.
    public var description: String {
        switch self {
        case .outOfOrderBytesPerDirection: "out_of_order_bytes_per_direction"
        case .outOfOrderBytesTotal: "out_of_order_bytes_total"
        case .maxConnections: "max_connections"
        }
    }
}
