/// Decodes a TCP header (RFC 9293 §3.1) into a `TCPSegment`.
///
/// ```
///  0               8              16              24              31
///  +---------------+---------------+-------------------------------+
///  |          Source Port          |       Destination Port        |
///  |                        Sequence Number                        |
///  |                    Acknowledgment Number                      |
///  | DOff  | Rsrvd |     Flags     |            Window             |
///  |           Checksum            |        Urgent Pointer         |
///  |                  Options (DOff > 5) ...                       |
/// ```
///
/// Options are skipped: reassembly needs sequence numbers, flags and payload only. The checksum
/// is not verified (offload leaves it wrong in captures taken on the sending host).
enum TCPHeader {
    static let minimumLength = 20

    /// The segment in `transport`, or why there is none.
    ///
    /// Payload bytes the IP length promises beyond the captured ones become `missingPayloadLength`;
    /// a header cut short is `.truncatedHeader(.tcp)`.
    @inline(__always)
    static func decode(_ transport: TransportBytes) -> PacketParser.Result {
        let bytes = transport.captured
        guard transport.length >= minimumLength else {
            return .malformed(.tcpSegmentTooShort(length: transport.length), offset: transport.offset)
        }
        guard bytes.count >= minimumLength else { return .malformed(.truncatedHeader(.tcp), offset: transport.offset) }
        let headerLength = Int(bytes[12] >> 4) * 4
        guard headerLength >= minimumLength, headerLength <= transport.length else {
            return .malformed(.badTCPDataOffset(headerLength: headerLength, segmentLength: transport.length),
                              offset: transport.offset + 12)
        }
        guard headerLength <= bytes.count else { return .malformed(.truncatedHeader(.tcp), offset: transport.offset) }
        return .segment(TCPSegment(
            source: Endpoint(address: transport.source, port: bytes.networkUInt16(at: 0)),
            destination: Endpoint(address: transport.destination, port: bytes.networkUInt16(at: 2)),
            sequenceNumber: bytes.networkUInt32(at: 4),
            acknowledgmentNumber: bytes.networkUInt32(at: 8),
            flags: TCPFlags(rawValue: bytes[13]),
            window: bytes.networkUInt16(at: 14),
            payload: bytes.slice(headerLength, bytes.count),
            missingPayloadLength: transport.length - bytes.count))
    }
}
