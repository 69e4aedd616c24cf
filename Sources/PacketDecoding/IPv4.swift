/// Decodes IPv4 headers (RFC 791 §3.1) and hands fragments (RFC 791 §3.2) to the defragmenter.
///
/// ```
///  0       4       8               16      19                      31
///  +-------+-------+---------------+-------+-----------------------+
///  |Version|  IHL  |   DS / ECN    |          Total Length         |
///  |         Identification        |Flags|    Fragment Offset      |
///  |  Time to Live |   Protocol    |        Header Checksum        |
///  |                        Source Address                         |
///  |                     Destination Address                       |
///  |                  Options (IHL > 5) ...                        |
/// ```
///
/// - The header checksum is not verified: captures taken on the sending host see packets before
///   checksum offload fills it in.
/// - Bytes captured past Total Length are link-layer padding (Ethernet's 60-byte minimum, an FCS)
///   and are ignored.
/// - Total Length 0 is what TCP segmentation offload leaves in captures of large outgoing
///   segments; as Wireshark's "Support packet-capture from IP TSO-enabled hardware", the length
///   is then taken from the wire length.
/// - A Total Length beyond the captured bytes is believed when the capture record says nothing
///   was cut (caplen = len): some capture paths write the record's length after cutting the
///   packet. The bytes present are the segment's, the rest are missing (a `notCaptured` gap, as
///   for a snaplen cut; the peer's ACKs usually show they arrived). A Total Length beyond the
///   record's wire length is a header that lies: malformed.
enum IPv4 {
    static let minimumHeaderLength = 20
    private static let protocolTCP: UInt8 = 6

    /// Decodes the IPv4 packet at `offset` of `packet`.
    /// - Parameters:
    ///   - packet: the captured frame.
    ///   - offset: where the IPv4 header starts.
    ///   - wireLength: the frame's length on the wire (pcap original length), in bytes.
    ///   - timestamp: capture time, for fragment timeouts.
    ///   - defragmenter: buffers fragments.
    @inline(__always)
    static func decode(_ packet: UnsafeRawBufferPointer, at offset: Int, wireLength: Int, timestamp: Timestamp,
                       defragmenter: inout IPDefragmenter) -> NetworkLayerOutcome {
        let bytes = packet.slice(offset, packet.count)
        guard bytes.count >= minimumHeaderLength else { return .malformed(.truncatedHeader(.ipv4), offset: offset) }
        let version = bytes[0] >> 4
        guard version == 4 else { return .malformed(.unexpectedIPVersion(version), offset: offset) }
        let headerLength = Int(bytes[0] & 0x0F) * 4
        guard headerLength >= minimumHeaderLength else {
            return .malformed(.badIPv4HeaderLength(headerLength), offset: offset)
        }
        guard bytes.count >= headerLength else { return .malformed(.truncatedHeader(.ipv4), offset: offset) }

        let wireIPLength = max(wireLength, packet.count) - offset
        var totalLength = Int(bytes.networkUInt16(at: 2))
        if totalLength == 0 { totalLength = wireIPLength }
        guard totalLength >= headerLength else {
            return .malformed(.badIPv4TotalLength(totalLength: totalLength, headerLength: headerLength), offset: offset + 2)
        }
        guard totalLength <= wireIPLength || packet.count >= wireLength else {
            return .malformed(.ipLengthExceedsWireLength(ipLength: totalLength, wireLength: wireIPLength), offset: offset + 2)
        }

        let protocolNumber = bytes[9]
        let source = IPAddress.v4(bytes.networkUInt32(at: 12))
        let destination = IPAddress.v4(bytes.networkUInt32(at: 16))
        let payload = bytes.slice(headerLength, min(bytes.count, totalLength))
        let payloadLength = totalLength - headerLength
        let fragmentField = bytes.networkUInt16(at: 6)
        let moreFragments = fragmentField & 0x2000 != 0
        let fragmentOffset = Int(fragmentField & 0x1FFF) * 8

        if !moreFragments && fragmentOffset == 0 {
            guard protocolNumber == protocolTCP else { return .notTCP }
            return .tcp(TransportBytes(source: source, destination: destination, captured: payload,
                                       length: payloadLength, offset: offset + headerLength))
        }
        // Only TCP is wanted, and every IPv4 fragment names its protocol: other protocols' fragments
        // are not worth the defragmenter's memory.
        guard protocolNumber == protocolTCP else { return .notTCP }
        let key = IPDefragmenter.Key(source: source, destination: destination,
                                     identification: UInt32(bytes.networkUInt16(at: 4)), protocolNumber: protocolNumber)
        switch defragmenter.add(key, offset: fragmentOffset, length: payloadLength, moreFragments: moreFragments,
                                captured: payload, firstHeader: protocolNumber, at: timestamp) {
        case .held:
            return .fragmentHeld
        case .malformed(let reason):
            return .malformed(reason, offset: offset + 6)
        case .complete(let reassembled, let length, _):
            return .tcp(TransportBytes(source: source, destination: destination, captured: reassembled,
                                       length: length, offset: 0))
        }
    }
}
