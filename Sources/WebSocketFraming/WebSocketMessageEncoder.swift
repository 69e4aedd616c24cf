/// Writes one direction's frames as a sender does, keeping track of the message they belong to
/// (RFC 6455 §5.4) so permessage-deflate (RFC 7692 §7.2.1) can compress a whole message across
/// its fragments: a compressed message's first frame has RSV1, each fragment's payload is the
/// deflater's output for its part (flushed), and the final fragment's trailing `00 00 ff ff` is
/// removed (after appending an empty stored block when the fragment flushed none). Control frames between fragments are written as they are.
///
/// ```
/// append(.binary, fin: false, "hello ") ─> c1 …  deflate("hello ") (ends 00 00 ff ff)
/// append(.ping, "p")                    ─> 89 01 70
/// append(.continuation, fin: true, "world") ─> 80 …  deflate("world") minus 00 00 ff ff
/// ```
///
/// For tools and tests that write traffic; the reader is ``WebSocketConnectionLayer``.
public struct WebSocketMessageEncoder {
    private let deflater: (any WebSocketDeflater)?
    private let resetsWindow: Bool
    /// Whether the message being written is compressed; `nil` between messages.
    private var compressing: Bool?

    /// - Parameters:
    ///   - deflater: Compresses messages that ask for it; `nil`: no message is compressed.
    ///   - resetsWindow: Whether the window is reset after each compressed message (the
    ///     direction's `*_no_context_takeover`, RFC 7692 §7.1.1).
    public init(deflater: (any WebSocketDeflater)?, resetsWindow: Bool = false) {
        self.deflater = deflater
        self.resetsWindow = resetsWindow
    }

    /// Appends one frame to `bytes`.
    ///
    /// A text or binary frame begins a message, compressed when `compress` is set and there is
    /// a deflater (its RSV1 is then set too); a continuation frame is compressed when its message
    /// is. A frame that breaks §5.4 (a continuation with no message, a new message before the
    /// last one's final frame) is written all the same, uncompressed unless its message is.
    ///
    /// - Parameters:
    ///   - opcode: The frame's opcode.
    ///   - fin: FIN.
    ///   - rsv: RSV1-3 as the three low bits (RSV1 is 0b100), set as given; compression adds RSV1.
    ///   - maskKey: The masking key; `nil`: unmasked.
    ///   - payload: The uncompressed payload (a close frame's code and reason included).
    ///   - compress: For a text or binary frame: whether its message is compressed.
    ///   - bytes: Where the frame goes.
    /// - Returns: The payload as sent (compressed when its message is), unmasked.
    /// - Throws: What the deflater throws.
    @discardableResult
    public mutating func append(opcode: WebSocketOpcode, fin: Bool, rsv: UInt8 = 0, maskKey: UInt32?, payload: [UInt8],
                                compress: Bool = false, to bytes: inout [UInt8]) throws -> [UInt8] {
        var rsv = rsv
        if opcode == .text || opcode == .binary {
            compressing = compress && deflater != nil
            if compressing == true { rsv |= 0b100 }
        }
        var sent = payload
        if !opcode.isControl, compressing == true, let deflater {
            sent = try deflater.deflate(payload)
            if fin {
                // §7.2.1: the message's data must end with an empty stored block, whose last 4
                // bytes are removed. A final fragment that flushed nothing new (an empty one
                // after an earlier flush) has none of its own: append one (BFINAL 0, BTYPE 00,
                // LEN 0, NLEN 0xffff; the stream is byte-aligned after the earlier flush).
                if !sent.suffix(4).elementsEqual([0x00, 0x00, 0xFF, 0xFF]) { sent += [0x00, 0x00, 0x00, 0xFF, 0xFF] }
                sent.removeLast(4)
                if resetsWindow { deflater.reset() }
            }
        }
        if !opcode.isControl, fin { compressing = nil }
        WebSocketFrameEncoder.append(opcode: opcode, fin: fin, rsv: rsv, maskKey: maskKey, payload: sent, to: &bytes)
        return sent
    }
}
