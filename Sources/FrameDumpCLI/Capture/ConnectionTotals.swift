import PacketDecoding

/// `decode --summary`'s totals of one connection: who talked to whom, and both directions'
/// ``StreamTotals``.
struct ConnectionTotals {
    /// The connection number (1, 2, 3… in order of first appearance).
    var connection: Int
    var client: Endpoint
    var server: Endpoint
    /// Client to server, then server to client (indexed by `StreamDirection.rawValue`).
    var directions: [StreamTotals]
}
