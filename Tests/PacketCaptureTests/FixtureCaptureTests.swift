import Foundation
import PacketCapture
import PacketDecoding
import TestSupport
import Testing

/// Fixtures/captures, found from this file's path (Tests/PacketCaptureTests/ → package root).
private let capturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/captures")

private func fixture(_ name: String) -> String { capturesDirectory.appendingPathComponent(name).path }

private struct Packet {
    var nanoseconds: Int64
    var bytes: [UInt8]
    var originalLength: Int
}

private func packets(in name: String, filter: String? = nil) throws -> [Packet] {
    let reader = try PcapReader(path: fixture(name))
    if let filter { try reader.setFilter(filter) }
    var packets: [Packet] = []
    try reader.forEach { packets.append(Packet(nanoseconds: $0.timestamp.nanoseconds, bytes: Array($0.bytes),
                                               originalLength: $0.originalLength)) }
    return packets
}

/// The committed fixtures: name, link type, packet count, whether timestamps are in nanoseconds
/// (see Fixtures/captures/README.md).
private let fixtures: [(name: String, linkType: LinkType, packets: Int, nanosecond: Bool)] = [
    ("h12-conversation.pcap", .ethernet, 24, true),
    ("h12-conversation.pcapng", .ethernet, 24, true),
    ("h12-coalesced.pcap", .ethernet, 10, false),
    ("h12-drip.pcap", .ethernet, 170, false),
    ("h12-large.pcap", .ethernet, 25, false),
    ("h12-concurrent.pcap", .ethernet, 72, false),
    ("h12-reset.pcap", .ethernet, 10, false),
    ("h12-ipv6.pcap", .ethernet, 24, true),
    ("fefd-conversation.pcap", .ethernet, 150, false),
    ("fefd-conversation-any-sll.pcap", .linuxSLL, 153, false),
    ("h12-concurrent-any-sll2.pcap", .linuxSLL2, 72, true),
    ("hb-out-of-order.pcap", .ethernet, 13, true),
    ("hb-retransmission-overlap.pcap", .ethernet, 14, true),
    ("hb-gap.pcap", .ethernet, 12, true),
    ("hb-seq-wraparound.pcap", .ethernet, 20, true),
    ("hb-midstream.pcap", .ethernet, 11, true),
    ("hb-vlan.pcap", .ethernet, 24, true),
    ("hb-ipv4-fragments.pcap", .ethernet, 14, true),
    ("hb-snaplen.pcap", .ethernet, 22, true),
    ("hb-null.pcap", .null, 12, true),
    ("hb-raw.pcap", .raw, 24, true),
    ("hb-sll2.pcap", .linuxSLL2, 12, true),
]

@Suite struct FixtureCaptureTests {
    @Test(arguments: fixtures.map(\.name))
    func fixtureHasExpectedLinkTypeAndPacketCount(name: String) throws {
        let expected = try #require(fixtures.first { $0.name == name })
        let reader = try PcapReader(path: fixture(name))
        #expect(reader.linkType == expected.linkType)
        let read = try packets(in: name)
        #expect(read.count == expected.packets)
        #expect(read.allSatisfy { $0.bytes.count == $0.originalLength } || name == "hb-snaplen.pcap")
        #expect(zip(read, read.dropFirst()).allSatisfy { $0.nanoseconds <= $1.nanoseconds })
        let summary = fixture(name.replacingOccurrences(of: ".pcapng", with: ".pcap")
            .replacingOccurrences(of: ".pcap", with: ".summary.json"))
        #expect(FileManager.default.fileExists(atPath: summary), "expected frames beside the capture")
        if !expected.nanosecond {
            #expect(read.allSatisfy { $0.nanoseconds % 1000 == 0 }, "microsecond file")
        }
    }

    @Test func handBuiltTimestampsAreExactNanoseconds() throws {
        // make-handbuilt-captures: packet k (from 1) is at 1_700_000_000 s + k × 1_000_037 ns.
        let read = try packets(in: "hb-out-of-order.pcap")
        #expect(read.map(\.nanoseconds) == (1...13).map { 1_700_000_000_000_000_000 + Int64($0) * 1_000_037 })
    }

    @Test func pcapngCopyMatchesThePcapPacketForPacket() throws {
        let pcap = try packets(in: "h12-conversation.pcap")
        let pcapng = try packets(in: "h12-conversation.pcapng")
        #expect(pcap.map(\.bytes) == pcapng.map(\.bytes))
        #expect(pcap.map(\.nanoseconds) == pcapng.map(\.nanoseconds))
        #expect(pcap.contains { $0.nanoseconds % 1000 != 0 }, "recorded with nanosecond precision")
    }

    @Test func snaplenCutsPacketsTo96Bytes() throws {
        let reader = try PcapReader(path: fixture("hb-snaplen.pcap"))
        #expect(reader.snaplen == 96)
        let read = try packets(in: "hb-snaplen.pcap")
        #expect(read.allSatisfy { $0.bytes.count <= 96 })
        #expect(read.filter { $0.originalLength > $0.bytes.count }.map(\.originalLength) == [278, 344])
    }

    @Test func filtersSelectPacketsInFixtures() throws {
        // 4 connections: one SYN and one SYN/ACK each.
        #expect(try packets(in: "h12-concurrent.pcap", filter: "tcp[tcpflags] & tcp-syn != 0").count == 8)
        #expect(try packets(in: "h12-reset.pcap", filter: "tcp[tcpflags] & tcp-rst != 0").count == 1)
        // Connection 0 of hb-vlan is in VLAN 100, connection 1 in 802.1ad 200 + 802.1Q 300.
        #expect(try packets(in: "hb-vlan.pcap", filter: "vlan 100").count == 12)
        #expect(try packets(in: "hb-vlan.pcap", filter: "vlan 200 and vlan 300 and ip6").count == 12)
        #expect(try packets(in: "h12-ipv6.pcap", filter: "ip").isEmpty)
    }

    @Test func truncatedFixtureReportsTheErrorAfterTheGoodPackets() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("h12-conversation.pcap"))))
        let reader = try PcapReader(path: CaptureBytes.temporaryFile(Array(bytes.dropLast(10))))
        var count = 0
        let error = #expect(throws: CaptureError.self) { try reader.forEach { _ in count += 1 } }
        #expect(count == 23)
        #expect(error?.kind == .readFailed)
        #expect(error?.message.contains("truncated") == true)
        #expect(error?.offset == Int64(bytes.count - 10))
    }
}
