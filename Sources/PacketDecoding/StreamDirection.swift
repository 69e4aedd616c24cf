/// Which of a connection's two byte streams: the client's or the server's.
///
/// Roles come from the handshake (RFC 9293 §3.5): the sender of a pure SYN is the client, the
/// sender of a SYN-ACK the server. Without a handshake in the capture, the sender of the
/// connection's first captured segment is taken as the client (the same rule as tshark's
/// `follow,tcp`).
public enum StreamDirection: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Bytes sent by the client to the server.
    case clientToServer = 0
    /// Bytes sent by the server to the client.
    case serverToClient = 1

    /// The other stream of the same connection.
    public var reversed: StreamDirection { self == .clientToServer ? .serverToClient : .clientToServer }

    /// `"c2s"` or `"s2c"`, the short names the CLI's JSON output uses.
    public var description: String { self == .clientToServer ? "c2s" : "s2c" }
}
