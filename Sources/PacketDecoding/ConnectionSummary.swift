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
    /// Whether a segment beyond the handshake was seen (not only SYN, SYN-ACK and RST): `false`
    /// for a refused or unanswered SYN, whatever ``state`` says after a reset.
    public var wasEstablished: Bool
    /// The direction whose segment carried the RST that ended the connection (`clientToServer`:
    /// the client reset it; a refusal is the server's RST to a SYN); `nil` when not reset.
    public var resetBy: StreamDirection?
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
