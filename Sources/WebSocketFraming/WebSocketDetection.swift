import PacketDecoding

/// Tells a WebSocket connection from any other by its first bytes (the CLI's detection without
/// `--format`, docs/websocket.md): a connection whose client begins with `GET … HTTP/1.1` and an `Upgrade: websocket` header in its
/// head is read as WebSocket; any other is framed as before.
///
/// Until it decides, it holds the connection's first bytes (at most ``maxHeldBytes`` per
/// direction), in arrival order, to hand them on. It decides at the client's first bytes that
/// cannot begin `GET `, at the server's bytes when the client has sent none (a WebSocket
/// client speaks first), at the head's blank line, at a gap or an end, or at the bound.
public struct WebSocketDetection {
    /// What it decided.
    public enum Decision: Sendable {
        /// Read the connection with a ``WebSocketConnectionLayer``.
        case webSocket
        /// Not WebSocket: pass its bytes on as they are.
        case plain
    }

    /// The bytes held per direction before the decision, by default: the layer's default head
    /// bound (``WebSocketLimits/maxHandshakeBytes``).
    public static let defaultMaxHeldBytes = WebSocketLimits().maxHandshakeBytes

    /// The bytes held per direction before the decision: a request head longer than this is
    /// not taken for WebSocket's.
    public let maxHeldBytes: Int

    /// The bytes held, in arrival order, to replay once decided.
    public private(set) var held: [(direction: StreamDirection, bytes: [UInt8])] = []
    private var clientBytes: [UInt8] = []
    private var serverByteCount = 0
    /// Where the search for the head's blank line goes on (no rescanning).
    private var scanned = 0

    /// Nothing held yet.
    ///
    /// - Parameter maxHeldBytes: The bytes held per direction before deciding; give the
    ///   layer's ``WebSocketLimits/maxHandshakeBytes``, so that a head the layer would read is
    ///   also one detection waits for.
    public init(maxHeldBytes: Int = defaultMaxHeldBytes) {
        self.maxHeldBytes = maxHeldBytes
    }

    /// Holds `bytes` and decides if it can.
    ///
    /// - Parameters:
    ///   - bytes: The direction's next bytes; copied.
    ///   - direction: Whose they are.
    /// - Returns: The decision, or `nil` while it cannot tell yet.
    public mutating func take(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection) -> Decision? {
        held.append((direction, Array(bytes)))
        if direction == .serverToClient {
            serverByteCount += bytes.count
            if clientBytes.isEmpty || serverByteCount > maxHeldBytes { return .plain }
            return nil
        }
        clientBytes += bytes
        let get = Array("GET ".utf8)
        guard clientBytes.prefix(4).elementsEqual(get.prefix(min(4, clientBytes.count))) else { return .plain }
        while scanned + 3 < clientBytes.count {
            if clientBytes[scanned] == 0x0D, clientBytes[scanned + 1] == 0x0A, clientBytes[scanned + 2] == 0x0D, clientBytes[scanned + 3] == 0x0A {
                let head = WebSocketHandshakeHead(Array(clientBytes[..<(scanned + 4)]))
                return head?.isWebSocketRequest == true ? .webSocket : .plain
            }
            scanned += 1
        }
        return clientBytes.count > maxHeldBytes ? .plain : nil
    }
}
