import Foundation
import TestSupport
import Testing

/// `framedump streams`: the connection listing and `--write-dir`, checked against the fixture
/// summaries (what each side sent) rather than against framedump itself.
@Suite struct StreamsEndToEndTests {
    /// Every fixture: one connection per summary connection; per direction the file holds the
    /// bytes sent minus the gaps and discarded ranges, the listing's gaps are the summary's, and
    /// stream bytes add up.
    @Test(arguments: CaptureFixture.all)
    func filesHoldTheBytesSentMinusTheGaps(_ fixture: CaptureFixture) throws {
        let run = try StreamsRun.run(fixture.path)
        let connections = try fixture.summary()["connections"] as? [[String: Any]] ?? []
        #expect(run.connections.count == connections.count)
        for (mine, sent) in zip(run.connections, connections) {
            for (index, key) in ["client_to_server", "server_to_client"].enumerated() {
                let direction = sent[key] as? [String: Any] ?? [:]
                let gaps = (direction["gaps"] as? [[String: Any]] ?? []).map { "\($0["offset"] as? Int ?? -1):\($0["length"] as? Int ?? -1)" }
                let gapBytes = (direction["gaps"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["length"] as? Int ?? 0) }
                    + (direction["discarded"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["length"] as? Int ?? 0) }
                let listed = mine.directions[index]
                #expect(listed.gaps == gaps, "\(fixture.file) conn \(mine.number) \(key)")
                #expect(listed.bytes.count == (direction["bytes"] as? Int ?? -1) - gapBytes, "\(fixture.file) conn \(mine.number) \(key)")
                #expect(listed.listedBytes == listed.bytes.count)
                #expect(listed.file == nil || listed.file?.hasPrefix(String(format: "conn%04d-%@-", mine.number, index == 0 ? "c2s" : "s2c")) == true)
            }
        }
        // Exit 2 for a gap, or for a notice the generator says the scenario causes.
        let notices = connections.contains { connection in
            ["client_to_server", "server_to_client"].contains { key in
                ["notices", "discarded"].contains { ((connection[key] as? [String: Any])?[$0] as? [Any])?.isEmpty == false }
            }
        }
        #expect(run.result.status == (notices || run.connections.contains { $0.directions.contains { !$0.gaps.isEmpty } } ? 2 : 0))
    }

    /// A closed connection later dropped as idle keeps, in its listing, what came after its close
    /// (the generator's count of client packets and of the late retransmission's bytes).
    @Test func countersAfterTheCloseSurviveAnIdleDrop() throws {
        let fixture = CaptureFixture(file: "hb-idle-after-close.pcap")
        let afterClose = try #require((try fixture.summary()["connections"] as? [[String: Any]])?.first?["after_close"] as? [String: Any])
        for extra in [["--idle-timeout", "1"], []] {
            let run = try StreamsRun.run(fixture.path, extra)
            let c2s = try #require(run.connections.first?.directions.first)
            #expect(c2s.packets == afterClose["client_packets"] as? Int, "\(extra)")
            #expect(c2s.ignoredBytes == afterClose["client_ignored_bytes"] as? Int, "\(extra)")
            #expect(run.connections.map(\.state) == ["closed-fin", "closed-fin"])
        }
    }

    @Test func listingNamesStateRolesAndCounts() throws {
        let reset = try StreamsRun.run("Fixtures/captures/h12-reset.pcap")
        #expect(reset.connections.map(\.state) == ["reset"])
        let midstream = try StreamsRun.run("Fixtures/captures/hb-midstream.pcap")
        #expect(midstream.connections.map(\.roles) == ["first-packet"])
        #expect(midstream.connections.map(\.state) == ["closed-fin"])
        let overlap = try StreamsRun.run("Fixtures/captures/hb-retransmission-overlap.pcap")
        let c2s = try #require(overlap.connections.first?.directions.first)
        #expect(c2s.retransmittedBytes == 293 - 163, "README: 293 bytes captured for a 163-byte stream")
        let outOfOrder = try StreamsRun.run("Fixtures/captures/hb-out-of-order.pcap")
        #expect(outOfOrder.connections.first?.directions.first?.outOfOrderSegments ?? 0 > 0)
        let concurrent = try StreamsRun.run("Fixtures/captures/h12-concurrent.pcap")
        #expect(concurrent.connections.map(\.state) == Array(repeating: "closed-fin", count: 4))
        #expect(concurrent.capture["packets"] as? Int == 72 && concurrent.capture["tcp_segments"] as? Int == 72)
        #expect(concurrent.connections.allSatisfy { $0.directions.map(\.packets) == [9, 9] }, "the last ACK, after both FINs, counts too")
    }

    @Test func textListing() throws {
        let result = try FrameDumpProcess.run(["streams", "Fixtures/captures/hb-gap.pcap", "-w", "/dev/null/x"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("framedump streams: cannot create /dev/null/x: "))
        let listing = try FrameDumpProcess.run(["streams", "Fixtures/captures/hb-gap.pcap"])
        #expect(listing.stdout == """
            conn 1  10.0.0.1:40003 → 10.0.0.2:7000  closed-fin  roles from syn
              c2s  8 packets  223 bytes  1 gap (65 bytes at 69:65)  2 out-of-order
              s2c  4 packets  80 bytes

            1 connection; 12 packets (12 TCP segments)

            """)
        #expect(listing.status == 2, "a gap")
    }

    @Test func filterAndStandardInput() throws {
        let data = try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/captures/hb-vlan.pcap"))
        let vlan100 = try FrameDumpProcess.run(["streams", "--json", "-", "vlan", "100"], input: data)
        let lines = try JSONLines.parse(vlan100.stdout)
        #expect(lines.filter { $0["type"] as? String == "connection" }.count == 1)
        #expect(lines.last?["packets"] as? Int == 12, "README: `vlan 100` matches the 12 packets of connection 0")
        let bad = try FrameDumpProcess.run(["streams", "-f", "vlan 100 and", "Fixtures/captures/hb-vlan.pcap"])
        #expect(bad.status == 1 && bad.stderr.hasPrefix("framedump: invalid filter 'vlan 100 and': "))
        let hex = try FrameDumpProcess.run(["streams", "Fixtures/hex/h12-plain.hex"])
        #expect(hex.status == 2 && hex.stderr == "framedump streams: Fixtures/hex/h12-plain.hex is not a pcap or pcapng capture\n")
    }

    /// A file that cannot be read is reported with the system's reason, not as "not a capture".
    @Test func unreadableInputsSayWhy() throws {
        let missing = try FrameDumpProcess.run(["streams", "Fixtures/captures/no-such.pcap"])
        #expect(missing.status == 2 && missing.stderr == "framedump streams: cannot read Fixtures/captures/no-such.pcap: No such file or directory\n")
        let directory = try FrameDumpProcess.run(["streams", "Fixtures"])
        #expect(directory.status == 2 && directory.stderr == "framedump streams: cannot read Fixtures: Is a directory\n")
        // An empty hex dump decodes to nothing; without a format there would be no output at all.
        let empty = try FrameDumpProcess.run(["decode", "-"], input: Data())
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr == "framedump decode: <stdin> holds no hex bytes\n")
    }
}
