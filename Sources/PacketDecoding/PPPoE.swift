/// PPPoE session frames (RFC 2516 §4; EtherType 0x8864, or the `PPP_ETHER` link type):
///
/// ```
///  0       4       8              16                              31
///  +-------+-------+---------------+-------------------------------+
///  |  VER  | TYPE  |     CODE      |          SESSION_ID           |
///  |            LENGTH             |   PPP protocol, payload …     |
/// ```
///
/// A session packet has CODE 0 and its LENGTH counts the PPP protocol field and payload; the
/// IP header's own length is what the parser goes by, so LENGTH is not checked against it.
/// Discovery packets (EtherType 0x8863, or CODE ≠ 0) carry no user data.
enum PPPoE {
    static let headerLength = 6

    /// Locates the IP header in the PPPoE session packet at `offset`.
    static func session(at offset: Int, in packet: UnsafeRawBufferPointer, depth: Int) -> LinkLayer.Outcome {
        guard packet.count - offset >= headerLength else { return .malformed(.truncatedHeader(.linkLayer), offset: offset) }
        guard packet[offset + 1] == 0 else { return .notIP }
        return PPP.payload(at: offset + headerLength, in: packet, depth: depth)
    }
}
