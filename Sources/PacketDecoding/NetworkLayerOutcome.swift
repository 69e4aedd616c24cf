/// Where an IP header leads: the bytes of a TCP segment, or a reason to stop.
enum NetworkLayerOutcome {
    /// A TCP segment: its addresses and bytes.
    case tcp(TransportBytes)
    /// A fragment was buffered by the defragmenter.
    case fragmentHeld
    /// A protocol that carries packets (`IPTunnel`): its payload, to be decoded as a packet.
    case encapsulated(protocolNumber: UInt8, TransportBytes)
    /// Another upper-layer protocol (UDP, ICMP, ESP, No Next Header …).
    case notTCP
    case malformed(MalformedReason, offset: Int)
}

/// An upper-layer PDU as the IP layer delimits it.
struct TransportBytes {
    var source: IPAddress
    var destination: IPAddress
    /// The bytes captured, at most `length`: fewer when the snaplen cut the packet.
    var captured: UnsafeRawBufferPointer
    /// Its length according to the IP header, in bytes.
    var length: Int
    /// Where it starts, for error offsets: in the captured packet, or in the reassembled payload.
    var offset: Int
}
