import PacketDecoding

/// One connection as `streams` lists it.
struct ConnectionRecord {
    let number: Int
    let client: Endpoint
    let server: Endpoint
    let roles: RoleEvidence
    /// The final counters, from `connectionClosed` (every connection closes by the end of the capture).
    var summary: ConnectionSummary?
    var closeReason: ConnectionCloseReason?
    /// Each direction's gaps as (stream offset, length), indexed by `StreamDirection.rawValue`.
    var gaps: [[(offset: UInt64, length: UInt64)]] = [[], []]
    /// The limits reached for this connection, each once, in the order first reached, with how
    /// many times.
    var limits: [(limit: ReassemblyLimit, count: Int)] = []
    /// The reassembler's notices about it (ignored RSTs, segments outside the stream, copies
    /// that differ, discarded bytes).
    var notices = 0
    /// With `--tls-keylog`, for a connection recognised as TLS: its handshake and decrypted bytes.
    var tls: ConnectionTLS?
    /// Each direction's label, made once (indexed by `StreamDirection.rawValue`).
    let labels: [StreamLabel]

    /// Counts one more time `limit` was reached.
    mutating func note(_ limit: ReassemblyLimit) {
        if let index = limits.firstIndex(where: { $0.limit == limit }) {
            limits[index].count += 1
        } else {
            limits.append((limit, 1))
        }
    }

    init(number: Int, client: Endpoint, server: Endpoint, roles: RoleEvidence, process: PacketProcess? = nil) {
        self.number = number
        self.client = client
        self.server = server
        self.roles = roles
        let label = StreamLabel(connection: number, direction: .clientToServer, source: client, destination: server, process: process)
        labels = [label, label.reversed]
    }

    /// How the connection ended: `closed-fin` (both FINs), `reset`, `evicted` (room for others),
    /// `idle-timeout`, `replaced` (a new SYN on its 4-tuple), or, still going when the capture
    /// ended, `open` or `half-closed` (one FIN).
    var state: String {
        switch closeReason {
        case .finished: "closed-fin"
        case .reset: "reset"
        case .evicted: "evicted"
        case .idleTimeout: "idle-timeout"
        case .replaced: "replaced"
        case .endOfCapture, nil: summary?.state == .halfClosed ? "half-closed" : "open"
        }
    }
}
