/// Counters for one direction of a connection. Byte counts are payload bytes.
///
/// For a direction, `deliveredBytes + gapBytes` is the stream length reported so far, and
/// every captured payload byte is counted in exactly one of `deliveredBytes`,
/// `retransmittedBytes`, `ignoredBytes`, `discardedBytes`, or is still held out of order.
public struct StreamStatistics: Sendable, Hashable {
    /// Segments sent in this direction (with or without payload).
    public var segments: UInt64 = 0
    /// Captured payload bytes in those segments, duplicates included.
    public var capturedBytes: UInt64 = 0
    /// Bytes delivered in `data` events.
    public var deliveredBytes: UInt64 = 0
    /// Captured bytes dropped because an earlier copy of the same stream bytes was kept
    /// (retransmissions and overlaps; first copy wins).
    public var retransmittedBytes: UInt64 = 0
    /// Segments that arrived ahead of a hole and were held.
    public var outOfOrderSegments: UInt64 = 0
    /// `gap` events and their total length.
    public var gaps: UInt64 = 0
    /// Bytes in those gaps.
    public var gapBytes: UInt64 = 0
    /// Captured bytes dropped as outside the stream: before its first byte (before ISN+1, or
    /// before the first byte seen) or 2³¹ or more ahead, after its FIN, in a RST, or after the
    /// connection closed.
    public var ignoredBytes: UInt64 = 0
    /// Captured bytes held behind a hole no acknowledgment covered, thrown away when the
    /// direction was flushed (``ReassemblyNotice/discarded(offset:length:capturedBytes:)``).
    public var discardedBytes: UInt64 = 0
    /// RSTs from this direction not taken (``ReassemblyNotice/resetIgnored(sequenceNumber:expected:)``).
    public var resetsIgnored: UInt64 = 0
    /// Whether and how the direction ended.
    public var closed: DirectionCloseReason? = nil

    /// Counters at zero, direction still open.
    public init() {}
}
