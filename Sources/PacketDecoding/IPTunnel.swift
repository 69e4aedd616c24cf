/// IP protocols that carry packets which may hold TCP: IP in IP (4, RFC 2003), IPv6 in IP (41,
/// RFC 4213), GRE (47), UDP (17, for VXLAN) and MPLS in IP (137, RFC 4023).
///
/// `IPv4` and `IPv6` hand their payload back as `NetworkLayerOutcome.encapsulated`, and
/// `PacketParser` decodes it as a packet of its own: the inner IP header, its fragments and its
/// TCP go through the same code as the outer ones'.
enum IPTunnel {
    /// Whether packets of `protocolNumber` are looked into.
    @inline(__always)
    static func carriesPackets(_ protocolNumber: UInt8) -> Bool {
        switch protocolNumber {
        case 4, 17, 41, 47, 137: true
        default: false
        }
    }

    /// Locates the inner IP header in `payload`, an IP payload of `protocolNumber`.
    ///
    /// - Parameter depth: tunnels already followed, for the nesting bound.
    static func decapsulate(_ protocolNumber: UInt8, payload: UnsafeRawBufferPointer, depth: Int) -> LinkLayer.Outcome {
        switch protocolNumber {
        case 4: .ipv4(offset: 0)
        case 41: .ipv6(offset: 0)
        case 47: GRE.decapsulate(payload, depth: depth)
        case 17: VXLAN.decapsulate(udp: payload, depth: depth)
        case 137: MPLS.decapsulate(at: 0, in: payload, depth: depth)
        default: .notIP
        }
    }
}
