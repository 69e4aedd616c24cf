import FrameCodec
import PacketCapture
import PacketDecoding
import StreamFraming
import Testing
import TestSupport

/// `CaptureReassembly`: a capture file's packets to TCP stream events, as a library (no CLI),
/// and those events framed by the `FramingEngine`.
@Suite struct CaptureReassemblyTests {
    /// A raw-IPv4 pcap of one connection: SYN, SYN-ACK, `payload` from the client in segments
    /// of `segment` bytes, FIN.
    static func capture(payload: [UInt8], segment: Int) -> [UInt8] {
        var records: [CaptureBytes.Record] = []
        var second: UInt32 = 1
        func add(_ tcp: [UInt8], fromClient: Bool) {
            let ip = fromClient
                ? PacketBuilder.ipv4(payload: tcp)
                : PacketBuilder.ipv4(source: PacketBuilder.serverV4, destination: PacketBuilder.clientV4, payload: tcp)
            records.append(CaptureBytes.Record(seconds: second, fraction: 0, bytes: ip))
            second += 1
        }
        add(PacketBuilder.tcp(sequence: 99, acknowledgment: 0, flags: [.syn]), fromClient: true)
        add(PacketBuilder.tcp(sourcePort: 7000, destinationPort: 40000, sequence: 499, acknowledgment: 100, flags: [.syn, .ack]), fromClient: false)
        var offset = 0
        while offset < payload.count {
            let end = min(payload.count, offset + segment)
            add(PacketBuilder.tcp(sequence: 100 + UInt32(offset), acknowledgment: 500, payload: Array(payload[offset..<end])), fromClient: true)
            offset = end
        }
        add(PacketBuilder.tcp(sequence: 100 + UInt32(payload.count), acknowledgment: 500, flags: [.fin, .ack]), fromClient: true)
        return CaptureBytes.pcap(linkType: 228, records: records)  // LINKTYPE_IPV4
    }

    @Test func framesComeOutOfAFileWithLibraryCodeOnly() throws {
        let encoder = FrameEncoder(format: .h12)
        var payload: [UInt8] = []
        for index in 0..<20 { try encoder.encode(fields: ["cmd": UInt64(index)], body: Array(repeating: UInt8(index), count: 37 * index), into: &payload) }
        let path = try CaptureBytes.temporaryFile(Self.capture(payload: payload, segment: 100))
        var engine = FramingEngine<Void>()
        var frames: [Frame] = []
        var times: [Int64] = []
        let statistics = try CaptureReassembly(source: try PcapReader(path: path)).run { event, time in
            guard case .stream(let reassembly) = event else { return }
            try engine.consume(reassembly, at: time, contexts: { _, _, _ in ((), ()) }) { framing in
                if case .output(.frame(let frame), let stream) = framing {
                    frames.append(frame)
                    times.append(stream.time.nanoseconds)
                }
            }
        }
        try engine.finish { _ in }
        #expect(statistics.packets == 2 + (payload.count + 99) / 100 + 1 && statistics.readError == nil)
        #expect(frames.count == 20 && frames.allSatisfy { $0.crcOK == true })
        #expect(frames.map(\.offset) == frames.indices.map { index in UInt64((0..<index).reduce(0) { $0 + 12 + 37 * $1 }) })
        // Each frame carries the capture time of the packet that completed it.
        #expect(times == times.sorted() && times.first! >= 3_000_000_000)
    }

    @Test func anUnsupportedLinkTypeIsAnEventNotAMessage() throws {
        let records = [CaptureBytes.Record(seconds: 1, fraction: 0, bytes: PacketBuilder.ipv4(payload: PacketBuilder.tcp()))]
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 147, records: records))  // LINKTYPE_USER0
        var events: [String] = []
        let statistics = try CaptureReassembly(source: try PcapReader(path: path)).run { event, _ in
            if case .unsupportedLinkType(let linkType) = event { events.append("unsupported \(linkType.rawValue)") } else { events.append("other") }
        }
        #expect(events == ["unsupported 147"])
        #expect(statistics.unsupportedPackets == 1 && statistics.segments == 0)
        #expect(statistics.unsupportedLayers == [.linkType(LinkType(rawValue: 147)): 1])
    }

    @Test func aTruncatedFileEndsWithItsErrorInTheStatistics() throws {
        let whole = Self.capture(payload: Array(repeating: 7, count: 300), segment: 100)
        let cut = try CaptureBytes.temporaryFile(Array(whole.dropLast(30)))
        var segments = 0
        let statistics = try CaptureReassembly(source: try PcapReader(path: cut)).run { event, _ in
            if case .stream(.data) = event { segments += 1 }
        }
        #expect(statistics.readError != nil)
        #expect(statistics.packets == 5 && segments == 3)
    }
}
