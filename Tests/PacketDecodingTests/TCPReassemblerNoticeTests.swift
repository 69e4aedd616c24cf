import PacketDecoding
import Testing

/// RSTs that are not taken (RFC 5961 §3.2), held bytes behind a hole no ACK covered
/// (`discarded`), and segments outside the stream: each is a notice, and no byte is invented or
/// lost silently.
@Suite("TCPReassembler notices")
struct TCPReassemblerNoticeTests {
    /// Client ISN 99, server ISN 999: the client's stream starts at seq 100, the server's at 1000.
    static func handshake(_ h: inout ReassemblyHarness) {
        h.send(seq: 99, [.syn])
        h.send(server, client, seq: 999, ack: 100, [.syn])
        h.send(seq: 100, ack: 1000)
    }

    /// The handshake, then the server's [0, 100), acknowledged by the client.
    static func deliverFirst100(_ h: inout ReassemblyHarness) {
        handshake(&h)
        h.send(server, client, seq: 1000, ack: 100, sent(0..<100))
        h.send(seq: 100, ack: 1100)
    }

    static let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    static func sent(_ range: Range<Int>) -> [UInt8] { Array(bytes[range]) }

    @Test("a RST past the next expected byte is ignored; the connection goes on to its FINs")
    func resetPastNextIsIgnored() {
        var h = ReassemblyHarness()
        Self.deliverFirst100(&h)
        h.send(server, client, seq: 1200, ack: 100, [.rst])
        h.send(server, client, seq: 1100, ack: 100, Self.sent(100..<300))
        h.send(seq: 100, ack: 1300)
        h.send(server, client, seq: 1300, ack: 100, [.fin])
        h.send(seq: 100, ack: 1301, [.fin])
        h.send(server, client, seq: 1301, ack: 101)
        #expect(h.notices(1, .serverToClient) == [.resetIgnored(sequenceNumber: 1200, expected: 1100)])
        #expect(h.delivered(1, .serverToClient) == Self.bytes)
        #expect(h.events.last == .closed(1, .finished))
        #expect(h.summaries[1]?.serverToClient.resetsIgnored == 1)
    }

    @Test("a RST at the next expected byte, or at the peer's latest ACK, ends the connection",
          arguments: [UInt32(1100), 1250])
    func resetTaken(_ sequenceNumber: UInt32) {
        var h = ReassemblyHarness()
        Self.handshake(&h)
        h.send(server, client, seq: 1000, ack: 100, Self.sent(0..<100))
        // 1250: the client acknowledged bytes the capture lacks; the receiver's RCV.NXT is what counts.
        h.send(seq: 100, ack: sequenceNumber)
        h.send(server, client, seq: sequenceNumber, [.rst])
        #expect(h.notices(1, .serverToClient).isEmpty)
        #expect(h.events.last == .closed(1, .reset))
    }

    @Test("a RST before its sender's first segment (a refused connection) is taken")
    func resetOfARefusedConnection() {
        var h = ReassemblyHarness()
        h.send(seq: 99, [.syn])
        h.send(server, client, seq: 0, ack: 100, [.rst])
        #expect(h.events.last == .closed(1, .reset))
    }

    @Test("held bytes behind a hole the receiver never acknowledged are discarded at its RST, not delivered")
    func discardedAtReset() {
        var h = ReassemblyHarness()
        Self.deliverFirst100(&h)
        h.send(server, client, seq: 1200, ack: 100, Self.sent(200..<300))   // [100, 200) never captured
        h.send(seq: 100, ack: 1100)
        h.send(seq: 100, ack: 1100, [.rst])
        #expect(h.delivered(1, .serverToClient) == Self.sent(0..<100))
        #expect(h.gaps(1, .serverToClient).isEmpty)
        #expect(h.notices(1, .serverToClient) == [.discarded(offset: 100, length: 200, capturedBytes: 100)])
        #expect(h.stream(1, .serverToClient)?.count == 300, "data and discarded tile the stream")
        #expect(h.summaries[1]?.serverToClient.discardedBytes == 100)
    }

    @Test("an ACK that covers the hole, before or after the held bytes arrive, makes them a gap and data",
          arguments: [true, false])
    func acknowledgedHoleIsAGap(_ acknowledgedFirst: Bool) {
        var h = ReassemblyHarness()
        Self.handshake(&h)
        h.send(server, client, seq: 1000, ack: 100, Self.sent(0..<100))
        if acknowledgedFirst { h.send(seq: 100, ack: 1300) }
        h.send(server, client, seq: 1200, ack: 100, Self.sent(200..<300))
        if !acknowledgedFirst { h.send(seq: 100, ack: 1300) }
        h.send(seq: 100, ack: 1300, [.rst])
        #expect(h.gaps(1, .serverToClient) == [.gap(1, .serverToClient, offset: 100, length: 100, .segmentsMissing)])
        #expect(h.delivered(1, .serverToClient) == Self.sent(0..<100) + Self.sent(200..<300))
        #expect(h.notices(1, .serverToClient).isEmpty)
    }

    @Test("at the end of the capture, held bytes behind an unacknowledged hole are discarded")
    func discardedAtEndOfCapture() {
        var h = ReassemblyHarness()
        Self.deliverFirst100(&h)
        h.send(server, client, seq: 1150, ack: 100, Self.sent(150..<300))
        h.finish()
        #expect(h.notices(1, .serverToClient) == [.discarded(offset: 100, length: 200, capturedBytes: 150)])
        #expect(h.events.last == .closed(1, .endOfCapture))
    }

    @Test("an out-of-order limit discards the oldest unacknowledged hole and its chunk; the stream goes on")
    func discardedAtTheLimit() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(maxOutOfOrderBytesPerDirection: 150))
        Self.handshake(&h)
        h.send(server, client, seq: 1000, ack: 100, Self.sent(0..<50))
        h.send(seq: 100, ack: 1050)
        h.send(server, client, seq: 1100, ack: 100, Self.sent(100..<200))   // held: 100 + 64 > 150
        h.send(server, client, seq: 1200, ack: 100, Self.sent(200..<300))
        h.finish()
        #expect(h.events.contains(.limit(.outOfOrderBytesPerDirection, 1, .serverToClient)))
        #expect(h.notices(1, .serverToClient) == [.discarded(offset: 50, length: 150, capturedBytes: 100)])
        #expect(h.delivered(1, .serverToClient) == Self.sent(0..<50) + Self.sent(200..<300))
    }

    @Test("a segment 2^31 or more ahead of the next expected byte is an out-of-window notice")
    func outOfWindow() {
        var h = ReassemblyHarness()
        Self.handshake(&h)
        h.send(server, client, seq: 1000, ack: 100, Self.sent(0..<100))
        let far = UInt32(1100) &+ (1 << 31) &+ 5
        h.send(server, client, seq: far, ack: 100, Self.sent(100..<200))
        h.send(server, client, seq: 1100, ack: 100, Self.sent(100..<300))
        h.finish()
        #expect(h.notices(1, .serverToClient) == [.outOfWindow(sequenceNumber: far, expected: 1100, byteCount: 100)])
        #expect(h.delivered(1, .serverToClient) == Self.bytes)
        #expect(h.summaries[1]?.serverToClient.ignoredBytes == 100)
    }
}
