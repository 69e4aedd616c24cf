/// A capture timestamp: nanoseconds since the Unix epoch, UTC.
///
/// pcap records carry seconds and micro- or nanoseconds, pcapng `if_tsresol` units; the capture
/// layer converts all of them to this one unit so the reassembler's timeouts need no scale.
public struct Timestamp: Sendable, Hashable, Comparable {
    /// Nanoseconds since 1970-01-01T00:00:00Z; negative before it.
    public var nanoseconds: Int64
    /// A timestamp `nanoseconds` after the Unix epoch.
    ///
    /// - Parameter nanoseconds: Nanoseconds since 1970-01-01T00:00:00Z, UTC.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
