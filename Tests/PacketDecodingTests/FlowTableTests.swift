import PacketDecoding
import Testing

@Suite("Flow table")
struct FlowTableTests {
    @Test("both directions of a 4-tuple map to one key")
    func keyIsNormalized() {
        let a = Endpoint(address: .v6(1, 2), port: 443)
        let b = Endpoint(address: .v4(7), port: 50000)
        #expect(ConnectionKey(a, b) == ConnectionKey(b, a))
        #expect(ConnectionKey(a, b).lower == b)
        #expect(ConnectionKey(a, b) != ConnectionKey(a, Endpoint(address: .v4(7), port: 50001)))
    }

    @Test("a connection forgotten right after its segments (idle eviction, a reused 4-tuple) is not found again by its key")
    func forgottenConnectionIsNotFoundAgain() {
        var h = ReassemblyHarness(limits: ReassemblyLimits(idleTimeoutNanoseconds: 1_000_000_000))
        h.send(seq: 99, [.syn], at: 0)
        h.send(seq: 100, Array("first".utf8), at: 0)
        h.send(server, client, seq: 7, ack: 105, at: 0)
        // Idle past the timeout: the next segment of the same 4-tuple evicts connection 1 first,
        // then finds no connection for the key (the previous lookup's) and opens connection 2.
        h.send(seq: 500, Array("second".utf8), at: 5)
        h.send(seq: 506, Array("third".utf8), at: 5)
        #expect(h.events.contains(.closed(1, .idleTimeout)))
        #expect(h.events.filter { if case .opened = $0 { return true } else { return false } }.count == 2)
        #expect(h.events.contains(.data(2, .clientToServer, offset: 0, Array("second".utf8))))
        #expect(h.events.contains(.data(2, .clientToServer, offset: 6, Array("third".utf8))))
        // A SYN with a new ISN on the same 4-tuple replaces connection 2 the same way.
        h.send(seq: 9_999, [.syn], at: 5)
        h.send(seq: 10_000, Array("fourth".utf8), at: 5)
        #expect(h.events.contains(.closed(2, .replaced)))
        #expect(h.events.contains(.data(3, .clientToServer, offset: 0, Array("fourth".utf8))))
    }

    @Test("100,000 concurrent connections, each interleaved with all the others")
    func manyConnections() {
        let count = 100_000
        var reassembler = TCPReassembler()
        var opened = 0, closed = 0
        var delivered = [UInt64](repeating: 0, count: count + 1)
        var offsetsOK = true
        let payload: [UInt8] = Array("ping".utf8)
        func endpoint(_ index: Int) -> Endpoint {
            Endpoint(address: .v4(0x0A00_0000 | UInt32(index >> 16)), port: UInt16(truncatingIfNeeded: index))
        }
        let serverEndpoint = Endpoint(address: .v4(0xC0A8_0001), port: 80)
        payload.withUnsafeBytes { bytes in
            // Round 0: SYN with data (TCP Fast Open); round 1: data and FIN. All 100,000
            // connections are open at once between the rounds.
            for round in [0, 1] {
                for index in 0..<count {
                    let segment = TCPSegment(source: endpoint(index), destination: serverEndpoint,
                                             sequenceNumber: round == 0 ? 999 : 1004, acknowledgmentNumber: 1,
                                             flags: round == 0 ? .syn : [.fin, .ack], window: 0,
                                             payload: bytes, missingPayloadLength: 0)
                    reassembler.process(segment, at: Timestamp(nanoseconds: Int64(round))) { event in
                        switch event {
                        case .connectionOpened: opened += 1
                        case .connectionClosed: closed += 1
                        case .data(let connection, _, let offset, let data):
                            offsetsOK = offsetsOK && offset == delivered[connection]
                            delivered[connection] += UInt64(data.count)
                        default: break
                        }
                    }
                }
            }
        }
        #expect(opened == count)
        #expect(closed == 0)
        #expect(reassembler.trackedConnectionCount == count)
        #expect(offsetsOK)
        #expect(delivered.dropFirst().allSatisfy { $0 == 8 })
        reassembler.finish { if case .connectionClosed = $0 { closed += 1 } }
        #expect(closed == count)
        #expect(reassembler.trackedConnectionCount == 0)
    }
}
