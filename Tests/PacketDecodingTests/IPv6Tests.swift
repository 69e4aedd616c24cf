import TestSupport
import Testing
@testable import PacketDecoding

@Suite struct IPv6Tests {
    typealias Extension = PacketBuilder.Extension
    let payload = Array("GET / HTTP/1.1\r\n".utf8)
    var parser = PacketParser(linkType: .raw)

    @Test mutating func addressesAndPayload() {
        let decoded = parser.outcome(PacketBuilder.ipv6(upperLayer: PacketBuilder.tcp(payload: payload))).segment
        #expect(decoded?.payload == payload)
        #expect(decoded?.destination.description == "[2001:db8::2]:7000")
    }

    @Test mutating func extensionHeaderChain() {
        let chain: [Extension] = [.options(0), .options(43, units: 3), .authentication(words: 7), .options(60, units: 2),
                                  .options(135), .fragment(offset: 0, more: false)]
        let decoded = parser.outcome(PacketBuilder.ipv6(extensions: chain, upperLayer: PacketBuilder.tcp(payload: payload))).segment
        #expect(decoded?.payload == payload)
    }

    @Test mutating func chainsEndingElsewhereAreNotTCP() {
        #expect(parser.outcome(PacketBuilder.ipv6(extensions: [.options(0)], nextHeader: 59, upperLayer: [])) == .notTCP)
        #expect(parser.outcome(PacketBuilder.ipv6(nextHeader: 17, upperLayer: Array(repeating: 0, count: 8))) == .notTCP)
        #expect(parser.outcome(PacketBuilder.ipv6(nextHeader: 50, upperLayer: Array(repeating: 0, count: 16))) == .notTCP)
    }

    @Test mutating func bigTCPSuperPacketTakesItsLengthFromTheWire() {
        // Linux BIG TCP as captured: Payload Length 0, no Jumbo option left, 80,000 bytes on the wire.
        let packet = PacketBuilder.ipv6(payloadLength: 0, upperLayer: PacketBuilder.tcp(payload: payload))
        let decoded = parser.outcome(packet, wireLength: 80_000).segment
        #expect(decoded?.payload == payload)
        #expect(decoded?.missing == 80_000 - 40 - 20 - payload.count)
    }

    @Test mutating func jumbogramWithHopByHopOption() {
        let jumbo = Extension(type: 0, body: [0, 0xC2, 4, 0, 0, 0, 0])  // Jumbo Payload option, RFC 2675 §2
        let packet = PacketBuilder.ipv6(extensions: [jumbo], payloadLength: 0, upperLayer: PacketBuilder.tcp(payload: payload))
        #expect(parser.outcome(packet).segment?.payload == payload)
        #expect(parser.outcome(Array(packet.prefix(40))) == .malformed(.ipv6ExtensionHeaderBeyondPayload(nextHeader: 0), offset: 40))
    }

    @Test mutating func extensionHeaderLongerThanThePayload() {
        var packet = PacketBuilder.ipv6(extensions: [.options(60)], upperLayer: PacketBuilder.tcp())
        packet[41] = 200  // Hdr Ext Len: 1608 bytes
        #expect(parser.outcome(packet) == .malformed(.ipv6ExtensionHeaderBeyondPayload(nextHeader: 60), offset: 40))
    }

    @Test mutating func extensionHeaderCutBySnaplen() {
        let packet = PacketBuilder.ipv6(extensions: [.options(0, units: 4)], upperLayer: PacketBuilder.tcp(payload: payload))
        #expect(parser.outcome(packet, captured: 41) == .malformed(.truncatedHeader(.ipv6Extension), offset: 40))
        #expect(parser.outcome(packet, captured: 60) == .malformed(.truncatedHeader(.ipv6Extension), offset: 40))
        #expect(parser.outcome(packet, captured: 40 + 32 + 20 + 4).segment?.missing == payload.count - 4)
    }

    @Test mutating func payloadLengthBeyondTheWire() {
        let packet = PacketBuilder.ipv6(payloadLength: 1000, upperLayer: PacketBuilder.tcp())
        #expect(parser.outcome(packet, wireLength: packet.count + 10)
                == .malformed(.ipLengthExceedsWireLength(ipLength: 1040, wireLength: 70), offset: 4), "cut by 10 bytes: the header lies")
        // Nothing cut by the capture record (caplen = len): the bytes present, the rest missing.
        #expect(parser.outcome(packet).segment?.missing == 1000 - 20)
    }

    @Test mutating func fragmentsAreReassembled() {
        let tcp = PacketBuilder.tcp(payload: Array(repeating: 7, count: 100))
        let first = PacketBuilder.ipv6(extensions: [.options(0), .fragment(offset: 0, more: true)], upperLayer: Array(tcp[0..<64]))
        // Later fragments carry the first one's Next Header too; the first fragment's is the one used.
        let last = PacketBuilder.ipv6(extensions: [.fragment(offset: 64, more: false)], nextHeader: 6, upperLayer: Array(tcp[64...]))
        #expect(parser.outcome(last) == .fragmentHeld)
        let decoded = parser.outcome(first).segment
        #expect(decoded?.payload == Array(repeating: 7, count: 100))
        #expect(decoded?.source.address == .v6(PacketBuilder.clientV6.0, PacketBuilder.clientV6.1))
        #expect(parser.defragmentationStatistics.datagramsReassembled == 1)
    }

    @Test mutating func reassembledChainContinuesPastDestinationOptions() {
        let inner = [60] + [6, 0, 1, 4, 0, 0, 0, 0] + PacketBuilder.tcp(payload: [1, 2, 3])  // Destination Options, then TCP
        let fragmentable = Array(inner.dropFirst())
        let first = PacketBuilder.ipv6(extensions: [.fragment(offset: 0, more: true)], nextHeader: 60, upperLayer: Array(fragmentable[0..<16]))
        let last = PacketBuilder.ipv6(extensions: [.fragment(offset: 16, more: false)], nextHeader: 60, upperLayer: Array(fragmentable[16...]))
        #expect(parser.outcome(first) == .fragmentHeld)
        #expect(parser.outcome(last).segment?.payload == [1, 2, 3])
    }

    @Test mutating func atomicFragmentsAreSkippedWherever() {
        let chain: [Extension] = [.options(0), .fragment(offset: 0, more: false), .options(43), .fragment(offset: 0, more: false)]
        #expect(parser.outcome(PacketBuilder.ipv6(extensions: chain, upperLayer: PacketBuilder.tcp(payload: payload))).segment?.payload == payload)
    }

    @Test mutating func fragmentInsideAReassembledPacketIsMalformed() {
        // The reassembled payload starts with a second, non-atomic Fragment header.
        let inner: [UInt8] = [6, 0, 0, 9, 0, 0, 0, 1] + PacketBuilder.tcp()
        let first = PacketBuilder.ipv6(extensions: [.fragment(offset: 0, more: true)], nextHeader: 44, upperLayer: Array(inner[0..<16]))
        let last = PacketBuilder.ipv6(extensions: [.fragment(offset: 16, more: false)], nextHeader: 44, upperLayer: Array(inner[16...]))
        #expect(parser.outcome(first) == .fragmentHeld)
        #expect(parser.outcome(last) == .malformed(.nestedIPv6Fragment, offset: 0))
    }

    @Test mutating func misalignedFragment() {
        let packet = PacketBuilder.ipv6(extensions: [.fragment(offset: 0, more: true)], upperLayer: Array(repeating: 0, count: 30))
        #expect(parser.outcome(packet) == .malformed(.misalignedFragment(length: 30), offset: 42))
    }
}
