import PacketDecoding
import TLSDecryption

/// The ``TLSConnectionLayer`` of each open connection of a capture, made with the run's keys
/// when the connection opens and dropped when it closes.
struct ConnectionLayers {
    let keys: TLSKeyProvider
    private var byConnection: [Int: TLSConnectionLayer] = [:]

    init(keys: TLSKeyProvider) {
        self.keys = keys
    }

    /// Gives `connection` its layer (a connection number reused by a new SYN gets a new one);
    /// one whose roles come from its first packet (no TCP handshake captured) may begin inside
    /// a TLS record.
    mutating func open(_ connection: Int, roles: RoleEvidence) {
        byConnection[connection] = TLSConnectionLayer(keys: keys, handshakeMayBeMissing: roles == .firstPacket)
    }

    /// The layer of `connection`, or `nil` when it has none (it opened before the layers did).
    func layer(_ connection: Int) -> TLSConnectionLayer? { byConnection[connection] }

    /// Forgets `connection`'s layer; returns it, for its last outputs.
    mutating func close(_ connection: Int) -> TLSConnectionLayer? { byConnection.removeValue(forKey: connection) }
}
