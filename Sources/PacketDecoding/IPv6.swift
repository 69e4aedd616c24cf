/// Decodes IPv6 packets (RFC 8200 §3) and walks their extension-header chain (RFC 8200 §4) to TCP.
///
/// ```
///  +--------+------------+----------------+     +--------------+     +-----+
///  | fixed  | Next Header| Payload Length | ... | ext header … | ... | TCP |
///  | 40 B   | (byte 6)   | (bytes 4–5)    |     | next, length |     |     |
///  +--------+------------+----------------+     +--------------+     +-----+
/// ```
///
/// Extension headers are skipped by their length field: in 8-byte units not counting the first 8
/// for Hop-by-Hop Options (0), Routing (43), Destination Options (60), Mobility (135, RFC 6275),
/// HIP (139) and Shim6 (140) — RFC 8200 §4.8's uniform format; in 4-byte units minus 2 for the
/// Authentication Header (51, RFC 4302 §2.2); the Fragment header (44) is always 8 bytes.
/// No Next Header (59), ESP (50) and every other value end the chain as "not TCP".
///
/// Fragments (RFC 8200 §4.5) are reassembled by the same `IPDefragmenter` as IPv4's; the chain
/// then continues in the reassembled payload from the first fragment's Next Header. An atomic
/// fragment (offset 0, M clear; RFC 6946) is decoded at once, its Fragment header skipped.
///
/// Payload Length 0 announces a jumbogram (RFC 2675). What captures actually hold is Linux
/// BIG TCP: super-packets over 64 KiB whose Hop-by-Hop Jumbo Payload option the kernel removes
/// before the packet tap, leaving no length in the packet at all. Either way the wire length is
/// the only length left, so — as tcpdump does — the payload is taken to run to the end of the
/// frame on the wire.
enum IPv6 {
    static let headerLength = 40
    private static let fragmentHeader: UInt8 = 44

    /// Decodes the IPv6 packet at `offset` of `packet`; parameters as `IPv4.decode`.
    @inline(__always)
    static func decode(_ packet: UnsafeRawBufferPointer, at offset: Int, wireLength: Int, timestamp: Timestamp,
                       defragmenter: inout IPDefragmenter) -> NetworkLayerOutcome {
        let bytes = packet.slice(offset, packet.count)
        guard bytes.count >= headerLength else { return .malformed(.truncatedHeader(.ipv6), offset: offset) }
        let version = bytes[0] >> 4
        guard version == 6 else { return .malformed(.unexpectedIPVersion(version), offset: offset) }
        let wireIPLength = max(wireLength, packet.count) - offset
        var payloadLength = Int(bytes.networkUInt16(at: 4))
        if payloadLength == 0 { payloadLength = wireIPLength - headerLength }
        // Beyond the captured bytes with nothing cut: believed, as in `IPv4.decode`.
        guard headerLength + payloadLength <= wireIPLength || packet.count >= wireLength else {
            return .malformed(.ipLengthExceedsWireLength(ipLength: headerLength + payloadLength, wireLength: wireIPLength),
                              offset: offset + 4)
        }
        let addresses = (source: IPAddress.v6(bytes.networkUInt64(at: 8), bytes.networkUInt64(at: 16)),
                         destination: IPAddress.v6(bytes.networkUInt64(at: 24), bytes.networkUInt64(at: 32)))
        let payload = bytes.slice(headerLength, min(bytes.count, headerLength + payloadLength))
        return upperLayer(bytes[6], in: payload, length: payloadLength, at: offset + headerLength,
                          addresses: addresses, fragmentAllowed: true, timestamp: timestamp, defragmenter: &defragmenter)
    }

    /// Follows the header chain that starts with `nextHeader` at the beginning of `captured`.
    /// - Parameters:
    ///   - captured: the bytes captured from the chain's start, at most `length`.
    ///   - length: the chain's length per the Payload Length (or reassembly), in bytes.
    ///   - base: where `captured` starts, for error offsets.
    ///   - fragmentAllowed: false inside a fragmented packet, where a second Fragment header is malformed.
    private static func upperLayer(_ nextHeader: UInt8, in captured: UnsafeRawBufferPointer, length: Int, at base: Int,
                                   addresses: (source: IPAddress, destination: IPAddress), fragmentAllowed: Bool,
                                   timestamp: Timestamp, defragmenter: inout IPDefragmenter) -> NetworkLayerOutcome {
        var next = nextHeader
        var position = 0
        while true {
            let extensionLength: Int
            switch next {
            case 6:
                return .tcp(TransportBytes(source: addresses.source, destination: addresses.destination,
                                           captured: captured.slice(position, captured.count),
                                           length: length - position, offset: base + position))
            case 0, 43, 44, 51, 60, 135, 139, 140:
                guard position + 2 <= length else {
                    return .malformed(.ipv6ExtensionHeaderBeyondPayload(nextHeader: next), offset: base + position)
                }
                guard position + 2 <= captured.count else {
                    return .malformed(.truncatedHeader(.ipv6Extension), offset: base + position)
                }
                let lengthField = Int(captured[position + 1])
                extensionLength = switch next {
                case fragmentHeader: 8
                case 51: (lengthField + 2) * 4
                default: (lengthField + 1) * 8
                }
            default:
                return .notTCP
            }
            guard position + extensionLength <= length else {
                return .malformed(.ipv6ExtensionHeaderBeyondPayload(nextHeader: next), offset: base + position)
            }
            guard position + extensionLength <= captured.count else {
                return .malformed(.truncatedHeader(.ipv6Extension), offset: base + position)
            }
            // An atomic fragment (offset 0, M clear; RFC 6946) is a whole packet: skipped like any
            // other extension header, wherever it appears.
            if next == fragmentHeader, captured.networkUInt16(at: position + 2) & 0xFFF9 != 0 {
                guard fragmentAllowed else { return .malformed(.nestedIPv6Fragment, offset: base + position) }
                return fragment(at: position, in: captured, length: length, at: base, addresses: addresses,
                                timestamp: timestamp, defragmenter: &defragmenter)
            }
            next = captured[position]
            position += extensionLength
        }
    }

    /// Hands the (non-atomic) fragment whose Fragment header is at `position` to the defragmenter
    /// (RFC 8200 §4.5). The header:
    /// Next Header (1), reserved (1), offset in 8-byte units (13 bits) · reserved (2) · M (1), Identification (4).
    private static func fragment(at position: Int, in captured: UnsafeRawBufferPointer, length: Int, at base: Int,
                                 addresses: (source: IPAddress, destination: IPAddress),
                                 timestamp: Timestamp, defragmenter: inout IPDefragmenter) -> NetworkLayerOutcome {
        let inner = captured[position]
        let field = captured.networkUInt16(at: position + 2)
        let fragmentOffset = Int(field & 0xFFF8)
        let moreFragments = field & 1 != 0
        let dataStart = position + 8
        let data = captured.slice(dataStart, captured.count)
        let key = IPDefragmenter.Key(source: addresses.source, destination: addresses.destination,
                                     identification: captured.networkUInt32(at: position + 4), protocolNumber: fragmentHeader)
        switch defragmenter.add(key, offset: fragmentOffset, length: length - dataStart, moreFragments: moreFragments,
                                captured: data, firstHeader: inner, at: timestamp) {
        case .held:
            return .fragmentHeld
        case .malformed(let reason):
            return .malformed(reason, offset: base + position + 2)
        case .complete(let reassembled, let reassembledLength, let firstHeader):
            return upperLayer(firstHeader, in: reassembled, length: reassembledLength, at: 0, addresses: addresses,
                              fragmentAllowed: false, timestamp: timestamp, defragmenter: &defragmenter)
        }
    }
}
