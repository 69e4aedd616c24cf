import PacketDecoding
import StreamFraming

/// Reads one connection as WebSocket (RFC 6455): the HTTP/1.1 Upgrade request and response,
/// then each direction's frames, unmasked, with their messages reassembled and, when
/// permessage-deflate (RFC 7692) was agreed, inflated.
///
/// ```
/// c2s: GET /chat HTTP/1.1 … \r\n\r\n │ 82 85 k k k k p p p p p │ 81 03 …
/// s2c: HTTP/1.1 101 … \r\n\r\n       │ 82 05 p p p p p │ 88 02 03 e8
///            └─ .handshake           └─ .frame, .message   └─ .frame (close): the direction's end
/// output streams: each direction's binary message payloads (inflated), concatenated
/// ```
///
/// Every byte of a direction is in the handshake's head, a ``WebSocketEvent/frame(_:)``, or a
/// ``WebSocketEvent/unread(_:offset:length:reason:)``; breaches of the RFC are
/// ``WebSocketEvent/violation(_:)`` events at the frame's offset, and the frame is still read
/// when its length can be trusted. The output streams carry the binary messages' payloads for an
/// inner format (`--inner`); their offsets count those payload bytes (see ``WebSocketMessage/innerOffset``).
public final class WebSocketConnectionLayer: ConnectionLayer {
    public typealias Event = WebSocketEvent

    private var readers: [WebSocketStreamReader]
    private let makeInflater: () -> (any WebSocketInflater)?
    private var handshake = WebSocketHandshake(requestLine: nil, status: nil, reason: nil, extensions: nil, subprotocol: nil,
                                               deflate: false, requestLength: 0, responseLength: 0)
    private var reportedHandshake = false

    /// - Parameters:
    ///   - limits: The bounds on frames, messages and heads.
    ///   - makeInflater: Makes one direction's inflater when permessage-deflate is agreed;
    ///     `nil`: compressed messages are reported, not inflated (an `inflate_failed` violation each).
    public init(limits: WebSocketLimits = WebSocketLimits(), makeInflater: @escaping () -> (any WebSocketInflater)?) {
        readers = StreamDirection.allCases.map { WebSocketStreamReader(direction: $0, limits: limits) }
        self.makeInflater = makeInflater
    }

    /// Reads a direction's next bytes: its head until the blank line, then frames.
    ///
    /// - Parameters:
    ///   - bytes: The chunk; read during the call only.
    ///   - direction: Whose bytes they are.
    ///   - emit: Receives events and the inner streams' bytes (binary message payloads).
    /// - Throws: What `emit` throws.
    public func receive(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection,
                        _ emit: (ConnectionLayerOutput<WebSocketEvent>) throws -> Void) throws {
        var rest = bytes
        if readers[direction.rawValue].phase == .head {
            guard let (taken, complete) = readers[direction.rawValue].readHead(bytes) else {
                try failHead(direction, .headTooLong(limit: readers[direction.rawValue].limits.maxHandshakeBytes), emit)
                return
            }
            guard complete else { return }
            rest = UnsafeRawBufferPointer(rebasing: bytes[taken...])
            try headRead(direction, emit)
        }
        try readers[direction.rawValue].readFrames(rest, emit)
    }

    /// Takes bytes never captured: frame boundaries are lost, so the rest of the direction is
    /// one ``WebSocketEvent/unread(_:offset:length:reason:)`` (`after_gap`) when it ends.
    ///
    /// - Throws: Nothing today; what `emit` throws, per the protocol.
    public func noteGap(byteCount: UInt64, from direction: StreamDirection,
                        _ emit: (ConnectionLayerOutput<WebSocketEvent>) throws -> Void) throws {
        readers[direction.rawValue].noteGap(byteCount: byteCount)
    }

    /// Ends a direction: a cut head or frame, or bytes after a close or an error, are one
    /// `unread` event; the handshake is reported if it was not yet; the inner stream ends.
    ///
    /// - Throws: What `emit` throws.
    public func endStream(_ direction: StreamDirection, _ emit: (ConnectionLayerOutput<WebSocketEvent>) throws -> Void) throws {
        if readers[direction.rawValue].phase != .ended, direction == .serverToClient || readers[1].phase == .ended {
            try reportHandshake(emit)
        }
        try readers[direction.rawValue].end(emit)
    }

    /// A whole head: the request's line, or the response's status and agreement.
    private func headRead(_ direction: StreamDirection, _ emit: (ConnectionLayerOutput<WebSocketEvent>) throws -> Void) throws {
        let bytes = readers[direction.rawValue].head
        readers[direction.rawValue].head = []
        guard let head = WebSocketHandshakeHead(bytes) else {
            try failHead(direction, .badHandshake("no start line"), emit)
            return
        }
        if direction == .clientToServer {
            handshake.requestLine = head.startLine
            handshake.requestLength = bytes.count
            guard head.isWebSocketRequest else {
                try failHead(direction, .badHandshake("not a GET … HTTP/1.1 request with Upgrade: websocket"), emit)
                return
            }
            readers[0].phase = .frames
            return
        }
        handshake.responseLength = bytes.count
        giveUpUnfinishedRequest()
        guard let (code, reason) = head.status else {
            try failHead(direction, .badHandshake("not an HTTP/1.1 status line"), emit)
            return
        }
        handshake.status = code
        handshake.reason = reason
        handshake.extensions = head.value("sec-websocket-extensions")
        handshake.subprotocol = head.value("sec-websocket-protocol")
        guard code == 101 else {
            try readers[1].violation(.notSwitching(code), at: 0, emit)
            try reportHandshake(emit)
            readers[1].phase = .unread(from: readers[1].offset, reason: .afterError)
            // The client's bytes after its request are not WebSocket frames either.
            if readers[0].phase == .frames { readers[0].stopReading(.afterError) }
            return
        }
        if let extensions = handshake.extensions, let agreement = DeflateAgreement(header: extensions) {
            handshake.deflate = true
            for direction in StreamDirection.allCases {
                readers[direction.rawValue].deflateAgreed = true
                readers[direction.rawValue].inflater = makeInflater()
            }
            readers[0].resetsWindow = agreement.clientNoContextTakeover
            readers[1].resetsWindow = agreement.serverNoContextTakeover
        }
        readers[1].phase = .frames
        try reportHandshake(emit)
    }

    /// A head that cannot be read (`kind` says why): a violation, and the direction's bytes from 0 are unread.
    private func failHead(_ direction: StreamDirection, _ kind: WebSocketViolation.Kind, _ emit: (ConnectionLayerOutput<WebSocketEvent>) throws -> Void) throws {
        readers[direction.rawValue].head = []
        // The head's bytes are in the unread range, not the handshake's lengths.
        if direction == .clientToServer { handshake.requestLength = 0 } else { handshake.responseLength = 0 }
        try readers[direction.rawValue].violation(kind, at: 0, emit)
        readers[direction.rawValue].phase = .unread(from: 0, reason: .afterError)
        if direction == .serverToClient {
            giveUpUnfinishedRequest()
            try reportHandshake(emit)
        }
    }

    /// A response (whole, or given up) before the whole request: the handshake is reported now,
    /// so the client's bytes are unread rather than a head the event no longer counts.
    private func giveUpUnfinishedRequest() {
        guard readers[0].phase == .head else { return }
        readers[0].head = []
        readers[0].phase = .unread(from: 0, reason: .afterError)
    }

    private func reportHandshake(_ emit: (ConnectionLayerOutput<WebSocketEvent>) throws -> Void) throws {
        guard !reportedHandshake else { return }
        reportedHandshake = true
        try emit(.event(.handshake(handshake)))
    }
}
