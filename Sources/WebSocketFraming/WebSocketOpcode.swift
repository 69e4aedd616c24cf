/// A WebSocket frame's opcode (RFC 6455 §5.2, §11.8): the low 4 bits of the first header byte.
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 4-bit value, 0 to 15.
    public let rawValue: UInt8

    /// - Parameter rawValue: The opcode's 4 bits (higher bits are dropped).
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    /// 0x0: a later frame of a fragmented message.
    public static let continuation = WebSocketOpcode(rawValue: 0x0)
    /// 0x1: a text message (UTF-8).
    public static let text = WebSocketOpcode(rawValue: 0x1)
    /// 0x2: a binary message.
    public static let binary = WebSocketOpcode(rawValue: 0x2)
    /// 0x8: close (§5.5.1).
    public static let close = WebSocketOpcode(rawValue: 0x8)
    /// 0x9: ping (§5.5.2).
    public static let ping = WebSocketOpcode(rawValue: 0x9)
    /// 0xA: pong (§5.5.3).
    public static let pong = WebSocketOpcode(rawValue: 0xA)

    /// Whether the opcode is a control frame's (§5.5: 0x8 to 0xF).
    public var isControl: Bool { rawValue >= 0x8 }

    /// Whether RFC 6455 defines the opcode (0x3-0x7 and 0xB-0xF are reserved).
    public var isDefined: Bool { self == .continuation || self == .text || self == .binary || self == .close || self == .ping || self == .pong }

    /// `continuation`, `text`, `binary`, `close`, `ping`, `pong`, or `reserved_0x3` for a reserved one.
    public var description: String {
        switch rawValue {
        case 0x0: "continuation"
        case 0x1: "text"
        case 0x2: "binary"
        case 0x8: "close"
        case 0x9: "ping"
        case 0xA: "pong"
        default: "reserved_0x" + String(rawValue, radix: 16)
        }
    }
}
