import TestSupport
import Testing
@testable import PacketDecoding

@Suite struct IPv4Tests {
    let payload = Array(0..<200).map { UInt8($0 & 0xFF) }
    var parser = PacketParser(linkType: .ethernet)

    func frame(_ ip: [UInt8]) -> [UInt8] { PacketBuilder.ethernet(etherType: 0x0800, payload: ip) }

    @Test mutating func headerOptionsAreSkipped() {
        // Record Route (7), 11 bytes, then End of Option List: IHL 8.
        let options: [UInt8] = [7, 11, 4] + Array(repeating: 0, count: 8)
        let decoded = parser.outcome(frame(PacketBuilder.ipv4(options: options, payload: PacketBuilder.tcp(payload: payload)))).segment
        #expect(decoded?.payload == payload)
        #expect(decoded?.destination == Endpoint(address: .v4(PacketBuilder.serverV4), port: 7000))
    }

    @Test mutating func snaplenCutBecomesMissingPayload() {
        let packet = frame(PacketBuilder.ipv4(payload: PacketBuilder.tcp(payload: payload)))
        let captured = 14 + 20 + 20 + 50
        let decoded = parser.outcome(packet, captured: captured).segment
        #expect(decoded?.payload == Array(payload.prefix(50)))
        #expect(decoded?.missing == 150)
    }

    @Test mutating func ethernetPaddingIsIgnored() {
        let packet = frame(PacketBuilder.ipv4(payload: PacketBuilder.tcp(payload: [1, 2])))
        #expect(packet.count == 60)  // 14 + 20 + 20 + 2, padded by 4
        let decoded = parser.outcome(packet + [0xDE, 0xAD, 0xBE, 0xEF]).segment  // and an FCS
        #expect(decoded?.payload == [1, 2])
        #expect(decoded?.missing == 0)
    }

    @Test mutating func paddingAfterASnaplenCutIsNotCountedTwice() {
        // Total length says 44 bytes; the capture has 60 (padding) of a 64-byte frame.
        let packet = frame(PacketBuilder.ipv4(payload: PacketBuilder.tcp(payload: [9, 9, 9, 9]))) + [0, 0, 0, 0]
        let decoded = parser.outcome(packet, captured: 60).segment
        #expect(decoded?.payload == [9, 9, 9, 9])
        #expect(decoded?.missing == 0)
    }

    @Test mutating func badHeaderLength() {
        let packet = frame(PacketBuilder.ipv4(headerLengthWords: 4, payload: PacketBuilder.tcp()))
        #expect(parser.outcome(packet) == .malformed(.badIPv4HeaderLength(16), offset: 14))
    }

    @Test mutating func headerLengthBeyondCapture() {
        let packet = PacketBuilder.ipv4(headerLengthWords: 15, payload: [])
        var raw = PacketParser(linkType: .raw)
        #expect(raw.outcome(packet) == .malformed(.truncatedHeader(.ipv4), offset: 0))
    }

    @Test mutating func totalLengthShorterThanHeader() {
        let packet = frame(PacketBuilder.ipv4(totalLength: 19, payload: PacketBuilder.tcp()))
        #expect(parser.outcome(packet) == .malformed(.badIPv4TotalLength(totalLength: 19, headerLength: 20), offset: 16))
    }

    @Test mutating func totalLengthBeyondTheWire() {
        var raw = PacketParser(linkType: .raw)
        let packet = PacketBuilder.ipv4(totalLength: 1500, payload: PacketBuilder.tcp(payload: payload))
        // Beyond a wire length that says the packet was cut (by 10 bytes): the header lies.
        #expect(raw.outcome(packet, wireLength: 250) == .malformed(.ipLengthExceedsWireLength(ipLength: 1500, wireLength: 250), offset: 2))
        // Cut by a snaplen from 1500 bytes on the wire: the rest is missing.
        #expect(raw.outcome(packet, wireLength: 1500).segment?.missing == 1500 - 40 - 200)
        // A record that says nothing was cut (caplen = len): the bytes present, the rest missing.
        #expect(raw.outcome(packet).segment?.payload == payload)
        #expect(raw.outcome(packet).segment?.missing == 1500 - 40 - 200)
    }

    @Test mutating func zeroTotalLengthFromSegmentationOffloadUsesTheWireLength() {
        var raw = PacketParser(linkType: .raw)
        let packet = PacketBuilder.ipv4(totalLength: 0, payload: PacketBuilder.tcp(payload: payload))
        #expect(raw.outcome(packet).segment?.payload == payload)
        #expect(raw.outcome(packet, captured: 100, wireLength: 240).segment?.missing == 140)
    }

    @Test mutating func otherProtocolsAreNotTCP() {
        for protocolNumber: UInt8 in [1, 17, 47, 50] {
            #expect(parser.outcome(frame(PacketBuilder.ipv4(protocolNumber: protocolNumber, payload: payload))) == .notTCP)
        }
    }

    @Test mutating func etherTypeAndVersionDisagree() {
        let packet = frame(PacketBuilder.ipv6(upperLayer: PacketBuilder.tcp()))
        #expect(parser.outcome(packet) == .malformed(.unexpectedIPVersion(6), offset: 14))
    }
}
