/// MPLS label stacks (RFC 3032 §2.1; EtherTypes 0x8847 unicast and 0x8848 multicast, PPP
/// 0x0281/0x0283, GRE 0x8847) and what follows the bottom of the stack.
///
/// ```
///  0                   20  23 24      31
///  +--------------------+---+-+--------+
///  |       Label        |TC |S|  TTL   |   one 4-byte entry; S = 1 on the bottom entry
/// ```
///
/// MPLS does not say what the payload is; as routers and Wireshark do, its first nibble is
/// taken to tell: 4 is IPv4, 6 is IPv6, 0 is the pseudowire control word (RFC 4385 §3: 4 bytes,
/// then an Ethernet frame, RFC 4448), 1 the associated channel (RFC 5586: OAM, no TCP). An
/// Ethernet pseudowire without a control word, whose destination MAC address starts with nibble
/// 4 or 6, is read as IP: the labels alone cannot tell them apart.
enum MPLS {
    static let entryLength = 4

    /// Locates the IP header after the label stack that starts at `offset`.
    static func decapsulate(at offset: Int, in packet: UnsafeRawBufferPointer, depth: Int) -> LinkLayer.Outcome {
        guard depth < LinkLayer.maximumNesting else { return .unsupportedLayer(.nestingTooDeep) }
        var position = offset
        while true {
            guard packet.count - position >= entryLength else { return .malformed(.truncatedHeader(.mpls), offset: position) }
            let bottom = packet[position + 2] & 1 == 1
            position += entryLength
            if bottom { break }
        }
        guard position < packet.count else { return .malformed(.truncatedHeader(.mpls), offset: position) }
        switch packet[position] >> 4 {
        case 4: return .ipv4(offset: position)
        case 6: return .ipv6(offset: position)
        case 0:
            guard packet.count - position >= 4 else { return .malformed(.truncatedHeader(.mpls), offset: position) }
            return LinkLayer.ethernet(at: position + 4, in: packet, depth: depth)
        case 1: return .notIP
        case let nibble: return .unsupportedLayer(.mplsPayload(firstNibble: nibble))
        }
    }
}
