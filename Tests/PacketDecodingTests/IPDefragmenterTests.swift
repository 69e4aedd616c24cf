import TestSupport
import Testing
@testable import PacketDecoding

/// Fragment reassembly through `PacketParser`, IPv4 on raw IP.
@Suite struct IPDefragmenterTests {
    /// A 20-byte TCP header and 1180 payload bytes: 1200 bytes to split at multiples of 8.
    let payload = (0..<1180).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    var segment: [UInt8] { PacketBuilder.tcp(payload: payload) }

    func fragment(_ range: Range<Int>, of data: [UInt8]? = nil, more: Bool? = nil, identification: UInt16 = 1,
                  protocolNumber: UInt8 = 6) -> [UInt8] {
        let data = data ?? segment
        return PacketBuilder.ipv4(protocolNumber: protocolNumber, identification: identification,
                                  moreFragments: more ?? (range.upperBound < data.count),
                                  fragmentOffset: range.lowerBound, payload: Array(data[range]))
    }

    func reassemble(_ fragments: [[UInt8]], parser: inout PacketParser) -> Outcome? {
        var last: Outcome?
        for (index, packet) in fragments.enumerated() {
            let outcome = parser.outcome(packet, at: Int64(index))
            if index < fragments.count - 1 { #expect(outcome == .fragmentHeld) }
            last = outcome
        }
        return last
    }

    @Test(arguments: [
        [0..<400, 400..<800, 800..<1200],                    // in order
        [800..<1200, 0..<400, 400..<800],                    // last first
        [400..<800, 800..<1200, 0..<400],                    // first last
        [0..<400, 0..<400, 800..<1200, 400..<800],           // duplicate
        [0..<600, 400..<1000, 200..<1200],                   // overlapping
        [0..<8, 1192..<1200, 8..<1192],                      // tiny then the middle
    ] as [[Range<Int>]])
    func reassemblesInAnyOrder(order: [Range<Int>]) {
        var parser = PacketParser(linkType: .raw)
        let decoded = reassemble(order.map { fragment($0) }, parser: &parser)?.segment
        #expect(decoded?.payload == payload)
        #expect(decoded?.missing == 0)
        #expect(parser.defragmentationBytesHeld == 0)
        let covered = order.reduce(0) { $0 + $1.count }
        #expect(parser.defragmentationStatistics.overlappingBytesIgnored == covered - 1200)
    }

    @Test func firstCopyWinsOnOverlap() {
        var parser = PacketParser(linkType: .raw)
        var forged = segment
        for index in 400..<800 { forged[index] = 0xEE }
        let fragments = [fragment(0..<800), fragment(400..<800, of: forged), fragment(800..<1200)]
        #expect(reassemble(fragments, parser: &parser)?.segment?.payload == payload)
    }

    @Test func snaplenCutFragmentBecomesMissingTail() {
        var parser = PacketParser(linkType: .raw)
        let cutMiddle = fragment(400..<800)
        #expect(parser.outcome(fragment(0..<400)) == .fragmentHeld)
        #expect(parser.outcome(cutMiddle, captured: 20 + 100, wireLength: cutMiddle.count) == .fragmentHeld)
        let decoded = parser.outcome(fragment(800..<1200)).segment
        #expect(decoded?.payload == Array(payload.prefix(400 + 100 - 20)))
        #expect(decoded?.missing == 1200 - 500)
    }

    @Test func datagramsWithDifferentIdentificationsStayApart() {
        var parser = PacketParser(linkType: .raw)
        #expect(parser.outcome(fragment(0..<600, identification: 1)) == .fragmentHeld)
        #expect(parser.outcome(fragment(600..<1200, identification: 2)) == .fragmentHeld)
        #expect(parser.outcome(fragment(600..<1200, identification: 1)).segment?.payload == payload)
        parser.finish()
        let drops = parser.takeDefragmentationDrops()
        #expect(drops.map(\.identification) == [2])
        #expect(drops.first?.reason == .endOfCapture)
        #expect(drops.first?.bytesReceived == 600)
    }

    @Test func nonTCPFragmentsAreNotHeld() {
        var parser = PacketParser(linkType: .raw)
        #expect(parser.outcome(fragment(0..<400, protocolNumber: 17)) == .notTCP)
        #expect(parser.defragmentationStatistics.fragments == 0)
    }

    @Test func timeoutRunsOnCaptureTime() {
        var parser = PacketParser(linkType: .raw, defragmentation: .init(timeoutNanoseconds: 1_000))
        #expect(parser.outcome(fragment(0..<400), at: 0) == .fragmentHeld)
        #expect(parser.outcome(fragment(400..<800), at: 999) == .fragmentHeld)
        // The datagram expires before this packet (an unrelated one) is decoded.
        #expect(parser.outcome(PacketBuilder.ipv4(payload: PacketBuilder.tcp()), at: 1_000).segment != nil)
        #expect(parser.takeDefragmentationDrops().map(\.reason) == [.timeout])
        #expect(parser.defragmentationStatistics.bytesDropped == 800)
        #expect(parser.defragmentationBytesHeld == 0)
        // The late last fragment starts a new datagram rather than completing the expired one.
        #expect(parser.outcome(fragment(800..<1200), at: 1_001) == .fragmentHeld)
    }

    @Test func datagramLimitDropsTheOldest() {
        var parser = PacketParser(linkType: .raw, defragmentation: .init(maxDatagramsInProgress: 2))
        for identification: UInt16 in 1...3 {
            #expect(parser.outcome(fragment(0..<400, identification: identification), at: Int64(identification)) == .fragmentHeld)
        }
        let drops = parser.takeDefragmentationDrops()
        #expect(drops.map(\.identification) == [1])
        #expect(drops.map(\.reason) == [.datagramLimit])
        #expect(parser.outcome(fragment(400..<1200, identification: 3)).segment?.payload == payload)
    }

    @Test func memoryLimitDropsTheOldest() {
        var parser = PacketParser(linkType: .raw, defragmentation: .init(maxBytesHeld: 5_000))
        #expect(parser.outcome(fragment(0..<400, identification: 1), at: 1) == .fragmentHeld)
        #expect(parser.outcome(fragment(0..<400, identification: 2), at: 2) == .fragmentHeld)
        #expect(parser.outcome(fragment(0..<400, identification: 3), at: 3) == .fragmentHeld)
        #expect(parser.takeDefragmentationDrops().map(\.identification) == [1])
        #expect(parser.defragmentationBytesHeld <= 5_000)
        #expect(parser.defragmentationStatistics.datagramsDropped == 1)
    }

    @Test func limitSmallerThanOneDatagramDropsIt() {
        var parser = PacketParser(linkType: .raw, defragmentation: .init(maxBytesHeld: 100))
        #expect(parser.outcome(fragment(0..<400)) == .fragmentHeld)
        #expect(parser.takeDefragmentationDrops().map(\.reason) == [.memoryLimit])
        #expect(parser.defragmentationBytesHeld == 0)
    }

    @Test func manyHolesStayWithinTheMemoryLimit() {
        let limit = 64 * 1024
        var parser = PacketParser(linkType: .raw, defragmentation: .init(maxBytesHeld: limit))
        let data = Array(repeating: UInt8(1), count: 65_000)
        for start in stride(from: 0, to: 64_000, by: 16) {
            #expect(parser.outcome(fragment(start..<start + 8, of: data, more: true)) == .fragmentHeld)
            #expect(parser.defragmentationBytesHeld <= limit + 65_535)
        }
        #expect(parser.defragmentationStatistics.datagramsDropped >= 1)
    }

    @Test func fragmentPastTheLargestDatagram() {
        var parser = PacketParser(linkType: .raw)
        let packet = PacketBuilder.ipv4(moreFragments: false, fragmentOffset: 65_528, payload: Array(repeating: 0, count: 16))
        #expect(parser.outcome(packet) == .malformed(.fragmentBeyondMaximumDatagram(end: 65_544), offset: 6))
    }

    @Test func misalignedFragment() {
        var parser = PacketParser(linkType: .raw)
        #expect(parser.outcome(fragment(0..<401)) == .malformed(.misalignedFragment(length: 401), offset: 6))
    }

    @Test func bytesPastTheKnownLengthAreIgnored() {
        var parser = PacketParser(linkType: .raw)
        #expect(parser.outcome(fragment(800..<1200)) == .fragmentHeld)
        #expect(parser.outcome(PacketBuilder.ipv4(identification: 1, moreFragments: true, fragmentOffset: 400,
                                                        payload: Array(repeating: 0xEE, count: 1000))) == .fragmentHeld)
        let decoded = parser.outcome(fragment(0..<400)).segment
        #expect(decoded?.payload.count == 1180)
        #expect(decoded.map { Array($0.payload[380..<780]) } == Array(repeating: 0xEE, count: 400))
        #expect(Array(decoded?.payload[780...] ?? []) == Array(payload[780...]))
    }

    @Test func reassembledPayloadOutlivesNothingButTheNextCall() {
        var parser = PacketParser(linkType: .raw)
        #expect(parser.outcome(fragment(0..<600)) == .fragmentHeld)
        let bytes = fragment(600..<1200)
        bytes.withUnsafeBytes { buffer in
            guard case .segment(let reassembled) = parser.parse(buffer, wireLength: buffer.count, timestamp: Timestamp(nanoseconds: 1)) else {
                Issue.record("expected a segment")
                return
            }
            // The view points into the defragmenter's buffer, not into this packet.
            #expect(reassembled.payload.baseAddress != buffer.baseAddress.map { $0 + 40 })
            #expect(Array(reassembled.payload) == payload)
        }
    }
}
