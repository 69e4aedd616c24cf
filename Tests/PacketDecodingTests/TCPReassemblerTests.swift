import PacketDecoding
import Testing

@Suite("TCPReassembler")
struct TCPReassemblerTests {
    @Test("a full connection: handshake, data both ways, FIN both ways")
    func inOrderConnection() {
        var h = ReassemblyHarness()
        h.send(seq: 999, [.syn])
        h.send(server, client, seq: 4999, ack: 1000, [.syn])
        h.send(seq: 1000, ack: 5000)
        h.send(seq: 1000, ack: 5000, [.psh], text("hello"))
        h.send(server, client, seq: 5000, ack: 1005, [.psh], text("hi"))
        h.send(seq: 1005, ack: 5002, [.fin])
        h.send(server, client, seq: 5002, ack: 1006, [.fin])
        #expect(h.events == [
            .opened(1, client: client, server: server, .syn),
            .data(1, .clientToServer, offset: 0, text("hello")),
            .data(1, .serverToClient, offset: 0, text("hi")),
            .directionClosed(1, .clientToServer, offset: 5, .fin),
            .directionClosed(1, .serverToClient, offset: 2, .fin),
            .closed(1, .finished),
        ])
        let summary = h.summaries[1]
        #expect(summary?.state == .closed)
        #expect(summary?.clientToServer.segments == 4)
        #expect(summary?.clientToServer.deliveredBytes == 5)
        #expect(summary?.serverToClient.deliveredBytes == 2)
        #expect(summary?.clientToServer.closed == .fin)
        // Closed connections linger until idle; finish has nothing left to say.
        #expect(h.reassembler.trackedConnectionCount == 1)
        h.finish()
        #expect(h.events.count == 6)
        #expect(h.reassembler.trackedConnectionCount == 0)
    }

    @Test("an out-of-order segment is held until the hole before it fills")
    func outOfOrderHoleFilled() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"))
        h.send(seq: 106, text("ghi"))
        #expect(h.delivered() == text("abc"))
        #expect(h.reassembler.outOfOrderBytesHeld == 3 + ReassemblyLimits.heldChunkOverhead)
        h.send(seq: 103, text("def"))
        #expect(h.events.suffix(2) == [
            .data(1, .clientToServer, offset: 3, text("def")),
            .data(1, .clientToServer, offset: 6, text("ghi")),
        ])
        #expect(h.reassembler.outOfOrderBytesHeld == 0)
        h.finish()
        #expect(h.summaries[1]?.clientToServer.outOfOrderSegments == 1)
        #expect(h.gaps().isEmpty)
    }

    @Test("an identical retransmission is delivered once and counted")
    func identicalRetransmission() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"))
        h.send(seq: 100, text("abc"))
        h.send(seq: 103, text("d"))
        h.finish()
        #expect(h.delivered() == text("abcd"))
        #expect(h.summaries[1]?.clientToServer.retransmittedBytes == 3)
        #expect(h.summaries[1]?.clientToServer.capturedBytes == 7)
    }

    /// Overlapping copies with different bytes, in the client-to-server direction after a SYN at
    /// 99, under one overlap policy.
    struct OverlapCase: Sendable, CustomTestStringConvertible {
        var title: String
        var policy: OverlapPolicy
        /// Sequence number and payload of each segment, in capture order.
        var segments: [(seq: UInt32, payload: String)]
        var stream: String
        var retransmittedBytes: UInt64
        /// The `overlap` notices: offset, length, whether the later copy was kept.
        var overlaps: [(offset: UInt64, length: UInt64, later: Bool)]
        var testDescription: String { "\(policy): \(title)" }
    }

    static let afterDelivery: [(seq: UInt32, payload: String)] = [(100, "abcd"), (102, "XYef")]
    /// [0,2) delivered; [4,6) held as "ef", then "XY" (same range), then "cdZZ" fills the hole.
    static let whileHeld: [(seq: UInt32, payload: String)] = [(100, "ab"), (104, "ef"), (104, "XY"), (102, "cdZZ")]
    /// [10,20) held as K, then n over [5,25), then a over [0,7) fills the hole.
    static let bothSides: [(seq: UInt32, payload: String)] = [
        (110, String(repeating: "K", count: 10)), (105, String(repeating: "n", count: 20)), (100, String(repeating: "a", count: 7)),
    ]

    static let overlapCases: [OverlapCase] = OverlapPolicy.allCases.flatMap { policy -> [OverlapCase] in
        let later = policy != .first
        return [
            OverlapCase(title: "overlap after delivery: the delivered copy stays under every policy", policy: policy,
                        segments: afterDelivery, stream: "abcdef", retransmittedBytes: 2, overlaps: [(2, 2, false)]),
            OverlapCase(title: "overlap while held, same range, then a hole-filling segment over it", policy: policy,
                        segments: whileHeld,
                        // Same start and end: only `last` takes the second copy; the hole-filling
                        // segment wins under `last` and `linux` (tcp_data_queue queues it in order).
                        stream: policy == .first ? "abcdef" : "abcdZZ", retransmittedBytes: 4,
                        overlaps: [(4, 2, policy == .last), (4, 2, later)]),
            OverlapCase(title: "a segment overlapping held data on both sides", policy: policy,
                        segments: bothSides,
                        // `linux`: n starts before the K chunk, a before n: each later one wins.
                        stream: policy == .first ? "aaaaa" + "nnnnn" + "KKKKKKKKKK" + "nnnnn" : "aaaaaaa" + String(repeating: "n", count: 18),
                        retransmittedBytes: 10 + 2, overlaps: [(10, 10, later), (5, 2, later)]),
        ]
    }

    @Test("overlapping copies with different bytes: the policy picks the copy, every difference is a notice",
          arguments: overlapCases)
    func overlapPolicy(_ overlap: OverlapCase) {
        var h = ReassemblyHarness(overlapPolicy: overlap.policy)
        h.send(seq: 99, [.syn])
        for segment in overlap.segments { h.send(seq: segment.seq, text(segment.payload)) }
        h.finish()
        #expect(h.stream() == text(overlap.stream))
        #expect(h.summaries[1]?.clientToServer.retransmittedBytes == overlap.retransmittedBytes)
        #expect(h.notices() == overlap.overlaps.map { .overlap(offset: $0.offset, length: $0.length, kept: $0.later ? .later : .earlier) })
    }

    @Test("identical overlapping copies are no notice, under every policy", arguments: OverlapPolicy.allCases)
    func identicalOverlapIsNoNotice(_ policy: OverlapPolicy) {
        var h = ReassemblyHarness(overlapPolicy: policy)
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("ab"))
        h.send(seq: 104, text("efgh"))
        h.send(seq: 102, text("cdef"))
        h.send(seq: 101, text("bcdefg"))
        h.finish()
        #expect(h.stream() == text("abcdefgh"))
        #expect(h.notices().isEmpty)
    }

    @Test("sequence numbers wrap across 2^32 with segments out of order")
    func wraparound() {
        let original = (0..<30).map { UInt8($0) }
        var h = ReassemblyHarness()
        h.send(seq: 0xFFFF_FFF0, [.syn])                                    // data starts at 0xFFFF_FFF1
        h.send(seq: 0x0000_0005, Array(original[20..<30]))                  // 0xFFFF_FFF1 + 20 wraps to 5
        h.send(seq: 0xFFFF_FFF1, Array(original[0..<10]))
        h.send(seq: 0xFFFF_FFFB, Array(original[10..<20]))
        h.send(seq: 0x0000_000F, [.fin])
        #expect(h.stream() == original.map { $0 })
        #expect(h.events.last == .directionClosed(1, .clientToServer, offset: 30, .fin))
    }

    @Test("offsets keep counting past 4 GiB of sequence space")
    func offsetsBeyondFourGiB() {
        var h = ReassemblyHarness()
        let step: UInt32 = 0x7FFF_0000
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("a"))
        var seq: UInt32 = 100
        for _ in 0..<3 {
            seq &+= step
            h.send(seq: seq, text("b"))                                       // far ahead: held
            h.send(server, client, seq: 1, ack: seq &+ 1)                     // acknowledged: the hole is lost
        }
        let offsets = h.events.compactMap { event -> UInt64? in
            if case .data(1, .clientToServer, let offset, _) = event { return offset }
            return nil
        }
        #expect(offsets == [0, UInt64(step), 2 * UInt64(step), 3 * UInt64(step)])
        #expect(offsets.last! > UInt64(UInt32.max))
        let gapBytes = h.gaps().reduce(UInt64(0)) {
            if case .gap(_, _, _, let length, _) = $1 { return $0 + length }
            return $0
        }
        #expect(gapBytes == 3 * UInt64(step) - 3)
    }

    @Test("a capture starting mid-connection: first byte seen is offset 0, earlier data is ignored")
    func midConnectionStart() {
        var h = ReassemblyHarness()
        h.send(server, client, seq: 5000, ack: 77, text("abc"))
        h.send(server, client, seq: 4998, ack: 77, text("xyz"))
        h.send(client, server, seq: 77, ack: 5003, text("q"))
        h.finish()
        #expect(h.events.first == .opened(1, client: server, server: client, .firstPacket))
        #expect(h.stream(1, .clientToServer) == text("abc"))                   // the first sender is the client
        #expect(h.stream(1, .serverToClient) == text("q"))
        #expect(h.summaries[1]?.clientToServer.ignoredBytes == 2)
        #expect(h.summaries[1]?.clientToServer.retransmittedBytes == 1)
    }

    @Test("roles from a SYN-ACK seen before the SYN")
    func synAckFirst() {
        var h = ReassemblyHarness()
        h.send(server, client, seq: 4999, ack: 1000, [.syn])
        h.send(seq: 999, [.syn])
        h.send(seq: 1000, ack: 5000, text("abc"))
        h.send(server, client, seq: 5000, ack: 1003, text("xy"))
        h.finish()
        #expect(h.events.first == .opened(1, client: client, server: server, .synAck))
        #expect(h.events.filter { if case .opened = $0 { true } else { false } }.count == 1)
        #expect(h.stream(1, .clientToServer) == text("abc"))
        #expect(h.stream(1, .serverToClient) == text("xy"))
    }

    @Test("a retransmitted SYN keeps the connection; a SYN with a new ISN after FIN starts connection 2")
    func reusedFourTuple() {
        var h = ReassemblyHarness()
        h.send(seq: 999, [.syn])
        h.send(seq: 999, [.syn])
        h.send(server, client, seq: 4999, ack: 1000, [.syn])
        h.send(seq: 1000, ack: 5000, [.fin], text("one"))
        h.send(server, client, seq: 5000, ack: 1004, [.fin])
        h.send(seq: 1000, ack: 5001, text("late"))                           // after close: ignored
        #expect(h.reassembler.trackedConnections.first?.clientToServer.ignoredBytes == 4)
        h.send(seq: 7000, [.syn])
        h.send(seq: 7001, text("two"))
        h.finish()
        #expect(h.events.filter { if case .opened = $0 { true } else { false } } == [
            .opened(1, client: client, server: server, .syn),
            .opened(2, client: client, server: server, .syn),
        ])
        #expect(h.delivered(1) == text("one"))
        #expect(h.delivered(2) == text("two"))
        #expect(h.events.last == .closed(2, .endOfCapture))
    }

    @Test("a new SYN on an open connection replaces it")
    func synReplacesOpenConnection() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("ab"))
        h.send(seq: 104, text("ef"))
        h.send(seq: 5000, [.syn])
        #expect(Array(h.events.suffix(4)) == [
            .gap(1, .clientToServer, offset: 2, length: 2, .segmentsMissing),
            .data(1, .clientToServer, offset: 4, text("ef")),
            .closed(1, .replaced),
            .opened(2, client: client, server: server, .syn),
        ])
    }

    /// Either side resets: the server, which has sent nothing (no sequence number to check), or
    /// the client at its own next sequence number past its hole (taken: the capture holds none of
    /// the receiver's ACKs, docs/reassembly.md "RST").
    @Test("RST with none of the peer's acknowledgments in the capture: holes are gaps, both directions close",
          arguments: [StreamDirection.serverToClient, .clientToServer])
    func reset(_ resetting: StreamDirection) {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"))
        h.send(seq: 106, text("ghi"))
        if resetting == .serverToClient {
            h.send(server, client, seq: 0, [.rst], text("bye"))
        } else {
            h.send(seq: 109, [.rst], text("bye"))
        }
        #expect(Array(h.events.dropFirst(2)) == [
            .gap(1, .clientToServer, offset: 3, length: 3, .segmentsMissing),
            .data(1, .clientToServer, offset: 6, text("ghi")),
            .directionClosed(1, .clientToServer, offset: 9, .reset),
            .directionClosed(1, .serverToClient, offset: 0, .reset),
            .closed(1, .reset),
        ])
        #expect(h.summaries[1]?.state == .reset)
        #expect(h.summaries[1]?[resetting].ignoredBytes == 3)
    }

    @Test("a hole before the FIN becomes a gap when the peer acknowledges the FIN")
    func holeAtFin() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"))
        h.send(seq: 106, text("ghi"))
        h.send(seq: 109, [.fin])
        #expect(h.events.count == 2)                                          // still waiting for [3, 6)
        h.send(server, client, seq: 1, ack: 110)
        #expect(Array(h.events.suffix(3)) == [
            .gap(1, .clientToServer, offset: 3, length: 3, .segmentsMissing),
            .data(1, .clientToServer, offset: 6, text("ghi")),
            .directionClosed(1, .clientToServer, offset: 9, .fin),
        ])
    }

    @Test("a hole before the FIN that a retransmission fills is no gap")
    func holeAtFinFilled() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"))
        h.send(seq: 106, [.fin], text("ghi"))
        h.send(server, client, seq: 1, ack: 103)
        h.send(seq: 103, text("def"))
        #expect(h.stream() == text("abcdefghi"))
        #expect(h.events.last == .directionClosed(1, .clientToServer, offset: 9, .fin))
    }

    @Test("data after the FIN is ignored and counted")
    func dataAfterFin() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 110, text("zz"))                                          // held, then cut by the FIN
        h.send(seq: 100, [.fin], text("abc"))
        h.send(seq: 104, text("yy"))
        h.finish()
        #expect(h.stream() == text("abc"))
        #expect(h.summaries[1]?.clientToServer.ignoredBytes == 4)
        #expect(h.reassembler.outOfOrderBytesHeld == 0)
    }

    @Test("a hole never filled becomes a gap at the end of the capture")
    func holeAtFinish() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"))
        h.send(seq: 106, text("ghi"))
        h.finish()
        #expect(Array(h.events.suffix(3)) == [
            .gap(1, .clientToServer, offset: 3, length: 3, .segmentsMissing),
            .data(1, .clientToServer, offset: 6, text("ghi")),
            .closed(1, .endOfCapture),
        ])
        #expect(h.summaries[1]?.clientToServer.gaps == 1)
        #expect(h.summaries[1]?.clientToServer.gapBytes == 3)
    }

    @Test("the per-direction out-of-order limit turns the oldest hole into a gap")
    func perDirectionLimit() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(maxOutOfOrderBytesPerDirection: 200))
        let block = Array(repeating: UInt8(7), count: 100)
        h.send(seq: 99, [.syn])
        h.send(seq: 100, Array(block[..<10]))                                 // [0, 10)
        h.send(seq: 120, block)                                               // [20, 120): 164 held
        h.send(seq: 230, block)                                               // [130, 230): 328 > 200
        #expect(Array(h.events.suffix(3)) == [
            .limit(.outOfOrderBytesPerDirection, 1, .clientToServer),
            .gap(1, .clientToServer, offset: 10, length: 10, .segmentsMissing),
            .data(1, .clientToServer, offset: 20, block),
        ])
        #expect(h.reassembler.outOfOrderBytesHeld == 164)
        h.finish()
        #expect(h.stream()?.count == 230)
        #expect(h.summaries[1]?.clientToServer.gapBytes == 20)
    }

    @Test("the total out-of-order limit flushes the connection that has held bytes longest")
    func totalLimit() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(maxOutOfOrderBytesTotal: 200))
        let other = Endpoint(address: .v4(0x0A00_0003), port: 40001)
        let block = Array(repeating: UInt8(1), count: 50)
        h.send(seq: 99, [.syn])
        h.send(seq: 120, block)                                               // connection 1 holds 114
        h.send(other, server, seq: 99, [.syn])
        h.send(other, server, seq: 120, block)                                // connection 2: total 228
        #expect(Array(h.events.suffix(3)) == [
            .limit(.outOfOrderBytesTotal, 1, .clientToServer),
            .gap(1, .clientToServer, offset: 0, length: 20, .segmentsMissing),
            .data(1, .clientToServer, offset: 20, block),
        ])
        #expect(h.reassembler.outOfOrderBytesHeld == 114)
    }

    @Test("idle connections are flushed and closed; closed ones disappear silently")
    func idleEviction() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(idleTimeoutNanoseconds: 10_000_000_000))
        let other = Endpoint(address: .v4(0x0A00_0003), port: 40001)
        let third = Endpoint(address: .v4(0x0A00_0004), port: 40002)
        h.send(seq: 99, [.syn], at: 0)
        h.send(seq: 105, text("x"), at: 1)                                    // held behind [0, 5)
        h.send(other, server, seq: 1, [.rst], at: 1)                          // connection 2, closed at once
        h.send(third, server, seq: 1, text("t"), at: 5)
        h.send(third, server, seq: 2, text("u"), at: 12)
        #expect(Array(h.events.suffix(4)) == [
            .gap(1, .clientToServer, offset: 0, length: 5, .segmentsMissing),
            .data(1, .clientToServer, offset: 5, text("x")),
            .closed(1, .idleTimeout),
            .data(3, .clientToServer, offset: 1, text("u")),
        ])
        #expect(h.reassembler.trackedConnectionCount == 1)
        h.reassembler.expireIdle(now: Timestamp(nanoseconds: 30_000_000_000)) { _ in }
        #expect(h.reassembler.trackedConnectionCount == 0)
    }

    @Test("beyond the connection limit the least recently active connection is evicted")
    func connectionLimit() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(maxConnections: 2))
        let ports: [UInt16] = [1, 2, 3]
        for port in ports {
            h.send(Endpoint(address: .v4(1), port: port), server, seq: 10, text("p\(port)"))
        }
        #expect(Array(h.events.suffix(4)) == [
            .limit(.maxConnections, 1, nil),
            .closed(1, .evicted),
            .opened(3, client: Endpoint(address: .v4(1), port: 3), server: server, .firstPacket),
            .data(3, .clientToServer, offset: 0, text("p3")),
        ])
        #expect(h.reassembler.trackedConnectionCount == 2)
    }

    @Test("a full table evicts a closed connection before an open one, silently")
    func closedConnectionsEvictedFirst() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(maxConnections: 2))
        let other = Endpoint(address: .v4(0x0A00_0003), port: 40001)
        let third = Endpoint(address: .v4(0x0A00_0004), port: 40002)
        h.send(seq: 1, text("open"))
        h.send(other, server, seq: 1, [.rst])                                // connection 2: closed, more recent
        h.send(third, server, seq: 1, text("new"))
        #expect(Array(h.events.suffix(2)) == [
            .opened(3, client: third, server: server, .firstPacket),
            .data(3, .clientToServer, offset: 0, text("new")),
        ])
        #expect(h.reassembler.trackedConnections.map(\.connection) == [1, 3])
    }

    @Test("bytes cut by the snaplen are a gap; a later full copy does not replace it")
    func snaplenInOrder() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("abc"), missing: 5)
        h.send(seq: 103, text("defgh"))
        h.send(seq: 108, text("ij"))
        h.finish()
        #expect(Array(h.events.dropFirst().prefix(3)) == [
            .data(1, .clientToServer, offset: 0, text("abc")),
            .gap(1, .clientToServer, offset: 3, length: 5, .notCaptured),
            .data(1, .clientToServer, offset: 8, text("ij")),
        ])
        #expect(h.summaries[1]?.clientToServer.retransmittedBytes == 5)
    }

    @Test("a snaplen-cut segment that arrives early is held with its missing tail")
    func snaplenOutOfOrder() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(seq: 100, text("ab"))
        h.send(seq: 110, text("kl"), missing: 3)                              // [10, 12) + [12, 15) cut
        h.send(seq: 102, text("cdefghij"))
        h.send(seq: 115, text("p"))
        h.finish()
        #expect(h.stream() == text("abcdefghijkl").map { $0 } + [nil, nil, nil] + text("p").map { $0 })
        #expect(h.gaps() == [.gap(1, .clientToServer, offset: 12, length: 3, .notCaptured)])
    }

    @Test("TCP Fast Open: data in the SYN starts at offset 0")
    func dataInSyn() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn], text("GET"))
        h.send(seq: 103, text(" /"))
        h.finish()
        #expect(h.stream() == text("GET /"))
    }

    @Test("a receiver that throws stops the segment's events but leaves the reassembler usable")
    func throwingReceiver() throws {
        struct Stop: Error {}
        var reassembler = TCPReassembler()
        let payload = text("abc")
        var seen: [UInt64] = []
        for (seq, shouldThrow) in [(UInt32(10), true), (UInt32(13), false)] {
            payload.withUnsafeBytes { bytes in
                let segment = TCPSegment(source: client, destination: server, sequenceNumber: seq, acknowledgmentNumber: 0,
                                         flags: [], window: 0, payload: bytes, missingPayloadLength: 0)
                try? reassembler.process(segment, at: Timestamp(nanoseconds: 0)) { event in
                    if case .data(_, _, let offset, _) = event {
                        seen.append(offset)
                        if shouldThrow { throw Stop() }
                    }
                }
            }
        }
        #expect(seen == [0, 3])
    }

    /// Every event of a script that reaches each path of the reassembler (in order, drained
    /// from the out-of-order buffer, gaps acknowledged past, snaplen cuts, FIN, RST, every
    /// limit, eviction, idle timeout, end of capture): a receiver that throws at event k — for
    /// every k — sees its error come out of `process` or `finish`, once.
    ///
    /// Swift 6.3.1 lost such an error when the event was built inside a closure handed to a
    /// `rethrows` function (here `withUnsafeBytes` in `TCPStream.drain`): the call returned as
    /// if nothing was thrown and the process later crashed. `TCPStream.emitData` avoids it.
    @Test("an error thrown at any event reaches the caller", arguments: [
        ReassemblyLimits(),
        ReassemblyLimits(maxOutOfOrderBytesPerDirection: 200, maxOutOfOrderBytesTotal: 300, maxConnections: 2,
                         idleTimeoutNanoseconds: 10_000_000_000),
    ])
    func everyEventCanThrow(limits: ReassemblyLimits) {
        struct Stop: Error {}
        let other = Endpoint(address: .v4(0x0A00_0003), port: 40001)
        let third = Endpoint(address: .v4(0x0A00_0004), port: 40002)
        typealias Step = (source: Endpoint, destination: Endpoint, seq: UInt32, ack: UInt32?, flags: TCPFlags,
                          payload: [UInt8], missing: Int, seconds: Int64)
        let big = [UInt8](repeating: 0x61, count: 150)
        let script: [Step] = [
            (client, server, 99, nil, .syn, [], 0, 0),
            (server, client, 499, 100, .syn, [], 0, 0),
            (client, server, 100, 500, [], text("abc"), 0, 0),
            (client, server, 106, 500, [], text("ghi"), 0, 0),
            (client, server, 103, 500, [], text("def"), 0, 0),
            (client, server, 112, 500, [], big, 0, 0),
            (client, server, 300, 500, [], big, 0, 0),
            (server, client, 500, 262, [], text("xy"), 2, 1),
            (client, server, 462, 504, .fin, [], 0, 1),
            (other, server, 7, nil, .syn, [], 0, 2),
            (other, server, 8, nil, [], big, 0, 2),
            (other, server, 400, nil, [], big, 0, 2),
            (other, server, 158, nil, .rst, [], 0, 2),
            (third, server, 1000, nil, [], text("late"), 0, 30),
            (third, server, 1010, nil, [], text("held"), 0, 30),
        ]
        func run(throwingAt target: Int?) -> (events: Int, errors: Int) {
            var reassembler = TCPReassembler(limits: limits)
            var events = 0, errors = 0
            let receive: (ReassemblyEvent) throws -> Void = { _ in
                defer { events += 1 }
                if events == target { throw Stop() }
            }
            for step in script {
                step.payload.withUnsafeBytes { bytes in
                    let segment = TCPSegment(source: step.source, destination: step.destination, sequenceNumber: step.seq,
                                             acknowledgmentNumber: step.ack ?? 0, flags: step.ack == nil ? step.flags : step.flags.union(.ack),
                                             window: 65535, payload: bytes, missingPayloadLength: step.missing)
                    do {
                        try reassembler.process(segment, at: Timestamp(nanoseconds: step.seconds * 1_000_000_000), receive)
                    } catch {
                        errors += 1
                    }
                }
            }
            do { try reassembler.finish(receive) } catch { errors += 1 }
            return (events, errors)
        }
        let total = run(throwingAt: nil)
        #expect(total.errors == 0)
        #expect(total.events >= 20, "the script reaches enough paths")
        for target in 0..<total.events {
            #expect(run(throwingAt: target).errors == 1, "a throw at event \(target) of \(total.events)")
        }
    }
}
