import WebSocketFraming

/// `--format websocket` (docs/websocket.md): each connection read as WebSocket, with the bounds
/// from `--max-frame-length`, and `--inner`'s format for the binary messages' payloads.
struct WebSocketSettings {
    /// The layer's bounds.
    var limits = WebSocketLimits()
    /// Whether `--inner` was given: binary message payloads are framed (by the run's format, or
    /// detected with `--inner auto`).
    var framesInner = false

    /// A new connection's layer, inflating with zlib.
    func makeLayer() -> WebSocketConnectionLayer {
        WebSocketConnectionLayer(limits: limits, makeInflater: { ZlibInflater() })
    }
}
