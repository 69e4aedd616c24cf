/// A connection's identity, state and counters, as the `streams` command lists them.
public struct ConnectionSummary: Sendable, Hashable {
    /// 1, 2, 3… in order of first appearance.
    public var connection: Int
    /// The endpoint that opened the connection, as far as `roles` can tell.
    public var client: Endpoint
    /// The endpoint the client connected to.
    public var server: Endpoint
    /// What decided which side is the client (a SYN, a SYN-ACK, or only the first segment seen).
    public var roles: RoleEvidence
    /// Where the connection is in its life at the time of the summary.
    public var state: TCPConnectionState
    /// Capture time of the first and the latest segment.
    public var firstSeen: Timestamp
    /// Capture time of the latest segment.
    public var lastSeen: Timestamp
    /// Client-to-server and server-to-client counters.
    public var clientToServer: StreamStatistics
    /// Counters of the server-to-client direction.
    public var serverToClient: StreamStatistics

    /// The counters of one direction.
    public subscript(direction: StreamDirection) -> StreamStatistics {
        direction == .clientToServer ? clientToServer : serverToClient
    }
}

/// Where a connection is in its life, as far as the capture shows.
public enum TCPConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Only handshake segments (SYN, SYN-ACK) so far.
    case opening
    /// Segments beyond the handshake seen, neither direction closed.
    case established
    /// One direction reached its FIN.
    case halfClosed
    /// Both directions reached their FIN.
    case closed
    /// Ended by RST.
    case reset

    /// The state as the `streams` command and JSON Lines show it: `opening`, `established`,
    /// `half-closed`, `closed` or `reset`.
    public var description: String {
        switch self {
        case .opening: "opening"
        case .established: "established"
        case .halfClosed: "half-closed"
        case .closed: "closed"
        case .reset: "reset"
        }
    }
}

/// Counters for one direction of a connection. Byte counts are payload bytes.
///
/// For a direction, `deliveredBytes + gapBytes` is the stream length reported so far, and
/// every captured payload byte is counted in exactly one of `deliveredBytes`,
/// `retransmittedBytes`, `ignoredBytes`, or is still held out of order.
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
    /// before the first byte seen), after its FIN, after a RST, or after the connection closed.
    public var ignoredBytes: UInt64 = 0
    /// Whether and how the direction ended.
    public var closed: DirectionCloseReason? = nil

    /// Counters at zero, direction still open.
    public init() {}
}
