/// Writes WebSocket frames (RFC 6455 §5.2): the header with the shortest length form (7 bits,
/// then 16, then 64, big-endian), the masking key when given, and the payload masked with it
/// (§5.3). For benchmarks, tests and tools that need traffic; the decoder does not use it.
public enum WebSocketFrameEncoder {
    /// Appends one frame to `bytes`.
    ///
    /// - Parameters:
    ///   - opcode: The frame's opcode.
    ///   - fin: FIN: the message's final frame.
    ///   - rsv: RSV1-3 as the three low bits (RSV1 is 0b100).
    ///   - maskKey: The masking key, big-endian as sent; `nil`: an unmasked frame (a server's).
    ///   - payload: The payload, unmasked.
    ///   - bytes: Where the frame goes.
    public static func append(opcode: WebSocketOpcode, fin: Bool = true, rsv: UInt8 = 0, maskKey: UInt32? = nil,
                              payload: some Collection<UInt8>, to bytes: inout [UInt8]) {
        bytes.append((fin ? 0x80 : 0) | (rsv & 0x07) << 4 | opcode.rawValue)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        let length = UInt64(payload.count)
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        }
        guard let maskKey else {
            bytes.append(contentsOf: payload)
            return
        }
        let key = [UInt8(maskKey >> 24), UInt8(truncatingIfNeeded: maskKey >> 16), UInt8(truncatingIfNeeded: maskKey >> 8), UInt8(truncatingIfNeeded: maskKey)]
        bytes += key
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ key[index & 3]) }
    }
}
