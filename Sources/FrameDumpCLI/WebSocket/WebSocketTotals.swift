import WebSocketFraming

/// What one direction's WebSocket layer reported: the counts `decode --summary` prints beside
/// (or, without `--inner`, instead of) the inner format's.
struct WebSocketTotals {
    /// Frames, and their bytes on the wire (headers included).
    var frames = 0
    var frameBytes: UInt64 = 0
    /// Data messages, and their payload bytes once inflated.
    var messages = 0
    var messageBytes: UInt64 = 0
    /// Violations of RFC 6455 or of a limit, and runs of bytes not read as frames.
    var errors = 0
    var unreadBytes: UInt64 = 0

    /// Adds one of the layer's events (a handshake counts nothing).
    mutating func count(_ event: WebSocketEvent) {
        switch event {
        case .handshake: break
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
