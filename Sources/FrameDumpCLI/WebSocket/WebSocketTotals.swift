import PacketDecoding
import WebSocketFraming

/// What one direction's WebSocket layer reported: the counts `decode --summary` prints beside
/// (or, without `--inner`, instead of) the inner format's.
struct WebSocketTotals {
    /// Bytes of the direction's Upgrade request or response head (0 before one was read).
    var headBytes: UInt64 = 0
    /// Frames, and their bytes on the wire (headers included).
    var frames = 0
    var frameBytes: UInt64 = 0
    /// Data messages, and their payload bytes once inflated.
    var messages = 0
    var messageBytes: UInt64 = 0
    /// Violations of RFC 6455 or of a limit, and runs of bytes not read as frames.
    var errors = 0
    var unreadBytes: UInt64 = 0

    /// Adds one of the layer's events about `direction` (a handshake is about both: its request
    /// head is the client's bytes, its response head the server's).
    mutating func count(_ event: WebSocketEvent, of direction: StreamDirection) {
        switch event {
        case .handshake(let handshake):
            headBytes &+= UInt64(direction == .clientToServer ? handshake.requestLength : handshake.responseLength)
        case .frame(let frame):
            frames += 1
            frameBytes &+= frame.wireLength
        case .message(let message):
            messages += 1
            messageBytes &+= message.length
        case .violation: errors += 1
        case .unread(_, _, let length, _): unreadBytes &+= length
        }
    }
}
