import PacketDecoding
import Testing

/// Inputs the packet-path fuzz target (Sources/FuzzTargets/PacketPathTarget.swift) and
/// `framedump fuzz --target reassembly` found, each kept as a test.
@Suite("TCPReassembler fuzz regressions")
struct TCPReassemblerFuzzRegressionTests {
    /// fuzz-out/packet-path/crash-2b31a6d3…: a segment wholly after the FIN moved the end of
    /// what was seen past the FIN; an ACK beyond it then declared a gap after the direction
    /// had closed at its FIN ("gap of 1 at 24, stream at 24, closed true").
    @Test("a segment after the FIN does not make the ACK declare gaps past the close")
    func segmentAfterFINThenAck() {
        var h = ReassemblyHarness()
        h.send(seq: 100, text("abc"))
        h.send(seq: 110, [.fin])
        h.send(seq: 120, text("x"))
        h.send(server, client, seq: 500, ack: 130, [])
        #expect(h.events == [
            .opened(1, client: client, server: server, .firstPacket),
            .data(1, .clientToServer, offset: 0, text("abc")),
            .gap(1, .clientToServer, offset: 3, length: 7, .segmentsMissing),
            .directionClosed(1, .clientToServer, offset: 10, .fin),
        ])
        h.finish()
        #expect(h.stream() == text("abc") + Array(repeating: nil, count: 7))
    }

    /// `framedump fuzz --target reassembly`, case seed 0x5d6f9bec1146ac85: a changed one-byte
    /// segment was delivered in order, then a longer retransmission starting one byte before
    /// the next expected byte differed there. That one overlapping byte was taken for a
    /// keep-alive probe and not compared, so no overlap was noted.
    @Test("a retransmission whose only delivered byte lies just before the next one is compared")
    func retransmissionStartingJustBeforeNext() {
        var h = ReassemblyHarness(overlapPolicy: .first)
        h.send(seq: 100, [.syn])
        h.send(seq: 101, text("abcd"))
        h.send(seq: 105, text("X"))
        h.send(seq: 105, text("efgh"))
        #expect(h.delivered() == text("abcdXfgh"))
        #expect(h.notices() == [.overlap(offset: 4, length: 1, kept: .earlier)])
    }

    /// The probe itself (RFC 9293 §3.8.4): one byte, just before the next expected one, whose
    /// value is garbage; it is not compared.
    @Test("a keep-alive probe's byte is not compared")
    func keepAliveProbeIsNotCompared() {
        var h = ReassemblyHarness(overlapPolicy: .first)
        h.send(seq: 100, [.syn])
        h.send(seq: 101, text("abcd"))
        h.send(seq: 104, text("?"))
        h.send(seq: 105, text("ef"))
        #expect(h.delivered() == text("abcdef"))
        #expect(h.notices().isEmpty)
    }
}
