/// The HTTP/1.1 Upgrade of a WebSocket connection as a client and server write it (RFC 6455
/// §4.1, §4.2.2): the request head and the `101 Switching Protocols` response head, for tools
/// that write traffic (`framedump encode --format websocket`). The reader is
/// ``WebSocketConnectionLayer``.
///
/// ```
/// GET /PATH HTTP/1.1            HTTP/1.1 101 Switching Protocols
/// Host: HOST                    Upgrade: websocket
/// Upgrade: websocket            Connection: Upgrade
/// Connection: Upgrade           Sec-WebSocket-Accept: ACCEPT
/// Sec-WebSocket-Key: KEY        [Sec-WebSocket-Extensions: permessage-deflate…]
/// Sec-WebSocket-Version: 13
/// [Sec-WebSocket-Extensions: permessage-deflate]
/// ```
public struct WebSocketUpgrade: Sendable, Equatable {
    /// The GUID §4.2.2 appends to the key before hashing it with SHA-1.
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The sample nonce of §1.3 (base64 of "the sample nonce"): a fixed key, so the same input
    /// always gives the same bytes. Its accept value is `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`.
    public static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    /// The request target, e.g. `/` or `/chat`.
    public var path: String
    /// The `Host` field's value, e.g. `127.0.0.1:7777`.
    public var host: String
    /// `Sec-WebSocket-Key`: base64 of 16 bytes.
    public var key: String
    /// `Sec-WebSocket-Accept`: base64 of SHA-1(``key`` + ``acceptGUID``), computed by the caller
    /// (SHA-1 is not this module's to implement).
    public var accept: String
    /// Whether both heads offer and agree permessage-deflate (RFC 7692 §5).
    public var deflate: Bool
    /// With ``deflate``: whether the server agrees `client_no_context_takeover` and
    /// `server_no_context_takeover` (each message compressed afresh, §7.1.1).
    public var noContextTakeover: Bool

    /// - Parameters:
    ///   - path: The request target.
    ///   - host: The `Host` value.
    ///   - key: `Sec-WebSocket-Key`.
    ///   - accept: `Sec-WebSocket-Accept`, as §4.2.2 derives it from `key`.
    ///   - deflate: Whether permessage-deflate is offered and agreed.
    ///   - noContextTakeover: Whether both no-context-takeover parameters are agreed.
    public init(path: String = "/", host: String, key: String = WebSocketUpgrade.sampleKey, accept: String,
                deflate: Bool = false, noContextTakeover: Bool = false) {
        self.path = path
        self.host = host
        self.key = key
        self.accept = accept
        self.deflate = deflate
        self.noContextTakeover = noContextTakeover
    }

    /// The response's `Sec-WebSocket-Extensions` value, or `nil` without deflate.
    public var agreedExtensions: String? {
        guard deflate else { return nil }
        return noContextTakeover ? "permessage-deflate; client_no_context_takeover; server_no_context_takeover" : "permessage-deflate"
    }

    /// The client's request head, through its blank line.
    public var request: [UInt8] {
        var lines = ["GET \(path) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13"]
        if deflate { lines.append("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits") }
        return Self.head(lines)
    }

    /// The server's `101 Switching Protocols` head, through its blank line.
    public var response: [UInt8] {
        var lines = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Accept: \(accept)"]
        if let agreedExtensions { lines.append("Sec-WebSocket-Extensions: \(agreedExtensions)") }
        return Self.head(lines)
    }

    private static func head(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}
