/// Why a captured packet could not be decoded down to a TCP segment.
///
/// Returned with the byte offset where decoding stopped (see `PacketParser.Result.malformed`).
/// A packet cut by the snaplen inside the TCP *payload* is not malformed — those bytes become
/// `TCPSegment.missingPayloadLength` — but one cut inside a header is `.truncatedHeader`.
public enum MalformedReason: Sendable, Hashable, CustomStringConvertible {
    /// A header the parser must read.
    public enum Header: Sendable, Hashable, CustomStringConvertible {
        case linkLayer, vlanTag, pktap, mpls, ipv4, ipv6, ipv6Extension, gre, udp, vxlan, tcp

        /// The header's name as messages show it.
        public var description: String {
            switch self {
            case .linkLayer: "link-layer"
            case .vlanTag: "VLAN tag"
            case .pktap: "PKTAP"
            case .mpls: "MPLS label stack"
            case .gre: "GRE"
            case .udp: "UDP"
            case .vxlan: "VXLAN"
            case .ipv4: "IPv4"
            case .ipv6: "IPv6"
            case .ipv6Extension: "IPv6 extension"
            case .tcp: "TCP"
            }
        }
    }

    /// The captured bytes end inside this header (cut by the snaplen, or a runt packet).
    case truncatedHeader(Header)
    /// A PKTAP header whose own length field is shorter than its fixed part or longer than the
    /// packet captured (`pth_length`, bytes).
    case badPKTAPHeaderLength(Int)
    /// The IP version nibble is not the version the link layer announced, or neither 4 nor 6 on raw IP.
    case unexpectedIPVersion(UInt8)
    /// IPv4 IHL below 5 words (RFC 791 §3.1); the value is in bytes.
    case badIPv4HeaderLength(Int)
    /// IPv4 total length smaller than its own header (RFC 791 §3.1); both in bytes.
    case badIPv4TotalLength(totalLength: Int, headerLength: Int)
    /// The IP header claims more bytes than the packet had on the wire (the pcap original length).
    case ipLengthExceedsWireLength(ipLength: Int, wireLength: Int)
    /// A fragment other than the last whose data length is not a multiple of 8 bytes
    /// (RFC 791 §3.2, RFC 8200 §4.5).
    case misalignedFragment(length: Int)
    /// A fragment reaching past the largest datagram the defragmenter accepts (65,535 bytes of payload).
    case fragmentBeyondMaximumDatagram(end: Int)
    /// An IPv6 extension header whose length runs past the payload length (RFC 8200 §4).
    case ipv6ExtensionHeaderBeyondPayload(nextHeader: UInt8)
    /// A Fragment header inside an already fragmented IPv6 packet (RFC 8200 §4.5 forbids it).
    case nestedIPv6Fragment
    /// The IP layer gives the TCP segment fewer bytes than the 20-byte minimum header (RFC 9293 §3.1).
    case tcpSegmentTooShort(length: Int)
    /// TCP data offset below 20 bytes or past the segment's end (RFC 9293 §3.1); both in bytes.
    case badTCPDataOffset(headerLength: Int, segmentLength: Int)

    /// What was wrong, in words (`truncated TCP header`, …).
    public var description: String {
        switch self {
        case .truncatedHeader(let header): "truncated \(header) header"
        case .badPKTAPHeaderLength(let length): "PKTAP header length \(length) bytes is invalid for the packet"
        case .unexpectedIPVersion(let version): "unexpected IP version \(version)"
        case .badIPv4HeaderLength(let length): "IPv4 header length \(length) bytes, expected at least 20"
        case .badIPv4TotalLength(let total, let header):
            "IPv4 total length \(total) bytes is shorter than its \(header)-byte header"
        case .ipLengthExceedsWireLength(let ip, let wire): "IP length \(ip) bytes exceeds the \(wire) bytes on the wire"
        case .misalignedFragment(let length): "fragment of \(length) bytes is not a multiple of 8 and is not the last"
        case .fragmentBeyondMaximumDatagram(let end): "fragment ends at byte \(end), past the 65535-byte maximum datagram"
        case .ipv6ExtensionHeaderBeyondPayload(let next): "IPv6 extension header \(next) runs past the payload length"
        case .nestedIPv6Fragment: "IPv6 Fragment header inside a fragmented packet"
        case .tcpSegmentTooShort(let length): "TCP segment of \(length) bytes is shorter than the 20-byte header"
        case .badTCPDataOffset(let header, let segment):
            "TCP data offset \(header) bytes is invalid for a \(segment)-byte segment"
        }
    }
}
