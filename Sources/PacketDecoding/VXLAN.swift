/// VXLAN (RFC 7348 §5): an Ethernet frame in UDP to port 4789.
///
/// ```
///  UDP header (8) | flags (1: I = 0x08) | reserved (3) | VNI (3) | reserved (1) | Ethernet frame …
/// ```
///
/// The flags are not checked (RFC 7348 has receivers ignore the reserved ones; Wireshark decodes
/// the frame whatever the I flag says). UDP to other ports is not TCP.
enum VXLAN {
    static let port: UInt16 = 4789
    private static let udpHeaderLength = 8
    private static let headerLength = 8

    /// Locates the IP header inside a UDP datagram at the start of `packet`, when it is VXLAN.
    static func decapsulate(udp packet: UnsafeRawBufferPointer, depth: Int) -> LinkLayer.Outcome {
        guard packet.count >= udpHeaderLength else { return .malformed(.truncatedHeader(.udp), offset: 0) }
        guard packet.networkUInt16(at: 2) == port else { return .notIP }
        guard packet.count >= udpHeaderLength + headerLength else {
            return .malformed(.truncatedHeader(.vxlan), offset: udpHeaderLength)
        }
        return LinkLayer.ethernet(at: udpHeaderLength + headerLength, in: packet, depth: depth)
    }
}
