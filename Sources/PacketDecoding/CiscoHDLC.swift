/// Cisco HDLC frames (`C_HDLC`, 104; and Cisco framing on `PPP_SERIAL`, 50):
///
/// ```
///  +---------+---------+-------------------+---------
///  | address | control | protocol (2, BE)  | payload
///  | 0F / 8F |   00    | an EtherType      |
/// ```
///
/// The protocol is an EtherType (0x0800 IPv4, 0x86DD IPv6, 0x8847 MPLS …), plus Cisco's own
/// SLARP (0x8035, which is RARP's EtherType) and CDP (0x2000), neither of which carries TCP.
enum CiscoHDLC {
    static let headerLength = 4

    /// Locates the IP header in the Cisco HDLC frame at `offset`.
    static func decapsulate(_ packet: UnsafeRawBufferPointer, at offset: Int, depth: Int) -> LinkLayer.Outcome {
        guard packet.count - offset >= headerLength else { return .malformed(.truncatedHeader(.linkLayer), offset: offset) }
        return LinkLayer.etherType(packet.networkUInt16(at: offset + 2), payloadAt: offset + headerLength, in: packet,
                                   depth: depth)
    }
}
