/// Both directions of one tracked connection, its roles and its timestamps.
///
/// A class: the flow table hands it out by reference, so reading or updating a connection
/// never copies its two streams (as a struct in the slot array, it was copied several times
/// per segment — measured, release build).
final class TCPConnection {
    let number: Int
    let key: ConnectionKey
    let client: Endpoint
    let server: Endpoint
    let roles: RoleEvidence
    let firstSeen: Timestamp
    // The mutable state opts out of the runtime's exclusivity checks (`@exclusivity(unchecked)`):
    // `withStream` keeps a stream's access open while the reassembler's `receive` callback runs,
    // which the compiler cannot see through, so every segment paid ~8 checks (≈ 600 instructions,
    // 5 % of `framedump decode`). No overlapping access can happen: a connection is internal to
    // the reassembler, reachable only through its flow table, and the reassembler is a struct
    // being mutated (`mutating func process`) while the callback runs, so the callback cannot
    // reach it.
    @exclusivity(unchecked) var lastSeen: Timestamp
    @exclusivity(unchecked) private var clientToServer: TCPStream
    @exclusivity(unchecked) private var serverToClient: TCPStream
    /// A segment other than SYN, SYN-ACK or RST was seen.
    @exclusivity(unchecked) var isEstablished = false
    @exclusivity(unchecked) var wasReset = false
    /// Which side's RST ended the connection (see ``ConnectionSummary/resetBy``).
    @exclusivity(unchecked) var resetBy: StreamDirection?
    /// `connectionClosed` was emitted; the entry stays (like TIME-WAIT, RFC 9293 §3.6) so that
    /// late segments are counted against it and a new SYN can be told apart.
    @exclusivity(unchecked) var isClosed = false

    init(number: Int, key: ConnectionKey, client: Endpoint, server: Endpoint, roles: RoleEvidence, at time: Timestamp) {
        self.number = number
        self.key = key
        self.client = client
        self.server = server
        self.roles = roles
        firstSeen = time
        lastSeen = time
        clientToServer = TCPStream(connection: number, direction: .clientToServer)
        serverToClient = TCPStream(connection: number, direction: .serverToClient)
    }

    /// The direction a segment from `source` travels in.
    func direction(from source: Endpoint) -> StreamDirection {
        source == client ? .clientToServer : .serverToClient
    }

    /// Runs `body` on one direction's stream in place (one exclusive access, no copy).
    func withStream<Result>(_ direction: StreamDirection, _ body: (inout TCPStream) throws -> Result) rethrows -> Result {
        direction == .clientToServer ? try body(&clientToServer) : try body(&serverToClient)
    }

    var bothDirectionsClosed: Bool { clientToServer.isClosed && serverToClient.isClosed }

    /// Drops both directions' held bytes without reporting them (after they were reported, or
    /// when the slot is vacated).
    func releaseBuffers() {
        clientToServer.releaseBuffers()
        serverToClient.releaseBuffers()
    }

    /// Out-of-order memory charged to both directions.
    var heldCost: Int { clientToServer.held.cost + serverToClient.held.cost }

    /// Memory both directions keep for comparing retransmissions with delivered bytes.
    var retainedCount: Int { clientToServer.delivered.cost + serverToClient.delivered.cost }

    var state: TCPConnectionState {
        if wasReset { return .reset }
        switch (clientToServer.isClosed, serverToClient.isClosed) {
        case (true, true): return .closed
        case (true, false), (false, true): return .halfClosed
        case (false, false): return isEstablished ? .established : .opening
        }
    }

    var summary: ConnectionSummary {
        ConnectionSummary(connection: number, client: client, server: server, roles: roles, state: state, wasEstablished: isEstablished, resetBy: resetBy,
                          firstSeen: firstSeen, lastSeen: lastSeen,
                          clientToServer: clientToServer.statistics, serverToClient: serverToClient.statistics)
    }

    /// Whether a SYN on this 4-tuple starts a new connection rather than belonging to this one.
    ///
    /// A pure SYN starts a new one unless it repeats the ISN already seen from that side
    /// (a retransmitted SYN) or is the first segment from that side (a SYN captured after its
    /// SYN-ACK, or a simultaneous open, RFC 9293 §3.5). A SYN-ACK only replaces a closed
    /// connection.
    func isReplaced(bySYNFrom source: Endpoint, sequenceNumber: SequenceNumber, acknowledges: Bool) -> Bool {
        if isClosed { return true }
        if acknowledges { return false }
        return withStream(direction(from: source)) { stream in
            if let isn = stream.initialSequenceNumber { return isn != sequenceNumber }
            return stream.base != nil
        }
    }
}
