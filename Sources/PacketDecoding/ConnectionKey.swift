/// The TCP 4-tuple of a connection, the same value for both of its directions.
///
/// A segment from A to B and a segment from B to A produce equal keys: the two endpoints are
/// stored in ascending order (address, then port). Used as the flow table's dictionary key, so
/// it stays small (two `Endpoint`s) and hashes without allocating.
public struct ConnectionKey: Sendable, Hashable, CustomStringConvertible {
    /// The endpoint that sorts first (`Endpoint.<`).
    public let lower: Endpoint
    /// The endpoint that sorts last.
    public let upper: Endpoint

    /// The key for a segment travelling between two endpoints, in either direction.
    ///
    /// - Parameters:
    ///   - source: The sending endpoint.
    ///   - destination: The receiving endpoint.
    public init(_ source: Endpoint, _ destination: Endpoint) {
        if destination < source {
            lower = destination
            upper = source
        } else {
            lower = source
            upper = destination
        }
    }

    /// The key of the connection a segment belongs to.
    public init(_ segment: TCPSegment) { self.init(segment.source, segment.destination) }

    /// Hashes IPv4 keys as two integers: the synthesized hash of two `Endpoint` enums was the
    /// largest cost of a flow-table lookup (measured, release build).
    public func hash(into hasher: inout Hasher) {
        if case .v4(let a) = lower.address, case .v4(let b) = upper.address {
            hasher.combine(UInt64(a) << 32 | UInt64(b))
        } else {
            hasher.combine(lower.address)
            hasher.combine(upper.address)
        }
        hasher.combine(UInt32(lower.port) << 16 | UInt32(upper.port))
    }

    /// `"lower <-> upper"`.
    public var description: String { "\(lower) <-> \(upper)" }
}
