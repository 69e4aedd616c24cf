/// PPP frames (RFC 1661) on the `PPP` (9) and `PPP_SERIAL` (50) link types, and the PPP
/// protocol field that PPPoE sessions carry too.
///
/// ```
///  PPP (9):         [FF 03] protocol(1 or 2) payload    FF 03: RFC 1662 address and control, optional
///  PPP_SERIAL (50):  FF 03  protocol(1 or 2) payload    PPP in HDLC-like framing (RFC 1662)
///                    0F|8F 00 EtherType(2)   payload    Cisco PPP with HDLC framing (RFC 1547 §4.3.1)
/// ```
///
/// The protocol field is one byte when the peers negotiated Protocol-Field-Compression (RFC
/// 1661 §6.5): protocol numbers are odd in their low byte and even in their high byte, so an odd
/// first byte is a whole, compressed, protocol number.
enum PPP {
    /// Locates the IP header in a PPP frame.
    /// - Parameter ciscoFramingAllowed: whether Cisco HDLC framing may appear (`PPP_SERIAL`).
    static func decapsulate(_ packet: UnsafeRawBufferPointer, ciscoFramingAllowed: Bool) -> LinkLayer.Outcome {
        guard packet.count >= 2 else { return .malformed(.truncatedHeader(.linkLayer), offset: 0) }
        if ciscoFramingAllowed, packet[0] == 0x0F || packet[0] == 0x8F {
            return CiscoHDLC.decapsulate(packet, at: 0, depth: 0)
        }
        let start = packet[0] == 0xFF && packet[1] == 0x03 ? 2 : 0
        return payload(at: start, in: packet, depth: 0)
    }

    /// Follows the PPP protocol field at `offset`: IPv4 (0x0021), IPv6 (0x0057), MPLS unicast
    /// and multicast (0x0281, 0x0283). Numbers from 0x8000 up are network and link control
    /// protocols (IPCP, LCP, PAP, CHAP …; RFC 1661 §2), which carry no user data.
    static func payload(at offset: Int, in packet: UnsafeRawBufferPointer, depth: Int) -> LinkLayer.Outcome {
        guard offset < packet.count else { return .malformed(.truncatedHeader(.linkLayer), offset: offset) }
        let number: UInt16
        let start: Int
        if packet[offset] & 1 == 1 {
            (number, start) = (UInt16(packet[offset]), offset + 1)
        } else {
            guard packet.count - offset >= 2 else { return .malformed(.truncatedHeader(.linkLayer), offset: offset) }
            (number, start) = (packet.networkUInt16(at: offset), offset + 2)
        }
        switch number {
        case 0x0021: return .ipv4(offset: start)
        case 0x0057: return .ipv6(offset: start)
        case 0x0281, 0x0283: return MPLS.decapsulate(at: start, in: packet, depth: depth + 1)
        case 0x8000...: return .notIP
        default: return .unsupportedLayer(.pppProtocol(number))
        }
    }
}
