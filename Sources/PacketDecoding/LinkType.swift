/// A link-layer header type: the pcap LINKTYPE_/DLT_ value (https://www.tcpdump.org/linktypes.html).
public struct LinkType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The LINKTYPE_ value as written in a pcap header or pcapng Interface Description Block.
    public let rawValue: Int
    /// A link type from its LINKTYPE_ value; any value is accepted (unknown ones are
    /// reported by the packet parser as unsupported, not rejected here).
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// DLT_NULL: BSD loopback, 4-byte address family in host byte order of the capturing machine.
    public static let null = LinkType(rawValue: 0)
    /// DLT_EN10MB: Ethernet II.
    public static let ethernet = LinkType(rawValue: 1)
    /// DLT_RAW as LINKTYPE_RAW (101); libpcap also maps DLT 12 and 14 to raw IP.
    public static let raw = LinkType(rawValue: 101)
    /// LINKTYPE_IPV4 (228): raw IPv4, no link header.
    public static let ipv4 = LinkType(rawValue: 228)
    /// LINKTYPE_IPV6 (229): raw IPv6, no link header.
    public static let ipv6 = LinkType(rawValue: 229)
    /// DLT_LOOP: OpenBSD loopback, 4-byte address family in network byte order.
    public static let loop = LinkType(rawValue: 108)
    /// DLT_LINUX_SLL: Linux cooked capture v1 (`tcpdump -i any`, older libpcap).
    public static let linuxSLL = LinkType(rawValue: 113)
    /// DLT_LINUX_SLL2: Linux cooked capture v2.
    public static let linuxSLL2 = LinkType(rawValue: 276)
    /// DLT_PPP (9): PPP (RFC 1661), with or without the RFC 1662 address and control bytes.
    public static let ppp = LinkType(rawValue: 9)
    /// LINKTYPE_PPP_HDLC (50, DLT_PPP_SERIAL): PPP in HDLC-like framing (RFC 1662), or Cisco PPP
    /// with HDLC framing (RFC 1547 §4.3.1).
    public static let pppSerial = LinkType(rawValue: 50)
    /// LINKTYPE_PPP_ETHER (51): a PPPoE header (RFC 2516) with no Ethernet header before it.
    public static let pppOverEthernet = LinkType(rawValue: 51)
    /// DLT_C_HDLC (104): Cisco HDLC; address, control, then an EtherType.
    public static let ciscoHDLC = LinkType(rawValue: 104)
    /// LINKTYPE_PKTAP (258): Apple's PKTAP header (interface, process), then the packet of the
    /// link type it names. Older Apple tools wrote its DLT, 149 (`DLT_USER2`), into files.
    public static let pktap = LinkType(rawValue: 258)

    /// Whether each packet names its interface and process: PKTAP (258, and 149).
    public var namesProcesses: Bool { rawValue == 258 || rawValue == 149 }

    /// The DLT_ name without its prefix (`EN10MB`), or the bare number for a type without a name
    /// here (`147`), so that messages can say "link type \(linkType)" either way.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .ethernet: "EN10MB"
        case .raw, LinkType(rawValue: 12), LinkType(rawValue: 14): "RAW"
        case .ipv4: "IPV4"
        case .ipv6: "IPV6"
        case .loop: "LOOP"
        case .linuxSLL: "LINUX_SLL"
        case .linuxSLL2: "LINUX_SLL2"
        case .ppp: "PPP"
        case .pppSerial: "PPP_SERIAL"
        case .pppOverEthernet: "PPP_ETHER"
        case .ciscoHDLC: "C_HDLC"
        case .pktap, LinkType(rawValue: 149): "PKTAP"
        default: "\(rawValue)"
        }
    }
}
