import TestSupport
import Testing
@testable import PacketDecoding

/// MPLS, PPPoE, PPP, Cisco HDLC, LLC/SNAP, GRE, VXLAN and IP in IP, each down to the TCP segment
/// inside, and what stops them: malformed headers (offsets in the captured packet), layers that
/// carry no TCP, and layers that are not decoded.
@Suite struct EncapsulationTests {
    /// The TCP payload every encapsulated packet carries, in IPv4 and in IPv6.
    static let tunnelled = Array("tunnelled".utf8)
    static let ipv4 = PacketBuilder.ipv4(payload: PacketBuilder.tcp(payload: tunnelled))
    static let ipv6 = PacketBuilder.ipv6(upperLayer: PacketBuilder.tcp(payload: tunnelled))

    private func expectSegment(_ linkType: LinkType, _ packet: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        var parser = PacketParser(linkType: linkType)
        let outcome = parser.outcome(packet)
        #expect(outcome.segment?.payload == Self.tunnelled, "\(outcome)", sourceLocation: sourceLocation)
        #expect(outcome.segment?.missing == 0, sourceLocation: sourceLocation)
    }

    private func outcome(_ linkType: LinkType, _ packet: [UInt8]) -> Outcome {
        var parser = PacketParser(linkType: linkType)
        return parser.outcome(packet)
    }

    private static func label(_ value: UInt32, bottom: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        PacketBuilder.append32(value << 12 | (bottom ? 0x100 : 0) | 64, to: &bytes)
        return bytes
    }

    private static func stack(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { label(UInt32(100 + $0), bottom: $0 == count - 1) }
    }

    private static func ethernetII(_ type: UInt16, _ payload: [UInt8]) -> [UInt8] {
        PacketBuilder.ethernet(etherType: type, pad: false, payload: payload)
    }

    // MARK: MPLS

    @Test(arguments: [1, 2, 5])
    func mplsLabelStackThenIP(labels: Int) {
        expectSegment(.ethernet, Self.ethernetII(0x8847, Self.stack(labels) + Self.ipv4))
        expectSegment(.ethernet, Self.ethernetII(0x8848, Self.stack(labels) + Self.ipv6))
    }

    @Test func mplsEthernetPseudowireWithControlWord() {
        expectSegment(.ethernet, Self.ethernetII(0x8847, Self.stack(1) + [0, 0, 0, 7] + Self.ethernetII(0x0800, Self.ipv4)))
    }

    @Test func mplsPayloadsThatAreNotIP() {
        #expect(outcome(.ethernet, Self.ethernetII(0x8847, Self.stack(1) + [0x10, 0, 0, 0] + Self.ipv4)) == .notTCP)  // G-ACh
        #expect(outcome(.ethernet, Self.ethernetII(0x8847, Self.stack(2) + [0x50] + Self.ipv4)) == .unsupportedLayer(.mplsPayload(firstNibble: 5)))
    }

    @Test func mplsStackCutShort() {
        // No bottom-of-stack bit before the packet ends.
        #expect(outcome(.ethernet, Self.ethernetII(0x8847, Self.label(1, bottom: false) + [0, 0])) == .malformed(.truncatedHeader(.mpls), offset: 18))
        #expect(outcome(.ethernet, Self.ethernetII(0x8847, Self.stack(2))) == .malformed(.truncatedHeader(.mpls), offset: 22))
    }

    // MARK: PPPoE, PPP, Cisco HDLC

    private static func pppoe(_ pppProtocol: [UInt8], _ payload: [UInt8], code: UInt8 = 0) -> [UInt8] {
        var header: [UInt8] = [0x11, code, 0x12, 0x34]
        PacketBuilder.append16(UInt16(pppProtocol.count + payload.count), to: &header)
        return header + pppProtocol + payload
    }

    @Test func pppoeSessions() {
        expectSegment(.ethernet, Self.ethernetII(0x8864, Self.pppoe([0x00, 0x21], Self.ipv4)))
        expectSegment(.ethernet, Self.ethernetII(0x8864, Self.pppoe([0x00, 0x57], Self.ipv6)))
        expectSegment(.pppOverEthernet, Self.pppoe([0x00, 0x21], Self.ipv4))
        #expect(outcome(.ethernet, Self.ethernetII(0x8863, Self.pppoe([], [], code: 0x09))) == .notTCP)  // PADI
        #expect(outcome(.ethernet, Self.ethernetII(0x8864, Self.pppoe([0xC0, 0x21], [1, 1, 0, 4]))) == .notTCP)  // LCP
        #expect(outcome(.ethernet, Self.ethernetII(0x8864, Self.pppoe([0x00, 0x2D], [0x45]))) == .unsupportedLayer(.pppProtocol(0x002D)))
        #expect(outcome(.ethernet, Self.ethernetII(0x8864, [0x11, 0])) == .malformed(.truncatedHeader(.linkLayer), offset: 14))
    }

    @Test func pppFramings() {
        expectSegment(.ppp, [0xFF, 0x03, 0x00, 0x21] + Self.ipv4)
        expectSegment(.ppp, [0x00, 0x57] + Self.ipv6)
        expectSegment(.ppp, [0x21] + Self.ipv4)  // Protocol-Field-Compression (RFC 1661 §6.5)
        expectSegment(.pppSerial, [0xFF, 0x03, 0x00, 0x21] + Self.ipv4)
        expectSegment(.pppSerial, [0x0F, 0x00, 0x08, 0x00] + Self.ipv4)  // Cisco framing
        expectSegment(.ppp, [0xFF, 0x03, 0x02, 0x81] + Self.stack(1) + Self.ipv4)  // MPLS over PPP
        #expect(outcome(.ppp, [0xFF, 0x03, 0x80, 0x21, 1, 1, 0, 4]) == .notTCP)  // IPCP
        #expect(outcome(.ppp, [0xFF]) == .malformed(.truncatedHeader(.linkLayer), offset: 0))
        #expect(outcome(.ppp, [0xFF, 0x03, 0x00]) == .malformed(.truncatedHeader(.linkLayer), offset: 2))
    }

    @Test func ciscoHDLC() {
        expectSegment(.ciscoHDLC, [0x0F, 0x00, 0x08, 0x00] + Self.ipv4)
        expectSegment(.ciscoHDLC, [0x8F, 0x00, 0x86, 0xDD] + Self.ipv6)
        #expect(outcome(.ciscoHDLC, [0x8F, 0x00, 0x80, 0x35] + [UInt8](repeating: 0, count: 20)) == .notTCP)  // SLARP
        #expect(outcome(.ciscoHDLC, [0x0F, 0x00, 0x08]) == .malformed(.truncatedHeader(.linkLayer), offset: 0))
    }

    // MARK: EtherTypes

    @Test func unknownEtherTypesAreUnsupportedAndKnownOnesAreNot() {
        #expect(outcome(.ethernet, Self.ethernetII(0x88B5, Self.ipv4)) == .unsupportedLayer(.etherType(0x88B5)))
        #expect(outcome(.linuxSLL2, PacketBuilder.sll2(protocolType: 0x88B6, payload: Self.ipv4)) == .unsupportedLayer(.etherType(0x88B6)))
        for type: UInt16 in [0x0806, 0x88CC, 0x888E, 0x8809, 0x88F7] {
            #expect(outcome(.ethernet, Self.ethernetII(type, [UInt8](repeating: 0, count: 46))) == .notTCP, "EtherType \(type)")
        }
    }

    @Test func llcSNAPCarriesAnEtherType() {
        let snap: [UInt8] = [0xAA, 0xAA, 0x03, 0, 0, 0, 0x08, 0x00]
        expectSegment(.ethernet, Self.ethernetII(UInt16(snap.count + Self.ipv4.count), snap + Self.ipv4))
        #expect(outcome(.ethernet, Self.ethernetII(0x0026, [0x42, 0x42, 0x03] + [UInt8](repeating: 0, count: 35))) == .notTCP)  // STP
    }

    // MARK: IP tunnels

    private static func gre(flags: UInt16 = 0, protocolType: UInt16, options: [UInt8] = [], _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        PacketBuilder.append16(flags, to: &bytes)
        PacketBuilder.append16(protocolType, to: &bytes)
        return bytes + options + payload
    }

    private static func udp(destinationPort: UInt16, _ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [UInt16(50000), destinationPort, UInt16(8 + payload.count), 0] { PacketBuilder.append16(value, to: &bytes) }
        return bytes + payload
    }

    private static func outer(_ protocolNumber: UInt8, _ payload: [UInt8], v6: Bool = false) -> [UInt8] {
        v6 ? ethernetII(0x86DD, PacketBuilder.ipv6(nextHeader: protocolNumber, upperLayer: payload))
            : ethernetII(0x0800, PacketBuilder.ipv4(protocolNumber: protocolNumber, payload: payload))
    }

    @Test func greToIP() {
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x0800, Self.ipv4)))
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x86DD, Self.ipv6), v6: true))
        // Checksum, key and sequence number: 12 bytes of options.
        expectSegment(.ethernet, Self.outer(47, Self.gre(flags: 0xB000, protocolType: 0x0800, options: [UInt8](repeating: 9, count: 12), Self.ipv4)))
        expectSegment(.ethernet, Self.outer(47, Self.gre(flags: 0x2000, protocolType: 0x6558, options: [0, 0, 0, 5], Self.ethernetII(0x86DD, Self.ipv6))))
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x8847, Self.stack(1) + Self.ipv4)))
    }

    @Test func erspanAndWCCPInGRE() {
        let frame = Self.ethernetII(0x0800, Self.ipv4)
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x88BE, frame)))  // type I: no header
        let typeII: [UInt8] = [0x10, 0x64, 0x00, 0x01, 0, 0, 0, 0]
        expectSegment(.ethernet, Self.outer(47, Self.gre(flags: 0x1000, protocolType: 0x88BE, options: [0, 0, 0, 1], typeII + frame)))
        let typeIII: [UInt8] = [0x20, 0x64, 0x00, 0x01] + [0, 0, 0, 9] + [0, 0, 0x00, 0x00]
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x22EB, typeIII + frame)))
        let withSubheader = Array(typeIII.prefix(11)) + [0x01] + [UInt8](repeating: 0, count: 8)
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x22EB, withSubheader + frame)))
        let ipFrameType = Array(typeIII.prefix(10)) + [0x08, 0x00]  // FT 2
        #expect(outcome(.ethernet, Self.outer(47, Self.gre(protocolType: 0x22EB, ipFrameType + Self.ipv4))) == .unsupportedLayer(.etherType(0x22EB)))
        expectSegment(.ethernet, Self.outer(47, Self.gre(protocolType: 0x883E, [0, 0, 0, 0] + Self.ipv4)))
    }

    @Test func greThatIsNotDecoded() {
        #expect(outcome(.ethernet, Self.outer(47, Self.gre(flags: 0x3001, protocolType: 0x880B, options: [0, 0, 0, 1, 0, 0, 0, 1], [])))
                == .unsupportedLayer(.greHeader(version: 1, routing: false)))
        #expect(outcome(.ethernet, Self.outer(47, Self.gre(flags: 0x4000, protocolType: 0x0800, options: [0, 0, 0, 0], Self.ipv4)))
                == .unsupportedLayer(.greHeader(version: 0, routing: true)))
        #expect(outcome(.ethernet, Self.outer(47, Self.gre(protocolType: 0x8909, [UInt8](repeating: 0, count: 8)))) == .unsupportedLayer(.etherType(0x8909)))
        // Key and sequence flags set, options missing: the GRE header starts at 14 + 20.
        #expect(outcome(.ethernet, Self.outer(47, Self.gre(flags: 0x3000, protocolType: 0x0800, [1, 2]))) == .malformed(.truncatedHeader(.gre), offset: 34))
    }

    @Test func vxlanToEthernet() {
        let vxlan: [UInt8] = [0x08, 0, 0, 0, 0, 0x13, 0x89, 0]
        expectSegment(.ethernet, Self.outer(17, Self.udp(destinationPort: 4789, vxlan + Self.ethernetII(0x0800, Self.ipv4))))
        expectSegment(.ethernet, Self.outer(17, Self.udp(destinationPort: 4789, vxlan + Self.ethernetII(0x86DD, Self.ipv6)), v6: true))
        #expect(outcome(.ethernet, Self.outer(17, Self.udp(destinationPort: 53, vxlan + Self.ipv4))) == .notTCP)
        #expect(outcome(.ethernet, Self.outer(17, Self.udp(destinationPort: 4789, [0x08, 0, 0]))) == .malformed(.truncatedHeader(.vxlan), offset: 42))
    }

    @Test func ipInIP() {
        expectSegment(.ethernet, Self.outer(4, Self.ipv4))
        expectSegment(.ethernet, Self.outer(41, Self.ipv6))
        expectSegment(.ethernet, Self.outer(41, Self.ipv6, v6: true))
        expectSegment(.raw, PacketBuilder.ipv4(protocolNumber: 137, payload: Self.stack(1) + Self.ipv4))  // MPLS in IP
    }

    @Test func errorOffsetsInsideATunnelCountFromThePacketStart() {
        // A TCP header cut short inside GRE: Ethernet 14 + IPv4 20 + GRE 4 + IPv4 20.
        let cut = PacketBuilder.ipv4(payload: Array(PacketBuilder.tcp(payload: Self.tunnelled).prefix(10)))
        #expect(outcome(.ethernet, Self.outer(47, Self.gre(protocolType: 0x0800, cut))) == .malformed(.tcpSegmentTooShort(length: 10), offset: 58))
    }

    @Test func nestingIsBounded() {
        var ipInIP = Self.ipv4
        for _ in 0..<8 { ipInIP = PacketBuilder.ipv4(protocolNumber: 4, payload: ipInIP) }
        expectSegment(.raw, ipInIP)
        #expect(outcome(.raw, PacketBuilder.ipv4(protocolNumber: 4, payload: ipInIP)) == .unsupportedLayer(.nestingTooDeep))

        // Each pseudowire is two levels: its EtherType's MPLS, and the Ethernet frame inside.
        var pseudowires = Self.ethernetII(0x0800, Self.ipv4)
        for _ in 0..<4 { pseudowires = Self.ethernetII(0x8847, Self.stack(1) + [0, 0, 0, 0] + pseudowires) }
        expectSegment(.ethernet, pseudowires)
        for _ in 0..<1 { pseudowires = Self.ethernetII(0x8847, Self.stack(1) + [0, 0, 0, 0] + pseudowires) }
        #expect(outcome(.ethernet, pseudowires) == .unsupportedLayer(.nestingTooDeep))
    }

    @Test func unsupportedLayersNameThemselves() {
        #expect(UnsupportedLayer.etherType(0x88B5).description == "EtherType 0x88B5")
        #expect(UnsupportedLayer.pppProtocol(0x2D).description == "PPP protocol 0x002D")
        #expect(UnsupportedLayer.linkType(LinkType(rawValue: 147)).description == "link type 147")
        #expect(UnsupportedLayer.greHeader(version: 1, routing: false).description == "GRE version 1")
    }
}
