/// A layer the packet parser met but does not decode: the TCP it may carry is out of reach.
///
/// Reported per packet (`PacketParser.Result.unsupportedLayer`) so that a capture of it never
/// looks clean: the CLI counts the packets per layer, names each layer once, and exits 2.
/// Layers that cannot carry TCP (ARP, LLDP, PPP's control protocols, MPLS's associated channel …)
/// are not unsupported: those packets are `.notTCP`.
public enum UnsupportedLayer: Sendable, Hashable, CustomStringConvertible {
    /// The capture's (or PKTAP's inner) link type.
    case linkType(LinkType)
    /// An EtherType (Ethernet, cooked captures, Cisco HDLC, GRE's protocol type) with no decoder.
    case etherType(UInt16)
    /// A PPP protocol number (RFC 1661 §2) of a network-layer protocol other than IPv4, IPv6 and
    /// MPLS, such as Van Jacobson compressed TCP (0x002D, 0x002F).
    case pppProtocol(UInt16)
    /// A GRE header of a version other than 0 (1 is PPTP's, RFC 2637), or with RFC 1701 source
    /// routing (the R bit).
    case greHeader(version: UInt8, routing: Bool)
    /// What follows an MPLS label stack's bottom entry when its first nibble is neither 4 (IPv4),
    /// 6 (IPv6), 0 (a pseudowire control word, RFC 4385) nor 1 (the associated channel).
    case mplsPayload(firstNibble: UInt8)
    /// A PKTAP record whose type is not a packet (`PTH_TYPE_PACKET`, 1).
    case pktapRecordType(UInt32)
    /// More encapsulations inside one another than the parser follows (8 link-layer and 8
    /// tunnel levels): every level costs a few bytes, so only a crafted packet gets here.
    case nestingTooDeep

    /// The layer as messages name it: `EtherType 0x88B5`, `PPP protocol 0x002D`, `link type 147`.
    public var description: String {
        switch self {
        case .linkType(let linkType): "link type \(linkType)"
        case .etherType(let type): "EtherType 0x\(Self.hex(type))"
        case .pppProtocol(let number): "PPP protocol 0x\(Self.hex(number))"
        case .greHeader(let version, let routing): routing ? "GRE source routing (RFC 1701)" : "GRE version \(version)"
        case .mplsPayload(let nibble): "MPLS payload starting with nibble \(nibble)"
        case .pktapRecordType(let type): "PKTAP record type \(type)"
        case .nestingTooDeep: "encapsulation nested more than 8 deep"
        }
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
