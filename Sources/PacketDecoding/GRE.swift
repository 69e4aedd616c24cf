/// GRE headers (RFC 2784 §2, with RFC 2890's key and sequence number; IP protocol 47).
///
/// ```
///  0 1 2 3           12 13 15 16                            31
///  +-+-+-+-+---------+-----+--------------------------------+
///  |C|R|K|S| reserved| Ver |         Protocol Type          |
///  |   Checksum (C or R)   |       Offset (R) / reserved    |   4 bytes when C or R
///  |                     Key (K)                            |   4 bytes when K
///  |               Sequence Number (S)                      |   4 bytes when S
/// ```
///
/// The protocol type is an EtherType: IPv4, IPv6, MPLS (0x8847), or 0x6558, Transparent
/// Ethernet Bridging (an Ethernet frame: NVGRE, Linux `gretap`). Mirrored traffic comes as
/// ERSPAN (draft-foschiano-erspan-03): type I (0x88BE, no sequence number) is the Ethernet
/// frame alone, type II (0x88BE with a sequence number) puts an 8-byte header before it, type
/// III (0x22EB) a 12-byte one (20 with its platform-specific subheader, the O bit; frame type
/// 0, Ethernet, only). Cisco WCCP redirection (0x883E) puts a 4-byte header before an IP
/// packet. The checksum is not verified. Version 1 (PPTP's enhanced GRE, RFC 2637) and RFC
/// 1701 source routing (R) are not decoded.
enum GRE {
    static let minimumLength = 4
    private static let transparentEthernetBridging: UInt16 = 0x6558

    /// Locates the IP header inside the GRE packet at the start of `packet`.
    static func decapsulate(_ packet: UnsafeRawBufferPointer, depth: Int) -> LinkLayer.Outcome {
        guard packet.count >= minimumLength else { return .malformed(.truncatedHeader(.gre), offset: 0) }
        let flags = packet.networkUInt16(at: 0)
        let version = UInt8(flags & 0x0007)
        let routing = flags & 0x4000 != 0
        guard version == 0, !routing else { return .unsupportedLayer(.greHeader(version: version, routing: routing)) }
        let length = minimumLength + (flags & 0xB000).nonzeroBitCount * 4  // C, K, S: 4 bytes each
        guard packet.count >= length else { return .malformed(.truncatedHeader(.gre), offset: 0) }
        let type = packet.networkUInt16(at: 2)
        switch type {
        case transparentEthernetBridging:
            return LinkLayer.ethernet(at: length, in: packet, depth: depth)
        case 0x88BE:
            return LinkLayer.ethernet(at: length + (flags & 0x1000 != 0 ? 8 : 0), in: packet, depth: depth)
        case 0x22EB:
            guard packet.count - length >= 12 else { return .malformed(.truncatedHeader(.gre), offset: length) }
            let word = packet.networkUInt16(at: length + 10)
            guard (word >> 10) & 0x1F == 0 else { return .unsupportedLayer(.etherType(type)) }
            return LinkLayer.ethernet(at: length + 12 + (word & 1 != 0 ? 8 : 0), in: packet, depth: depth)
        case 0x883E:
            guard packet.count - length > 4 else { return .malformed(.truncatedHeader(.gre), offset: length) }
            switch packet[length + 4] >> 4 {
            case 4: return .ipv4(offset: length + 4)
            case 6: return .ipv6(offset: length + 4)
            case let version: return .malformed(.unexpectedIPVersion(version), offset: length + 4)
            }
        default:
            return LinkLayer.etherType(type, payloadAt: length, in: packet, depth: depth)
        }
    }
}
