/// The flags of a TCP header: byte 13 of the header, bit for bit (RFC 9293 §3.1; ECE and CWR
/// from RFC 3168 §6.1).
public struct TCPFlags: OptionSet, Sendable, Hashable {
    /// The flags byte as carried in the header (FIN is bit 0, CWR bit 7).
    public let rawValue: UInt8
    /// Flags from the header's flags byte.
    ///
    /// - Parameter rawValue: Byte 13 of the TCP header.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// FIN: the sender has no more data; takes one sequence number after the payload.
    public static let fin = TCPFlags(rawValue: 0x01)
    /// SYN: synchronize sequence numbers; takes one sequence number, the ISN.
    public static let syn = TCPFlags(rawValue: 0x02)
    /// RST: reset the connection.
    public static let rst = TCPFlags(rawValue: 0x04)
    /// PSH: push the data to the receiving application.
    public static let psh = TCPFlags(rawValue: 0x08)
    /// ACK: the acknowledgment number is significant.
    public static let ack = TCPFlags(rawValue: 0x10)
    /// URG: the urgent pointer is significant.
    public static let urg = TCPFlags(rawValue: 0x20)
    /// ECE: ECN-Echo (RFC 3168 §6.1).
    public static let ece = TCPFlags(rawValue: 0x40)
    /// CWR: Congestion Window Reduced (RFC 3168 §6.1).
    public static let cwr = TCPFlags(rawValue: 0x80)
}
