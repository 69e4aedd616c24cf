/// Finds the network-layer header inside a captured link-layer frame.
///
/// Header layouts follow the tcpdump.org link-type pages (https://www.tcpdump.org/linktypes.html):
///
/// | link type | header | protocol field |
/// |---|---|---|
/// | `EN10MB` (1) | 14 bytes, then any 802.1Q (0x8100), 802.1ad (0x88A8) or 0x9100 tags, 4 bytes each | EtherType at 12, big-endian |
/// | `LINUX_SLL` (113) | 16 bytes | EtherType at 14, big-endian |
/// | `LINUX_SLL2` (276) | 20 bytes | EtherType at 0, big-endian |
/// | `RAW` (101; DLT 12 and 14 live) | none | IP version nibble |
/// | `IPV4` (228), `IPV6` (229) | none | the link type itself |
/// | `NULL` (0) | 4 bytes | address family, the capturing host's byte order |
/// | `LOOP` (108) | 4 bytes | address family, big-endian |
/// | `PPP` (9), `PPP_SERIAL` (50) | RFC 1662 `FF 03` (optional on 9), or Cisco's `0F`/`8F 00` on 50 | PPP protocol (`PPP`), or an EtherType (Cisco) |
/// | `PPP_ETHER` (51) | 6-byte PPPoE session header | PPP protocol (`PPPoE`) |
/// | `C_HDLC` (104) | 4 bytes: address, control | EtherType at 2, big-endian (`CiscoHDLC`) |
/// | `PKTAP` (258; DLT 149) | its own length (`PKTAP`) | the inner link type it names |
///
/// libpcap re-inserts VLAN tags stripped by the NIC after the cooked header as well, so the
/// SLL and SLL2 EtherTypes go through the same VLAN unwrapping as Ethernet's. Past the
/// EtherType, MPLS (0x8847, 0x8848), PPPoE sessions (0x8864) and 802.2 LLC/SNAP lead on to IP;
/// EtherTypes that never carry TCP (ARP, LLDP, …) are `.notIP`, and any other one is
/// `.unsupportedLayer`, so that packets whose TCP could not be reached are counted.
enum LinkLayer {
    /// Where the link layer leads.
    enum Outcome: Equatable {
        /// An IPv4 header starts at `offset`.
        case ipv4(offset: Int)
        /// An IPv6 header starts at `offset`.
        case ipv6(offset: Int)
        /// The frame carries something that never holds TCP (ARP, LLC, another address family …).
        case notIP
        case malformed(MalformedReason, offset: Int)
        /// The link type itself is not decoded.
        case unsupported
        /// A layer inside the frame is not decoded (an EtherType, a PPP protocol, PKTAP's inner link type …).
        case unsupportedLayer(UnsupportedLayer)

        /// The same outcome for a frame that starts `distance` bytes later in the packet.
        func shifted(by distance: Int) -> Outcome {
            switch self {
            case .ipv4(let offset): .ipv4(offset: offset + distance)
            case .ipv6(let offset): .ipv6(offset: offset + distance)
            case .malformed(let reason, let offset): .malformed(reason, offset: offset + distance)
            case .notIP, .unsupported, .unsupportedLayer: self
            }
        }
    }

    /// Link-layer encapsulations inside one another (MPLS pseudowires, PPPoE, GRE's Ethernet …)
    /// the parser follows before it gives up with `.nestingTooDeep`.
    static let maximumNesting = 8

    /// Whether `decapsulate` understands `linkType`.
    static func supports(_ linkType: LinkType) -> Bool {
        switch linkType.rawValue {
        case 0, 1, 9, 12, 14, 50, 51, 101, 104, 108, 113, 149, 228, 229, 258, 276: true
        default: false
        }
    }

    /// Locates the IP header in `packet`, a frame of `linkType`.
    @inline(__always)
    static func decapsulate(_ packet: UnsafeRawBufferPointer, linkType: LinkType) -> Outcome {
        switch linkType.rawValue {
        case 1:
            guard packet.count >= 14 else { return .malformed(.truncatedHeader(.linkLayer), offset: 0) }
            return etherType(packet.networkUInt16(at: 12), payloadAt: 14, in: packet)
        case 113:
            guard packet.count >= 16 else { return .malformed(.truncatedHeader(.linkLayer), offset: 0) }
            return etherType(packet.networkUInt16(at: 14), payloadAt: 16, in: packet)
        case 276:
            guard packet.count >= 20 else { return .malformed(.truncatedHeader(.linkLayer), offset: 0) }
            return etherType(packet.networkUInt16(at: 0), payloadAt: 20, in: packet)
        case 12, 14, 101:
            guard let first = packet.first else { return .malformed(.truncatedHeader(.ipv4), offset: 0) }
            switch first >> 4 {
            case 4: return .ipv4(offset: 0)
            case 6: return .ipv6(offset: 0)
            default: return .malformed(.unexpectedIPVersion(first >> 4), offset: 0)
            }
        case 228:
            return .ipv4(offset: 0)
        case 229:
            return .ipv6(offset: 0)
        case 0:
            guard packet.count >= 4 else { return .malformed(.truncatedHeader(.linkLayer), offset: 0) }
            // Written in the capturing host's order, which the file does not record. Families are
            // small numbers, so a value with its low half zero was written by the other byte order.
            let family = UInt32(littleEndian: packet.loadUnaligned(as: UInt32.self))
            return addressFamily(family & 0xFFFF == 0 ? family.byteSwapped : family)
        case 108:
            guard packet.count >= 4 else { return .malformed(.truncatedHeader(.linkLayer), offset: 0) }
            return addressFamily(packet.networkUInt32(at: 0))
        default:
            return otherLinkType(packet, linkType: linkType)
        }
    }

    /// The link types whose frames are rare enough to leave out of the inlined path.
    @inline(never)
    private static func otherLinkType(_ packet: UnsafeRawBufferPointer, linkType: LinkType) -> Outcome {
        switch linkType.rawValue {
        case 9, 50: return PPP.decapsulate(packet, ciscoFramingAllowed: linkType.rawValue == 50)
        case 51: return PPPoE.session(at: 0, in: packet, depth: 0)
        case 104: return CiscoHDLC.decapsulate(packet, at: 0, depth: 0)
        case 149, 258: return PKTAP.decapsulate(packet)
        default: return .unsupported
        }
    }

    /// Follows an EtherType through any stacked VLAN tags (IEEE 802.1Q / 802.1ad; 0x9100 is the
    /// pre-standard QinQ outer tag), each 4 bytes: TCI, then the next EtherType.
    ///
    /// - Parameter depth: The encapsulations already followed (0 for the frame's own header).
    @inline(__always)
    static func etherType(_ type: UInt16, payloadAt start: Int, in packet: UnsafeRawBufferPointer,
                          depth: Int = 0) -> Outcome {
        var type = type
        var offset = start
        while type == 0x8100 || type == 0x88A8 || type == 0x9100 {
            guard packet.count - offset >= 4 else { return .malformed(.truncatedHeader(.vlanTag), offset: offset) }
            type = packet.networkUInt16(at: offset + 2)
            offset += 4
        }
        switch type {
        case 0x0800: return .ipv4(offset: offset)
        case 0x86DD: return .ipv6(offset: offset)
        default: return otherEtherType(type, payloadAt: offset, in: packet, depth: depth)
        }
    }

    /// An Ethernet II frame (IEEE 802.3 §3.2.6) starting at `offset`, inside another
    /// encapsulation: GRE's Transparent Ethernet Bridging, VXLAN, an MPLS pseudowire.
    @inline(never)
    static func ethernet(at offset: Int, in packet: UnsafeRawBufferPointer, depth: Int) -> Outcome {
        guard depth < maximumNesting else { return .unsupportedLayer(.nestingTooDeep) }
        guard packet.count - offset >= 14 else { return .malformed(.truncatedHeader(.linkLayer), offset: offset) }
        return etherType(packet.networkUInt16(at: offset + 12), payloadAt: offset + 14, in: packet, depth: depth + 1)
    }

    /// EtherTypes other than IP's. Values up to 1500 are an IEEE 802.3 length, and 802.2 LLC
    /// follows; its SNAP form with OUI 0 (RFC 1042) carries an EtherType again.
    @inline(never)
    private static func otherEtherType(_ type: UInt16, payloadAt offset: Int, in packet: UnsafeRawBufferPointer,
                                       depth: Int) -> Outcome {
        guard depth < maximumNesting else { return .unsupportedLayer(.nestingTooDeep) }
        switch type {
        case 0x8847, 0x8848:
            return MPLS.decapsulate(at: offset, in: packet, depth: depth + 1)
        case 0x8864:
            return PPPoE.session(at: offset, in: packet, depth: depth + 1)
        case ...0x05DC:
            // DSAP AA, SSAP AA, control 03 (UI), OUI 00-00-00.
            guard packet.count - offset >= 8, packet.networkUInt32(at: offset) == 0xAAAA_0300,
                  packet.networkUInt16(at: offset + 4) == 0 else { return .notIP }
            return etherType(packet.networkUInt16(at: offset + 6), payloadAt: offset + 8, in: packet, depth: depth + 1)
        case _ where neverCarriesTCP(type):
            return .notIP
        default:
            return .unsupportedLayer(.etherType(type))
        }
    }

    /// EtherTypes of protocols that carry no TCP (IEEE's registry): ARP (0x0806), RARP (0x8035),
    /// DEC MOP/DECnet/LAT (0x6001–0x6007), AppleTalk and AARP (0x809B, 0x80F3), IPX (0x8137,
    /// 0x8138), MAC control and slow protocols (0x8808, 0x8809), PPPoE discovery (0x8863),
    /// Microsoft NLB heartbeats (0x886F), EAPOL (0x888E), PROFINET (0x8892), ATA over Ethernet
    /// (0x88A2), EtherCAT (0x88A4), IEC 61850 GOOSE and sampled values (0x88B8–0x88BA), TIPC
    /// (0x88CA), LLDP (0x88CC), HomePlug (0x88E1), MRP (0x88E3), PTP (0x88F7), CFM (0x8902),
    /// FCoE and FIP (0x8906, 0x8914), IEEE 1905.1 (0x893A), GeoNetworking (0x8947), the
    /// loopback test (0x9000); Cisco's CDP in Cisco HDLC (0x2000) and NHRP in GRE (0x2001).
    private static func neverCarriesTCP(_ type: UInt16) -> Bool {
        switch type {
        case 0x0806, 0x8035, 0x6001...0x6007, 0x809B, 0x80F3, 0x8137, 0x8138, 0x8808, 0x8809, 0x8863, 0x886F, 0x888E,
             0x8892, 0x88A2, 0x88A4, 0x88B8...0x88BA, 0x88CA, 0x88CC, 0x88E1, 0x88E3, 0x88F7, 0x8902, 0x8906, 0x8914, 0x893A,
             0x8947, 0x9000, 0x2000, 0x2001:
            true
        default:
            false
        }
    }

    /// BSD loopback address families: AF_INET is 2 everywhere; AF_INET6 is 24 (NetBSD, OpenBSD),
    /// 28 (FreeBSD, DragonFly), 30 (Darwin) and 10 (Linux), and a capture may come from any of them.
    private static func addressFamily(_ family: UInt32) -> Outcome {
        switch family {
        case 2: .ipv4(offset: 4)
        case 10, 24, 28, 30: .ipv6(offset: 4)
        default: .notIP
        }
    }
}
