import PacketDecoding

/// Names one direction's byte stream for ``FramingEngine``: the connection it belongs to and
/// which way its bytes go.
///
/// Connection numbers are the caller's: a capture uses the reassembler's (1, 2, 3… in order of
/// first appearance), a socket server numbers its accepted connections, a hex dump uses one
/// connection with a single client-to-server stream.
public struct StreamKey: Hashable, Sendable {
    /// The connection's number.
    public var connection: Int
    /// Client to server, or server to client.
    public var direction: StreamDirection

    public init(connection: Int, direction: StreamDirection) {
        self.connection = connection
        self.direction = direction
    }
}
