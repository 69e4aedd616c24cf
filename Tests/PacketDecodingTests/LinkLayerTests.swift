import TestSupport
import Testing
@testable import PacketDecoding

@Suite struct LinkLayerTests {
    let payload = Array("hello".utf8)
    var tcp: [UInt8] { PacketBuilder.tcp(payload: payload) }
    var ipv4: [UInt8] { PacketBuilder.ipv4(payload: tcp) }
    var ipv6: [UInt8] { PacketBuilder.ipv6(upperLayer: tcp) }

    private func expectSegment(_ linkType: LinkType, _ packet: [UInt8], v6: Bool = false,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        var parser = PacketParser(linkType: linkType)
        let decoded = parser.outcome(packet).segment
        #expect(decoded?.payload == payload, sourceLocation: sourceLocation)
        #expect(decoded?.missing == 0, sourceLocation: sourceLocation)
        let expected: IPAddress = v6 ? .v6(PacketBuilder.clientV6.0, PacketBuilder.clientV6.1) : .v4(PacketBuilder.clientV4)
        #expect(decoded?.source == Endpoint(address: expected, port: 40000), sourceLocation: sourceLocation)
    }

    @Test func ethernet() {
        expectSegment(.ethernet, PacketBuilder.ethernet(etherType: 0x0800, payload: ipv4))
        expectSegment(.ethernet, PacketBuilder.ethernet(etherType: 0x86DD, payload: ipv6), v6: true)
    }

    @Test(arguments: [[0x8100], [0x88A8, 0x8100], [0x9100, 0x8100], [0x88A8, 0x88A8, 0x8100, 0x8100]] as [[UInt16]])
    func stackedVLANTags(tags: [UInt16]) {
        expectSegment(.ethernet, PacketBuilder.ethernet(etherType: 0x0800, vlanTags: tags, payload: ipv4))
    }

    @Test func vlanTagCutShortIsATruncatedTag() {
        var parser = PacketParser(linkType: .ethernet)
        let frame = PacketBuilder.ethernet(etherType: 0x0800, vlanTags: [0x8100, 0x8100], pad: false, payload: [])
        #expect(parser.outcome(Array(frame.prefix(20))) == .malformed(.truncatedHeader(.vlanTag), offset: 18))
    }

    @Test func linuxCookedV1AndV2() {
        expectSegment(.linuxSLL, PacketBuilder.sll(protocolType: 0x0800, payload: ipv4))
        expectSegment(.linuxSLL, PacketBuilder.sll(protocolType: 0x86DD, payload: ipv6), v6: true)
        expectSegment(.linuxSLL2, PacketBuilder.sll2(protocolType: 0x0800, payload: ipv4))
        expectSegment(.linuxSLL2, PacketBuilder.sll2(protocolType: 0x86DD, payload: ipv6), v6: true)
    }

    @Test func cookedCaptureWithReinsertedVLANTag() {
        var tagged: [UInt8] = [0x00, 0x64, 0x08, 0x00]  // TCI 100, then IPv4
        tagged += ipv4
        expectSegment(.linuxSLL, PacketBuilder.sll(protocolType: 0x8100, payload: tagged))
        expectSegment(.linuxSLL2, PacketBuilder.sll2(protocolType: 0x8100, payload: tagged))
    }

    @Test(arguments: [LinkType.raw, LinkType(rawValue: 12), LinkType(rawValue: 14)])
    func rawIPByVersionNibble(linkType: LinkType) {
        expectSegment(linkType, ipv4)
        expectSegment(linkType, ipv6, v6: true)
        var parser = PacketParser(linkType: linkType)
        #expect(parser.outcome([0x50] + ipv4.dropFirst()) == .malformed(.unexpectedIPVersion(5), offset: 0))
        #expect(parser.outcome([]) == .malformed(.truncatedHeader(.ipv4), offset: 0))
    }

    @Test func ipv4AndIPv6LinkTypes() {
        expectSegment(.ipv4, ipv4)
        expectSegment(.ipv6, ipv6, v6: true)
        var parser = PacketParser(linkType: .ipv4)
        #expect(parser.outcome(ipv6) == .malformed(.unexpectedIPVersion(6), offset: 0))
    }

    @Test(arguments: [false, true])
    func bsdNullInEitherByteOrder(bigEndian: Bool) {
        expectSegment(.null, PacketBuilder.null(family: 2, bigEndian: bigEndian, payload: ipv4))
        for family: UInt32 in [10, 24, 28, 30] {
            expectSegment(.null, PacketBuilder.null(family: family, bigEndian: bigEndian, payload: ipv6), v6: true)
        }
        var parser = PacketParser(linkType: .null)
        #expect(parser.outcome(PacketBuilder.null(family: 7, bigEndian: bigEndian, payload: ipv4)) == .notTCP)
    }

    @Test func openBSDLoop() {
        expectSegment(.loop, PacketBuilder.loop(family: 2, payload: ipv4))
        expectSegment(.loop, PacketBuilder.loop(family: 24, payload: ipv6), v6: true)
        var parser = PacketParser(linkType: .loop)
        #expect(parser.outcome(PacketBuilder.loop(family: 23, payload: ipv4)) == .notTCP)
    }

    @Test func otherEtherTypesAreNotTCP() {
        var parser = PacketParser(linkType: .ethernet)
        #expect(parser.outcome(PacketBuilder.ethernet(etherType: 0x0806, payload: Array(repeating: 0, count: 28))) == .notTCP)
        #expect(parser.outcome(PacketBuilder.ethernet(etherType: 0x0042, payload: ipv4)) == .notTCP)  // 802.3 length
        #expect(parser.outcome(PacketBuilder.ethernet(etherType: 0x8100, vlanTags: [0x8100], payload: ipv4)) == .notTCP)
    }

    @Test func truncatedLinkHeaders() {
        let cases: [(LinkType, Int)] = [(.ethernet, 14), (.linuxSLL, 16), (.linuxSLL2, 20), (.null, 4), (.loop, 4)]
        for (linkType, headerLength) in cases {
            var parser = PacketParser(linkType: linkType)
            #expect(parser.outcome(Array(repeating: 0, count: headerLength - 1)) == .malformed(.truncatedHeader(.linkLayer), offset: 0))
        }
    }

    @Test func descriptionIsTheNameOrTheBareNumber() {
        #expect("\(LinkType.ethernet)" == "EN10MB")
        #expect("\(LinkType(rawValue: 12))" == "RAW")
        // Messages say "link type \(linkType)": an unnamed type must not repeat the words.
        #expect("link type \(LinkType(rawValue: 147))" == "link type 147")
    }

    @Test func unsupportedLinkTypeIsReportedForEveryPacket() {
        let ieee80211 = LinkType(rawValue: 105)
        #expect(!PacketParser.supports(ieee80211))
        for linkType in [LinkType.null, .ethernet, .raw, .ipv4, .ipv6, .loop, .linuxSLL, .linuxSLL2] {
            #expect(PacketParser.supports(linkType))
        }
        var parser = PacketParser(linkType: ieee80211)
        #expect(parser.outcome(ipv4) == .unsupportedLinkType(ieee80211))
        #expect(parser.outcome([]) == .unsupportedLinkType(ieee80211))
    }
}
