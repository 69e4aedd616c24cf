import PacketDecoding
import StreamFraming
import TLSDecryption
import WebSocketFraming

/// One connection's layers, outermost first: TLS (`--tls-keylog`), then WebSocket
/// (`--format websocket`, or detected without `--format`). TLS's plaintext is WebSocket's input;
/// WebSocket's output (binary message payloads) reaches the engine only with an inner format
/// (`--inner`): without one, the session tells the engine to frame nothing of the connection,
/// so that its streams do not wait for a format their data would show.
final class ConnectionLayerStack {
    let tls: TLSConnectionLayer?
    private(set) var webSocket: WebSocketConnectionLayer?
    /// How WebSocket is read: given, or for when detection finds it.
    let settings: WebSocketSettings?
    /// Without `--format`: the first bytes held until they show whether this is WebSocket.
    private var detection: WebSocketDetection?

    /// - Parameters:
    ///   - tls: The TLS layer, if keys were given.
    ///   - webSocket: How to read WebSocket; `nil`: no WebSocket layer.
    ///   - detects: Whether WebSocket is detected (no `--format`) rather than given.
    init(tls: TLSConnectionLayer?, webSocket settings: WebSocketSettings?, detects: Bool) {
        self.tls = tls
        self.settings = settings
        if detects {
            // At least the default, so that a head over a lowered limit is still found, and is
            // the layer's head_too_long rather than a connection taken for another protocol.
            detection = WebSocketDetection(maxHeldBytes: max(settings?.limits.maxHandshakeBytes ?? 0, WebSocketDetection.defaultMaxHeldBytes))
        } else {
            webSocket = settings?.makeLayer()
        }
    }

    /// Whether WebSocket's output streams go on to the engine (`--inner`).
    var passesInner: Bool { settings?.framesInner ?? false }

    /// Whether the connection was found not to be WebSocket and has no TLS: the layers pass its
    /// bytes on unchanged, and the session may drop them.
    var isTransparent: Bool { tls == nil && webSocket == nil && detection == nil }

    typealias Emit = (ConnectionLayerOutput<LayerEvent>) throws -> Void

    /// Takes a direction's next TCP bytes through the layers.
    func receive(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection, _ emit: Emit) throws {
        if let tls {
            try tls.receive(bytes, from: direction) { try fromTLS($0, emit) }
        } else {
            try plaintext(bytes, from: direction, emit)
        }
    }

    /// Takes a direction's bytes never captured.
    func noteGap(byteCount: UInt64, from direction: StreamDirection, _ emit: Emit) throws {
        if let tls {
            try tls.noteGap(byteCount: byteCount, from: direction) { try fromTLS($0, emit) }
        } else {
            try plaintextGap(byteCount, from: direction, emit)
        }
    }

    /// Ends a direction in every layer.
    func endStream(_ direction: StreamDirection, _ emit: Emit) throws {
        if let tls {
            try tls.endStream(direction) { try fromTLS($0, emit) }
        } else {
            try plaintextEnd(direction, emit)
        }
    }

    private func fromTLS(_ output: ConnectionLayerOutput<TLSEvent>, _ emit: Emit) throws {
        switch output {
        case .data(let bytes, let direction): try plaintext(bytes, from: direction, emit)
        case .gap(let byteCount, let direction): try plaintextGap(byteCount, from: direction, emit)
        case .end(let direction): try plaintextEnd(direction, emit)
        case .event(let event): try emit(.event(.tls(event)))
        }
    }

    /// The plaintext (TCP's, or TLS's) of a direction: held while detecting, then WebSocket's or passed on.
    private func plaintext(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection, _ emit: Emit) throws {
        if detection != nil {
            guard let decision = detection!.take(bytes, from: direction) else { return }
            return try decide(decision, emit)
        }
        if let webSocket {
            try webSocket.receive(bytes, from: direction) { try fromWebSocket($0, emit) }
        } else {
            try emit(.data(bytes, direction))
        }
    }

    private func plaintextGap(_ byteCount: UInt64, from direction: StreamDirection, _ emit: Emit) throws {
        if detection != nil { try decide(.plain, emit) }
        if let webSocket {
            try webSocket.noteGap(byteCount: byteCount, from: direction) { try fromWebSocket($0, emit) }
        } else {
            try emit(.gap(byteCount: byteCount, direction))
        }
    }

    private func plaintextEnd(_ direction: StreamDirection, _ emit: Emit) throws {
        if detection != nil { try decide(.plain, emit) }
        if let webSocket {
            try webSocket.endStream(direction) { try fromWebSocket($0, emit) }
        } else {
            try emit(.end(direction))
        }
    }

    /// Ends detection: the held bytes go, in their order, to a new WebSocket layer or on as they are.
    private func decide(_ decision: WebSocketDetection.Decision, _ emit: Emit) throws {
        let held = detection!.held
        detection = nil
        if decision == .webSocket {
            webSocket = settings?.makeLayer()
            try emit(.event(.webSocketDetected))
        }
        for (direction, bytes) in held {
            try bytes.withUnsafeBytes { try plaintext($0, from: direction, emit) }
        }
    }

    private func fromWebSocket(_ output: ConnectionLayerOutput<WebSocketEvent>, _ emit: Emit) throws {
        switch output {
        case .data, .gap:
            if passesInner { try emit(output.mapEvent(LayerEvent.webSocket)) }
        case .end, .event:
            try emit(output.mapEvent(LayerEvent.webSocket))
        }
    }
}

/// An event of one of a connection's layers.
enum LayerEvent {
    case tls(TLSEvent)
    case webSocket(WebSocketEvent)
    /// Detection (no `--format`) found the connection's WebSocket Upgrade.
    case webSocketDetected

    /// The direction the event is about; `nil` for a connection's (TLS's session).
    var direction: StreamDirection? {
        switch self {
        case .tls(let event): event.direction
        case .webSocket(let event): event.direction
        case .webSocketDetected: nil
        }
    }
}

extension ConnectionLayerOutput {
    /// The same output with its event (if it is one) turned by `transform`.
    func mapEvent<Other>(_ transform: (Event) -> Other) -> ConnectionLayerOutput<Other> {
        switch self {
        case .data(let bytes, let direction): .data(bytes, direction)
        case .gap(let byteCount, let direction): .gap(byteCount: byteCount, direction)
        case .end(let direction): .end(direction)
        case .event(let event): .event(transform(event))
        }
    }
}
