import PacketDecoding
import Testing

/// Inputs the packet-path fuzz target (Sources/FuzzTargets/PacketPathTarget.swift) found, each
/// kept as a test.
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
}
