import TestSupport
import PacketDecoding
import Testing

/// Random streams cut into random segments, then shuffled, duplicated, overlapped and thinned:
/// whatever the capture order, the events must rebuild the original bytes.
@Suite("TCPReassembler randomized")
struct TCPReassemblerPropertyTests {
    /// One direction's segments: `[start, end)` ranges of `stream`, each sent as one segment.
    struct Scenario {
        var isn: UInt32
        var stream: [UInt8]
        var ranges: [Range<Int>]
    }

    static func scenario(_ random: inout FuzzRandom) -> Scenario {
        let length = Int.random(in: 0...3000, using: &random)
        let stream = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Half the runs start within 3000 bytes of the 2^32 wrap.
        let isn = Bool.random(using: &random) ? UInt32.max - UInt32.random(in: 0...3000, using: &random)
                                              : UInt32.random(in: 0...UInt32.max, using: &random)
        var ranges: [Range<Int>] = []
        var cursor = 0
        while cursor < length {
            let size = min(length - cursor, Int.random(in: 1...300, using: &random))
            ranges.append(cursor..<cursor + size)
            cursor += size
        }
        // Retransmissions that repackage the stream: random spans that overlap segment edges.
        for _ in 0..<Int.random(in: 0...ranges.count, using: &random) where length > 0 {
            let start = Int.random(in: 0..<length, using: &random)
            ranges.append(start..<min(length, start + Int.random(in: 1...400, using: &random)))
        }
        ranges.shuffle(using: &random)
        return Scenario(isn: isn, stream: stream, ranges: ranges)
    }

    /// Sends SYN, the ranges (in their order), a FIN at the end of the stream, then finishes.
    static func run(_ scenario: Scenario, harness: inout ReassemblyHarness, acknowledging: [Int?] = []) {
        harness.send(seq: scenario.isn, [.syn])
        let base = scenario.isn &+ 1
        for (index, range) in scenario.ranges.enumerated() {
            harness.send(seq: base &+ UInt32(range.lowerBound), Array(scenario.stream[range]))
            if index < acknowledging.count, let acknowledged = acknowledging[index] {
                harness.send(server, client, seq: 1, ack: base &+ UInt32(acknowledged))
            }
        }
        harness.send(seq: base &+ UInt32(scenario.stream.count), [.fin])
        harness.finish()
    }

    @Test("no loss: any order, duplication and overlap reassembles to the original", arguments: 0..<100)
    func noLoss(seed: UInt64) {
        var random = FuzzRandom(seed: seed)
        let scenario = Self.scenario(&random)
        var harness = ReassemblyHarness()
        Self.run(scenario, harness: &harness)
        #expect(harness.stream() == scenario.stream.map { $0 })
        #expect(harness.gaps().isEmpty)
        #expect(harness.events.contains(.directionClosed(1, .clientToServer, offset: UInt64(scenario.stream.count), .fin)))
        #expect(harness.reassembler.outOfOrderBytesHeld == 0)
        let statistics = harness.summaries[1]?.clientToServer
        #expect(statistics?.deliveredBytes == UInt64(scenario.stream.count))
        #expect(statistics?.capturedBytes == statistics.map { $0.deliveredBytes + $0.retransmittedBytes + $0.ignoredBytes })
    }

    @Test("losses, peer ACKs and small limits: data, gaps and discarded ranges tile the stream, data matches the original",
          arguments: 0..<100)
    func withLoss(seed: UInt64) {
        var random = FuzzRandom(seed: seed &+ 1_000)
        var scenario = Self.scenario(&random)
        scenario.ranges.removeAll { _ in Int.random(in: 0..<4, using: &random) == 0 }
        // ACKs of a random prefix — sometimes past data the capture lacks, as a receiver's would be.
        let acknowledging: [Int?] = scenario.ranges.map { _ in
            Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 0...scenario.stream.count, using: &random) : nil
        }
        let perDirection = Int.random(in: 100...4000, using: &random)
        var harness = ReassemblyHarness(limits: ReassemblyLimits(maxOutOfOrderBytesPerDirection: perDirection))
        Self.run(scenario, harness: &harness, acknowledging: acknowledging)

        guard let rebuilt = harness.stream() else {
            Issue.record("data and gap events do not tile the stream")
            return
        }
        #expect(rebuilt.count == scenario.stream.count)
        for (offset, byte) in rebuilt.enumerated() where byte != nil {
            if byte != scenario.stream[offset] {
                Issue.record("byte \(offset) is \(byte!), sent \(scenario.stream[offset])")
                break
            }
        }
        let statistics = harness.summaries[1]?.clientToServer
        let discarded = harness.notices().reduce(UInt64(0)) { total, notice in
            guard case .discarded(_, let length, _) = notice else { return total }
            return total + length
        }
        #expect(statistics.map { $0.deliveredBytes + $0.gapBytes + discarded } == UInt64(scenario.stream.count))
        #expect(statistics?.capturedBytes
                == statistics.map { $0.deliveredBytes + $0.retransmittedBytes + $0.ignoredBytes + $0.discardedBytes })
        #expect(harness.reassembler.outOfOrderBytesHeld == 0)
    }

    @Test("one byte per segment in reverse order")
    func reverseDrip() {
        let stream = (0..<500).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var harness = ReassemblyHarness()
        harness.send(seq: 41, [.syn])
        for offset in stream.indices.reversed() {
            harness.send(seq: 42 + UInt32(offset), [stream[offset]])
        }
        harness.finish()
        #expect(harness.stream() == stream.map { $0 })
        #expect(harness.summaries[1]?.clientToServer.outOfOrderSegments == 499)
    }
}
