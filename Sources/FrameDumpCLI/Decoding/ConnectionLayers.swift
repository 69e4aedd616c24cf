import PacketDecoding
import TLSDecryption

/// The layers (``ConnectionLayerStack``) of each open connection of a capture: TLS with the run's
/// keys, WebSocket with `--format websocket` or detected; made when the connection opens and
/// dropped when it closes (or once detection finds it is not WebSocket and there is no TLS).
struct ConnectionLayers {
    let keys: TLSKeyProvider?
    /// `--format websocket`'s settings: every connection is WebSocket.
    let webSocket: WebSocketSettings?
    /// Without `--format`: how connections found to begin with a WebSocket Upgrade are read;
    /// `nil`: none is looked for.
    let detectedWebSocket: WebSocketSettings?
    private var byConnection: [Int: ConnectionLayerStack] = [:]

    /// The layers of a run, or `nil` when it has none.
    init?(keys: TLSKeyProvider?, webSocket: WebSocketSettings? = nil, detectedWebSocket: WebSocketSettings? = nil) {
        guard keys != nil || webSocket != nil || detectedWebSocket != nil else { return nil }
        self.keys = keys
        self.webSocket = webSocket
        self.detectedWebSocket = webSocket == nil ? detectedWebSocket : nil
    }

    /// Gives `connection` its layers (a connection number reused by a new SYN gets new ones);
    /// one whose roles come from its first packet (no TCP handshake captured) may begin inside
    /// a TLS record.
    mutating func open(_ connection: Int, roles: RoleEvidence) {
        byConnection[connection] = ConnectionLayerStack(
            tls: keys.map { TLSConnectionLayer(keys: $0, handshakeMayBeMissing: roles == .firstPacket) },
            webSocket: webSocket ?? detectedWebSocket, detects: detectedWebSocket != nil)
    }

    /// The layers of `connection`, or `nil` when it has none (it opened before the layers did).
    func layer(_ connection: Int) -> ConnectionLayerStack? { byConnection[connection] }

    /// Forgets `connection`'s layers; returns them, for their last outputs.
    mutating func close(_ connection: Int) -> ConnectionLayerStack? { byConnection.removeValue(forKey: connection) }
}
