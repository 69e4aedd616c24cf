import PacketDecoding
import StreamFraming
import TLSDecryption
import WebSocketFraming

/// One connection's layers, outermost first: TLS (`--tls-keylog`), then WebSocket
/// (`--format websocket`). TLS's plaintext is WebSocket's input; WebSocket's output (binary
/// message payloads) reaches the engine only with an inner format (`--inner`).
final class ConnectionLayerStack {
    let tls: TLSConnectionLayer?
    let webSocket: WebSocketConnectionLayer?
    /// Whether WebSocket's output streams go on to the engine (`--inner`).
    let passesInner: Bool

    init(tls: TLSConnectionLayer?, webSocket: WebSocketConnectionLayer?, passesInner: Bool) {
        self.tls = tls
        self.webSocket = webSocket
        self.passesInner = passesInner
    }

    typealias Emit = (ConnectionLayerOutput<LayerEvent>) throws -> Void

    /// Takes a direction's next TCP bytes through the layers.
    func receive(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection, _ emit: Emit) throws {
        if let tls {
            try tls.receive(bytes, from: direction) { try fromTLS($0, emit) }
        } else {
            try webSocket!.receive(bytes, from: direction) { try fromWebSocket($0, emit) }
        }
    }

    /// Takes a direction's bytes never captured.
    func noteGap(byteCount: UInt64, from direction: StreamDirection, _ emit: Emit) throws {
        if let tls {
            try tls.noteGap(byteCount: byteCount, from: direction) { try fromTLS($0, emit) }
        } else {
            try webSocket!.noteGap(byteCount: byteCount, from: direction) { try fromWebSocket($0, emit) }
        }
    }

    /// Ends a direction in every layer.
    func endStream(_ direction: StreamDirection, _ emit: Emit) throws {
        if let tls {
            try tls.endStream(direction) { try fromTLS($0, emit) }
        } else {
            try webSocket!.endStream(direction) { try fromWebSocket($0, emit) }
        }
    }

    private func fromTLS(_ output: ConnectionLayerOutput<TLSEvent>, _ emit: Emit) throws {
        guard let webSocket else { return try emit(output.mapEvent(LayerEvent.tls)) }
        switch output {
        case .data(let bytes, let direction): try webSocket.receive(bytes, from: direction) { try fromWebSocket($0, emit) }
        case .gap(let byteCount, let direction): try webSocket.noteGap(byteCount: byteCount, from: direction) { try fromWebSocket($0, emit) }
        case .end(let direction): try webSocket.endStream(direction) { try fromWebSocket($0, emit) }
        case .event(let event): try emit(.event(.tls(event)))
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

    /// The direction the event is about; `nil` for a connection's (TLS's session).
    var direction: StreamDirection? {
        switch self {
        case .tls(let event): event.direction
        case .webSocket(let event): event.direction
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
