import Foundation
import TestSupport
import Testing

/// `--max-buffered`: many connections each holding most of a large frame. Each decoder alone is
/// within the frame limit; together they are over the budget, so the partial frames waiting
/// longest are given up (`limit`, then `truncated`), and every byte is still accounted for.
@Suite struct BufferedBytesLimitEndToEndTests {
    static let connections = 12
    static let chunk = 60_000
    static let chunksPerConnection = 5

    /// A classic pcap (LINKTYPE_RAW, µs): `connections` clients 10.9.0.K:40000 → 10.0.0.2:7000,
    /// each sending an h12 header that declares a 1 MiB body, then `chunksPerConnection`
    /// segments of `chunk` bytes, interleaved round-robin; no handshake, no FIN.
    static func capture() -> Data {
        var records: [CaptureBytes.Record] = []
        var sequence = [UInt32](repeating: 1000, count: connections)
        func packet(_ connection: Int, _ payload: [UInt8]) {
            let segment = PacketBuilder.tcp(sequence: sequence[connection], acknowledgment: 0, window: 0xFFFF, payload: payload)
            let packet = PacketBuilder.ipv4(source: 0x0A09_0000 | UInt32(connection), identification: 0, payload: segment)
            sequence[connection] &+= UInt32(payload.count)
            records.append(CaptureBytes.Record(seconds: 1_700_000_000, fraction: UInt32(records.count + 1), bytes: packet))
        }
        let body = 1 << 20
        let header: [UInt8] = [0x55, 0xAA, 1, 3, UInt8(body >> 24), UInt8(body >> 16 & 0xFF), UInt8(body >> 8 & 0xFF), UInt8(body & 0xFF), 0, 0, 0, 0]
        for connection in 0..<connections { packet(connection, header) }
        for _ in 0..<chunksPerConnection {
            for connection in 0..<connections { packet(connection, [UInt8](repeating: 0x41, count: chunk)) }
        }
        return Data(CaptureBytes.pcap(linkType: 101, nanosecond: false, snaplen: 262_144, records: records))
    }

    @Test func partialFramesOverTheBudgetAreTruncatedAndEveryByteIsAccountedFor() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--format", "h12", "--max-buffered", "1M", "-"],
                                              input: Self.capture())
        #expect(result.status == 2)
        let lines = try JSONLines.parse(result.stdout)
        let limits = lines.filter { $0["type"] as? String == "limit" }
        #expect(!limits.isEmpty)
        #expect(limits.allSatisfy { $0["limit"] as? String == "buffered_bytes_total" })
        // Each limit line is followed by the truncated partial frame of the same stream.
        for (index, line) in lines.enumerated() where line["type"] as? String == "limit" {
            let next = lines[index + 1]
            #expect(next["type"] as? String == "truncated")
            #expect(next["src"] as? String == line["src"] as? String)
        }
        // Per stream, records tile the bytes sent: header + chunks, from offset 0.
        let sent = 12 + Self.chunk * Self.chunksPerConnection
        for connection in 0..<Self.connections {
            let records = lines.filter { $0["src"] as? String == "10.9.0.\(connection):40000" && $0["type"] as? String != "limit" }
            var position = 0
            for record in records {
                #expect(record["offset"] as? Int == position, "conn \(connection): \(record)")
                position += record["type"] as? String == "frame" ? record["frame_length"] as? Int ?? 0 : record["length"] as? Int ?? 0
            }
            #expect(position == sent, "conn \(connection): records end at \(position)")
        }
        // The first streams to start their partial frame are the first given up.
        #expect(limits.first?["src"] as? String == "10.9.0.0:40000")
    }

    @Test func withinTheDefaultBudgetNothingIsGivenUp() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--format", "h12", "-"], input: Self.capture())
        let lines = try JSONLines.parse(result.stdout)
        #expect(!lines.contains { $0["type"] as? String == "limit" })
        #expect(lines.filter { $0["type"] as? String == "truncated" }.count == Self.connections, "each cut at the end of the capture")
    }
}
