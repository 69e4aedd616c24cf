import PacketDecoding

/// The server every synthetic connection talks to, and the payload size of a full segment
/// (Ethernet MTU 1500 − 20 IPv4 − 32 TCP with timestamps).
private let server = Endpoint(address: .v4(0x0AFF_0001), port: 5512)
private let segmentPayload = 1448

/// Client `index`'s endpoint: a distinct address and port per connection (10.x.y.z:port).
private func client(_ index: Int) -> Endpoint {
    Endpoint(address: .v4(0x0A00_0000 | UInt32(truncatingIfNeeded: index >> 4)), port: UInt16(truncatingIfNeeded: 10_000 + index & 0xF))
}

/// What a synthetic run fed and got back.
private struct ReassemblyTally {
    var packets = 0
    var dataBytes = 0
    var unexpectedEvents = 0
}

/// Opens `connections` connections with a SYN each, then sends `segmentsPerConnection` full
/// in-order data segments on each, round-robin (so every connection is live at once and each
/// packet looks up a different one), then finishes the reassembler.
///
/// Payloads all point at the same buffer: what is measured is the reassembler, not memory
/// bandwidth of the synthetic data.
private func feed(_ reassembler: inout TCPReassembler, connections: Int, segmentsPerConnection: Int,
                  payload: UnsafeRawBufferPointer, finishing: Bool = true) -> ReassemblyTally {
    var tally = ReassemblyTally()
    var clock: Int64 = 1_000_000_000
    func receive(_ event: ReassemblyEvent) {
        switch event {
        case .data(_, _, _, let bytes): tally.dataBytes += bytes.count
        case .connectionOpened, .connectionClosed, .directionClosed, .connectionForgotten: break
        case .gap, .limitHit, .notice: tally.unexpectedEvents += 1
        }
    }
    func send(_ index: Int, flags: TCPFlags, sequence: UInt32, payload: UnsafeRawBufferPointer) {
        let segment = TCPSegment(source: client(index), destination: server, sequenceNumber: sequence,
                                 acknowledgmentNumber: 1, flags: flags, window: 65535, payload: payload,
                                 missingPayloadLength: 0)
        clock += 1_000
        reassembler.process(segment, at: Timestamp(nanoseconds: clock), receive)
        tally.packets += 1
    }
    let empty = UnsafeRawBufferPointer(rebasing: payload[0..<0])
    for index in 0..<connections {
        send(index, flags: .syn, sequence: UInt32(truncatingIfNeeded: index &* 7919), payload: empty)
    }
    for round in 0..<segmentsPerConnection {
        for index in 0..<connections {
            let sequence = UInt32(truncatingIfNeeded: index &* 7919 &+ 1 &+ round &* payload.count)
            send(index, flags: [.ack, .psh], sequence: sequence, payload: payload)
        }
    }
    if finishing { reassembler.finish(receive) }
    return tally
}

/// Reassembly rows: in-order throughput on one connection, and the flow table at 10, 10,000
/// and 100,000 concurrent connections (time per packet, memory per connection).
func runReassemblyBenchmarks(options: BenchmarkOptions, report: inout BenchmarkReport) {
    let payloadBuffer = AlignedBuffer(randomCount: segmentPayload, seed: 0x7C9)
    let payload = payloadBuffer.readOnly

    let throughputName = "reassembly 1 conn, 1448B in-order segments"
    if options.selects(throughputName) {
        let segments = options.size(16 << 20, quick: 256 << 10) / segmentPayload
        let expected = segments * segmentPayload
        var probe = TCPReassembler()
        let tally = feed(&probe, connections: 1, segmentsPerConnection: segments, payload: payload)
        if tally.dataBytes == expected, tally.unexpectedEvents == 0 {
            let rows = measure([
                BenchmarkCase(name: throughputName, bytes: expected, items: tally.packets, itemUnit: "packets") {
                    var reassembler = TCPReassembler()
                    return UInt64(feed(&reassembler, connections: 1, segmentsPerConnection: segments, payload: payload).dataBytes)
                },
            ], options: options)
            report.add(group: "TCPReassembler, in-order throughput", rows)
        } else {
            report.fail("\(throughputName): delivered \(tally.dataBytes)/\(expected) bytes with \(tally.unexpectedEvents) gap or limit events")
        }
    }

    let counts = options.quick ? [10, 1_000, 10_000] : [10, 10_000, 100_000]
    var cases: [BenchmarkCase] = []
    var memory: [(name: String, bytesPerConnection: Double)] = []
    for connections in counts {
        let name = "flow table \(connections) conns"
        guard options.selects(name) else { continue }
        // Enough packets that per-run setup is noise, at least 2 data segments per connection.
        let segmentsPerConnection = max(2, options.size(400_000, quick: 20_000) / connections)
        let small = UnsafeRawBufferPointer(rebasing: payload[0..<64])
        var probe = TCPReassembler()
        let tally = feed(&probe, connections: connections, segmentsPerConnection: segmentsPerConnection, payload: small)
        guard tally.dataBytes == connections * segmentsPerConnection * small.count, tally.unexpectedEvents == 0 else {
            report.fail("\(name): delivered \(tally.dataBytes) bytes with \(tally.unexpectedEvents) gap or limit events")
            continue
        }
        memory.append((name, bytesPerConnection(connections, payload: small)))
        cases.append(BenchmarkCase(name: name, bytes: 0, items: tally.packets, itemUnit: "packets") {
            var reassembler = TCPReassembler()
            return UInt64(feed(&reassembler, connections: connections, segmentsPerConnection: segmentsPerConnection, payload: small).packets)
        })
    }
    var rows = measure(cases, options: options)
    for index in rows.indices {
        if let figure = memory.first(where: { $0.name == rows[index].name }) {
            rows[index].extras.append(("bytes_per_connection", figure.bytesPerConnection))
        }
    }
    report.add(group: "Flow table scaling (SYN, then 64-byte segments round-robin over all connections)", rows)
}

/// Resident memory one open connection costs, in bytes: RSS growth while `connections`
/// connections are open (SYN and one data segment each), divided by their number.
///
/// Free heap is returned to the kernel first (`malloc_trim`), so pages freed by earlier rows
/// are not silently reused and counted as zero. Page-granular: meaningless below ~1,000.
private func bytesPerConnection(_ connections: Int, payload: UnsafeRawBufferPointer) -> Double {
    ProcessMemory.returnFreeHeapToKernel()
    let before = ProcessMemory.residentBytes()
    var reassembler = TCPReassembler()
    let tally = feed(&reassembler, connections: connections, segmentsPerConnection: 1, payload: payload, finishing: false)
    let after = ProcessMemory.residentBytes()
    blackHole(UInt64(tally.packets + reassembler.trackedConnectionCount))
    return Double(after - before) / Double(connections)
}
