import Foundation
import TestSupport
import Testing

/// The limit options of `decode`, `streams` (and `capture`, which shares decode's path): a tiny
/// limit on a fixture makes the limit happen, and it is reported as a `limit` event.
@Suite struct CaptureLimitsEndToEndTests {
    @Test func tinyOutOfOrderLimitIsALimitEvent() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--max-ooo-bytes", "10", "Fixtures/captures/hb-out-of-order.pcap"])
        let lines = try JSONLines.parse(result.stdout)
        let limits = lines.filter { $0["type"] as? String == "limit" }
        #expect(limits.first?["limit"] as? String == "out_of_order_bytes_per_direction", "\(result.stdout)")
        // The server's ACKs are in the capture and none covers the hole: the receiver never had its
        // bytes, so the hole and the chunk behind it are discarded, not framed (docs/reassembly.md).
        #expect(lines.contains { $0["type"] as? String == "discarded" }, "the hole given up is discarded")
        #expect(!lines.contains { $0["type"] as? String == "gap" })
        #expect(result.status == 2)
        // The default holds the same capture whole: no limit, no gap.
        let defaults = try FrameDumpProcess.run(["decode", "--json", "Fixtures/captures/hb-out-of-order.pcap"])
        #expect(!defaults.stdout.contains("\"limit\""))
    }

    @Test func streamsListsTheLimitsReached() throws {
        let result = try FrameDumpProcess.run(["streams", "--json", "--max-ooo-total", "1K", "--max-ooo-bytes", "10",
                                               "Fixtures/captures/hb-out-of-order.pcap"])
        let connection = try #require(try JSONLines.parse(result.stdout).first)
        let limits = connection["limits"] as? [[String: Any]] ?? []
        #expect(limits.map { $0["limit"] as? String } == ["out_of_order_bytes_per_direction"], "\(result.stdout)")
        #expect(result.status == 2)
    }

    /// `streams --json` lists each limit once with how often it was reached (it used to repeat one
    /// string per event): a connection whose segments each leave a hole reaches the
    /// per-direction limit once per segment, as decode's `limit` lines count.
    @Test func streamsCountsEachLimitOnce() throws {
        var records: [CaptureBytes.Record] = []
        for index in 0..<6 {
            let segment = PacketBuilder.tcp(sequence: 1000 + UInt32(index) * 200, payload: [UInt8](repeating: 0x41, count: 100))
            records.append(CaptureBytes.Record(seconds: 1_700_000_000, fraction: UInt32(index + 1), bytes: PacketBuilder.ipv4(payload: segment)))
        }
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 101, records: records))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let listing = try FrameDumpProcess.run(["streams", "--json", "--max-ooo-bytes", "10", path])
        let limits = try #require(try JSONLines.parse(listing.stdout).first)["limits"] as? [[String: Any]]
        let decoded = try FrameDumpProcess.run(["decode", "--json", "--format", "u16", "--max-ooo-bytes", "10", path])
        let events = try JSONLines.parse(decoded.stdout).filter { $0["type"] as? String == "limit" }
        #expect(events.count == 5, "each of the 5 segments after the first is held behind a hole and over the limit")
        #expect(limits?.count == 1)
        #expect(limits?.first?["limit"] as? String == "out_of_order_bytes_per_direction")
        #expect(limits?.first?["count"] as? Int == events.count)
    }

    @Test func maxConnectionsEvicts() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--max-connections", "1", "Fixtures/captures/h12-concurrent.pcap"])
        #expect(result.stdout.contains("\"limit\":\"max_connections\""), "\(result.stdout.prefix(2000))")
        #expect(result.status == 2)
    }

    @Test func maxFrameLengthOverridesTheFormats() throws {
        // Every h12 frame of this capture is longer than 20 bytes but the 8-byte pings.
        let result = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", "--max-frame-length", "20",
                                               "Fixtures/captures/h12-conversation.pcap"])
        let lines = try JSONLines.parse(result.stdout)
        #expect(lines.contains { $0["type"] as? String == "oversize" })
        #expect(lines.filter { $0["type"] as? String == "frame" }.allSatisfy { $0["frame_length"] as? Int ?? 99 <= 20 })
        let hex = try FrameDumpProcess.run(["decode", "--max-frame-length", "1K", "Fixtures/hex/fefd-nsdata.hex"])
        #expect(hex.status == 0)
        let small = try FrameDumpProcess.run(["decode", "--json", "--max-frame-length", "100", "Fixtures/hex/fefd-nsdata.hex"])
        #expect(small.stdout.hasPrefix("{\"type\":\"oversize\",\"offset\":0,\"length\":1,\"declared\":249}"), "\(small.stdout)")
    }

    @Test(arguments: [
        (["decode", "--max-ooo-bytes", "0"], "framedump decode: invalid --max-ooo-bytes '0': expected a positive byte count, e.g. 1M or 65536 (suffixes K, M, G)"),
        (["streams", "--max-ooo-total", "1T", "x.pcap"], "framedump streams: invalid --max-ooo-total '1T': expected a positive byte count, e.g. 1M or 65536 (suffixes K, M, G)"),
        (["decode", "--idle-timeout", "-5"], "framedump decode: invalid --idle-timeout '-5': expected a whole number of 1 or more"),
        (["decode", "--max-connections", "many"], "framedump decode: invalid --max-connections 'many': expected a whole number of 1 or more"),
    ])
    func invalidLimitIsAUsageError(_ arguments: [String], _ message: String) throws {
        let result = try FrameDumpProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
    }
}
