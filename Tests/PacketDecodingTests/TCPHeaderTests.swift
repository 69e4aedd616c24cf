import TestSupport
import Testing
@testable import PacketDecoding

@Suite struct TCPHeaderTests {
    var parser = PacketParser(linkType: .raw)

    @Test mutating func fieldsAreDecoded() {
        let tcp = PacketBuilder.tcp(sourcePort: 0xBEEF, destinationPort: 443, sequence: 0xFFFF_FFF0,
                                    acknowledgment: 0x0102_0304, flags: [.syn, .ack, .ece, .cwr], window: 0xFFFF)
        let decoded = parser.outcome(PacketBuilder.ipv4(payload: tcp)).segment
        #expect(decoded == Decoded(source: Endpoint(address: .v4(PacketBuilder.clientV4), port: 0xBEEF),
                                   destination: Endpoint(address: .v4(PacketBuilder.serverV4), port: 443),
                                   sequenceNumber: 0xFFFF_FFF0, acknowledgmentNumber: 0x0102_0304,
                                   flags: [.syn, .ack, .ece, .cwr], window: 0xFFFF, payload: [], missing: 0))
    }

    @Test mutating func optionsAreSkipped() {
        // MSS, SACK permitted, timestamps, window scale: data offset 10.
        let options: [UInt8] = [2, 4, 5, 0xB4, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7]
        let tcp = PacketBuilder.tcp(options: options, payload: [0x41, 0x42])
        #expect(parser.outcome(PacketBuilder.ipv4(payload: tcp)).segment?.payload == [0x41, 0x42])
    }

    @Test mutating func dataOffsetBelowFiveWords() {
        let tcp = PacketBuilder.tcp(dataOffsetWords: 4, payload: [1, 2, 3, 4])
        #expect(parser.outcome(PacketBuilder.ipv4(payload: tcp))
                    == .malformed(.badTCPDataOffset(headerLength: 16, segmentLength: 24), offset: 32))
    }

    @Test mutating func dataOffsetBeyondTheSegment() {
        let tcp = PacketBuilder.tcp(dataOffsetWords: 15, payload: [1, 2, 3, 4])
        #expect(parser.outcome(PacketBuilder.ipv4(payload: tcp))
                    == .malformed(.badTCPDataOffset(headerLength: 60, segmentLength: 24), offset: 32))
    }

    @Test mutating func headerCutBySnaplen() {
        let tcp = PacketBuilder.tcp(options: Array(repeating: 1, count: 12), payload: [1, 2, 3])
        let packet = PacketBuilder.ipv4(payload: tcp)
        #expect(parser.outcome(packet, captured: 30) == .malformed(.truncatedHeader(.tcp), offset: 20))
        #expect(parser.outcome(packet, captured: 45) == .malformed(.truncatedHeader(.tcp), offset: 20))
        #expect(parser.outcome(packet, captured: 52).segment?.missing == 3)
    }

    @Test mutating func segmentShorterThanAHeader() {
        let packet = PacketBuilder.ipv4(payload: Array(repeating: 0x50, count: 12))
        #expect(parser.outcome(packet) == .malformed(.tcpSegmentTooShort(length: 12), offset: 20))
    }
}
