/// The bounds of a ``WebSocketConnectionLayer``: what one connection may make it hold, whatever
/// its bytes say. Reaching one is an event (``WebSocketEvent/violation(_:)`` with
/// ``WebSocketViolation/Kind/frameTooLong`` or ``WebSocketViolation/Kind/messageTooLong``).
public struct WebSocketLimits: Sendable, Equatable {
    /// The longest frame payload shown and decoded, in bytes; a longer frame's payload is skipped
    /// (counted in its event). Default 16 MiB, the framing engine's longest frame.
    public var maxFramePayload: Int
    /// The longest message after inflating (permessage-deflate), in bytes; beyond it the message's
    /// inflated bytes are counted, not kept or passed on. Default 16 MiB.
    public var maxMessageLength: Int
    /// The longest HTTP Upgrade request or response head (up to its blank line), in bytes. Default 16 KiB.
    public var maxHandshakeBytes: Int

    /// The defaults: 16 MiB frames and messages, 16 KiB handshakes.
    public init(maxFramePayload: Int = 16 << 20, maxMessageLength: Int = 16 << 20, maxHandshakeBytes: Int = 16 << 10) {
        self.maxFramePayload = maxFramePayload
        self.maxMessageLength = maxMessageLength
        self.maxHandshakeBytes = maxHandshakeBytes
    }
}
