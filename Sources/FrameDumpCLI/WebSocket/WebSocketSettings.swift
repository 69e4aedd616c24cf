import FrameCodec
import WebSocketFraming

/// How WebSocket connections are read (docs/websocket.md): every connection with `--format
/// websocket`, or those detected by their Upgrade request without `--format`; with the bounds
/// from `--max-frame-length`, and whether (and with what) `--inner` frames the binary messages'
/// payloads.
struct WebSocketSettings {
    /// The layer's bounds.
    var limits = WebSocketLimits()
    /// Whether `--inner` was given: binary message payloads are framed (by the run's format, or
    /// detected with `--inner auto`).
    var framesInner = false
    /// Detected connections only (`--inner FORMAT` without `--format`): the format of their
    /// binary messages' payloads; `nil` detects it (`--inner auto`). With `--format websocket`
    /// the inner format is the run's.
    var innerFormat: FrameFormat?

    /// A new connection's layer, inflating with zlib.
    func makeLayer() -> WebSocketConnectionLayer {
        WebSocketConnectionLayer(limits: limits, makeInflater: { ZlibInflater() })
    }
}
