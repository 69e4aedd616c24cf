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
///
/// libpcap re-inserts VLAN tags stripped by the NIC after the cooked header as well, so the
/// SLL and SLL2 EtherTypes go through the same VLAN unwrapping as Ethernet's.
enum LinkLayer {
    /// Where the link layer leads.
    enum Outcome: Equatable {
        /// An IPv4 header starts at `offset`.
        case ipv4(offset: Int)
        /// An IPv6 header starts at `offset`.
        case ipv6(offset: Int)
        /// The frame carries something other than IP (ARP, LLC, another address family …).
        case notIP
        case malformed(MalformedReason, offset: Int)
        case unsupported
    }

    /// Whether `decapsulate` understands `linkType`.
    static func supports(_ linkType: LinkType) -> Bool {
        switch linkType.rawValue {
        case 0, 1, 12, 14, 101, 108, 113, 228, 229, 276: true
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
            return .unsupported
        }
    }

    /// Follows an EtherType through any stacked VLAN tags (IEEE 802.1Q / 802.1ad; 0x9100 is the
    /// pre-standard QinQ outer tag), each 4 bytes: TCI, then the next EtherType.
    @inline(__always)
    private static func etherType(_ type: UInt16, payloadAt start: Int, in packet: UnsafeRawBufferPointer) -> Outcome {
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
        default: return .notIP
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
