import TLSDecryption

/// The layers (``ConnectionLayerStack``) of each open connection of a capture: TLS with the run's
/// keys, WebSocket with `--format websocket`; made when the connection opens and dropped when it closes.
struct ConnectionLayers {
    let keys: TLSKeyProvider?
    let webSocket: WebSocketSettings?
    private var byConnection: [Int: ConnectionLayerStack] = [:]

    /// The layers of a run, or `nil` when it has none.
    init?(keys: TLSKeyProvider?, webSocket: WebSocketSettings? = nil) {
        guard keys != nil || webSocket != nil else { return nil }
        self.keys = keys
        self.webSocket = webSocket
    }

    /// Gives `connection` its layers (a connection number reused by a new SYN gets new ones).
    mutating func open(_ connection: Int) {
        byConnection[connection] = ConnectionLayerStack(
            tls: keys.map { TLSConnectionLayer(keys: $0) }, webSocket: webSocket?.makeLayer(),
            passesInner: webSocket?.framesInner ?? true)
    }

    /// The layers of `connection`, or `nil` when it has none (it opened before the layers did).
    func layer(_ connection: Int) -> ConnectionLayerStack? { byConnection[connection] }

    /// Forgets `connection`'s layers; returns them, for their last outputs.
    mutating func close(_ connection: Int) -> ConnectionLayerStack? { byConnection.removeValue(forKey: connection) }
}
