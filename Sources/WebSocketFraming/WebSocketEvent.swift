import PacketDecoding

/// What a ``WebSocketConnectionLayer`` reports. Offsets and lengths count bytes of the direction's
/// input stream (TCP, or TLS plaintext under `--tls-keylog`), so every byte of it is in the
/// handshake, a frame, or one of the other events.
public enum WebSocketEvent: Sendable, Equatable {
    /// The HTTP/1.1 Upgrade (RFC 6455 §4), once per connection, when the response head is read
    /// (or the connection ends without one). JSON `ws_handshake`.
    case handshake(WebSocketHandshake)
    /// One frame (RFC 6455 §5.2), payload unmasked. JSON `ws_frame`.
    case frame(WebSocketFrame)
    /// A data message completed by its final frame: its frames and lengths. JSON `ws_message`.
    case message(WebSocketMessage)
    /// Something RFC 6455 forbids or a limit, at a frame (or handshake) offset. JSON `ws_error`.
    case violation(WebSocketViolation)
    /// Bytes the layer did not read as frames: after a close frame, after a fatal error, after a
    /// gap, a non-WebSocket response, or a frame cut off by the end of the stream. Reported when
    /// the direction ends. JSON `ws_unread`.
    case unread(StreamDirection, offset: UInt64, length: UInt64, reason: WebSocketUnreadReason)
}

extension WebSocketEvent {
    /// The direction the event is about (the client's for the handshake).
    public var direction: StreamDirection {
        switch self {
        case .handshake: .clientToServer
        case .frame(let frame): frame.direction
        case .message(let message): message.direction
        case .violation(let violation): violation.direction
        case .unread(let direction, _, _, _): direction
        }
    }
}

/// What the Upgrade request and response said.
public struct WebSocketHandshake: Sendable, Equatable {
    /// The request line (`GET /chat HTTP/1.1`), or `nil` when none was read.
    public var requestLine: String?
    /// The response's status code (101 for a WebSocket), or `nil` when no response was read.
    public var status: Int?
    /// The response's reason phrase (`Switching Protocols`).
    public var reason: String?
    /// The response's `Sec-WebSocket-Extensions` (the agreed ones), as sent; `nil` without one.
    public var extensions: String?
    /// The response's `Sec-WebSocket-Protocol` (the agreed subprotocol); `nil` without one.
    public var subprotocol: String?
    /// Whether permessage-deflate (RFC 7692) was agreed.
    public var deflate: Bool
    /// Bytes of the request head, through its blank line (0 when it was not read as one).
    public var requestLength: Int
    /// Bytes of the response head, through its blank line (0 when it was not read as one).
    public var responseLength: Int
}

/// One frame, as RFC 6455 §5.2 lays it out.
public struct WebSocketFrame: Sendable, Equatable {
    /// Whose frame it is (c2s frames are masked, §5.1).
    public var direction: StreamDirection
    /// Where its first header byte is in the direction's stream.
    public var offset: UInt64
    /// Header and payload bytes on the wire.
    public var wireLength: UInt64
    /// FIN: the message's final frame (always set on a control frame, §5.5).
    public var fin: Bool
    /// RSV1 (permessage-deflate's "compressed" bit on a message's first frame), RSV2, RSV3.
    public var rsv1: Bool
    /// RSV2 (no extension here defines it).
    public var rsv2: Bool
    /// RSV3 (no extension here defines it).
    public var rsv3: Bool
    /// The frame's opcode (§5.2).
    public var opcode: WebSocketOpcode
    /// The masking key (§5.3), big-endian as sent; `nil` for an unmasked frame.
    public var maskKey: UInt32?
    /// The payload length the header gives.
    public var payloadLength: UInt64
    /// The unmasked payload; empty when it was longer than ``WebSocketLimits/maxFramePayload``
    /// (then skipped, and a violation says so).
    public var payload: [UInt8]
    /// The close frame's status code (§7.4) and reason (UTF-8, lossily decoded), when it has them.
    public var closeCode: UInt16?
    /// The close frame's reason text after the code; `nil` without a code.
    public var closeReason: String?
}

/// A data message (text or binary), reported after its last frame.
public struct WebSocketMessage: Sendable, Equatable {
    /// Whose message it is.
    public var direction: StreamDirection
    /// The offset of its first frame.
    public var offset: UInt64
    /// `text` or `binary`.
    public var opcode: WebSocketOpcode
    /// How many frames it had.
    public var frames: Int
    /// The sum of its frames' payload lengths (compressed, when ``compressed``).
    public var wireLength: UInt64
    /// Its length after inflating; the wire length when not compressed.
    public var length: UInt64
    /// Whether it was permessage-deflate compressed (RSV1 on its first frame).
    public var compressed: Bool
    /// The inflated payload, for a compressed message (up to ``WebSocketLimits/maxMessageLength``);
    /// empty otherwise (its frames show it).
    public var inflated: [UInt8]
    /// For a binary message: where its payload starts in the direction's inner stream (the
    /// concatenated payloads of binary messages that `--inner` frames); `nil` for text.
    public var innerOffset: UInt64?
}

/// A breach of RFC 6455 or of a limit.
public struct WebSocketViolation: Sendable, Equatable {
    /// The direction whose bytes it is in.
    public var direction: StreamDirection
    /// The offset of the frame (or handshake) it is about.
    public var offset: UInt64
    /// What was wrong.
    public var kind: Kind

    /// - Parameters:
    ///   - direction: The direction whose bytes it is in.
    ///   - offset: The offset of the frame or head it is about.
    ///   - kind: What was wrong.
    public init(direction: StreamDirection, offset: UInt64, kind: Kind) {
        self.direction = direction
        self.offset = offset
        self.kind = kind
    }

    /// What was wrong; the JSON `reason` is the case name in snake case.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        /// A client frame without a mask (§5.1: a client masks every frame).
        case unmaskedClientFrame
        /// A server frame with a mask (§5.1: a server never masks).
        case maskedServerFrame
        /// RSV bits set that no agreed extension defines (§5.2); RSV1 is permessage-deflate's on
        /// a message's first data frame only (RFC 7692 §6).
        case reservedBits(UInt8)
        /// A reserved opcode (§5.2).
        case unknownOpcode(UInt8)
        /// A control frame without FIN (§5.5).
        case fragmentedControlFrame
        /// A control frame's payload over 125 bytes (§5.5).
        case controlPayloadTooLong(UInt64)
        /// A continuation frame with no message begun (§5.4).
        case unexpectedContinuation
        /// A text or binary frame before the last message's final frame (§5.4); that message is dropped.
        case messageNotFinished
        /// A 64-bit length with its top bit set (§5.2): the rest of the direction is unread.
        case lengthTopBitSet
        /// A frame payload over ``WebSocketLimits/maxFramePayload``: it is skipped (`length`).
        case frameTooLong(UInt64)
        /// A message over ``WebSocketLimits/maxMessageLength`` once inflated: its bytes beyond
        /// the limit (`dropped`) are counted, not kept.
        case messageTooLong(dropped: UInt64)
        /// The compressed message did not inflate (the inflater's message); the window is reset.
        case inflateFailed(String)
        /// A close payload of 1 byte, which cannot hold a status code (§5.5.1).
        case badClosePayload
        /// The response was not `101 Switching Protocols` (§4.1): no frames follow.
        case notSwitching(Int)
        /// A request or response head that is not HTTP/1.1.
        case badHandshake(String)
        /// A request or response head with no blank line within ``WebSocketLimits/maxHandshakeBytes``
        /// (`limit`, in bytes): it is not read, nor anything after it.
        case headTooLong(limit: Int)

        /// The JSON `reason`: `unmasked_client_frame`, `reserved_bits`, `length_top_bit_set`, … .
        public var description: String {
            switch self {
            case .unmaskedClientFrame: "unmasked_client_frame"
            case .maskedServerFrame: "masked_server_frame"
            case .reservedBits: "reserved_bits"
            case .unknownOpcode: "unknown_opcode"
            case .fragmentedControlFrame: "fragmented_control_frame"
            case .controlPayloadTooLong: "control_payload_too_long"
            case .unexpectedContinuation: "unexpected_continuation"
            case .messageNotFinished: "message_not_finished"
            case .lengthTopBitSet: "length_top_bit_set"
            case .frameTooLong: "frame_too_long"
            case .messageTooLong: "message_too_long"
            case .inflateFailed: "inflate_failed"
            case .badClosePayload: "bad_close_payload"
            case .notSwitching: "not_switching"
            case .badHandshake: "bad_handshake"
            case .headTooLong: "head_too_long"
            }
        }
    }
}

/// Why bytes were left unread (``WebSocketEvent/unread(_:offset:length:reason:)``).
public enum WebSocketUnreadReason: String, Sendable, Equatable {
    /// After the direction's close frame (§5.5.1: nothing may follow it).
    case afterClose = "after_close"
    /// After a fatal error (a length with its top bit set, a bad handshake, a non-101 response).
    case afterError = "after_error"
    /// From a gap on (bytes never captured): frame boundaries are lost.
    case afterGap = "after_gap"
    /// The stream ended inside the handshake or a frame.
    case truncated
}
