import Foundation
import TestSupport
import Testing

/// PKTAP processes and unsupported layers through the built binary: `--process` keeps one
/// app's connections (decode and streams), `proc` is in text output, and packets whose layers
/// are not decoded are named once on standard error, listed by `streams`, and exit 2. Expected
/// values come from the generator's record (NAME.summary.json).
@Suite struct EncapsulationEndToEndTests {
    private static func fixture(_ name: String) -> CaptureFixture { CaptureFixture(file: "\(name).pcap") }

    /// The connection numbers (from 1) whose generator record names a process matching `matches`.
    private static func connections(of name: String, _ matches: ([String: Any]) -> Bool) throws -> Set<Int> {
        let connections = try fixture(name).summary()["connections"] as? [[String: Any]] ?? []
        return Set(connections.indices.filter { matches(connections[$0]["process"] as? [String: Any] ?? [:]) }.map { $0 + 1 })
    }

    @Test(arguments: [("Safari", "name"), ("MyApp", "ename"), ("1207", "epid"), ("98", "pid")])
    func processKeepsOneAppsConnections(selector: String, key: String) throws {
        let expected = try Self.connections(of: "hb-pktap-v1") { "\($0[key] ?? "")" == selector }
        #expect(expected.count == 1)
        let result = try FrameDumpProcess.run(["decode", "--json", "--process", selector, Self.fixture("hb-pktap-v1").path])
        let lines = try JSONLines.parse(result.stdout)
        #expect(!lines.isEmpty)
        #expect(Set(lines.compactMap { $0["conn"] as? Int }) == expected)
        #expect(result.status == 0)
        #expect(result.stderr.contains("--process \(selector) left out 1 connection of other processes"), "\(result.stderr)")

        let streams = try FrameDumpProcess.run(["streams", "--json", "--process", selector, Self.fixture("hb-pktap-v1").path])
        #expect(Set(try JSONLines.parse(streams.stdout).compactMap { $0["conn"] as? Int }) == expected)
    }

    @Test(arguments: ["hb-pktap-v1", "hb-pktap-v2", "hb-pktap-dlt149", "hb-gre"])
    func streamsListsEachConnectionsProcess(_ name: String) throws {
        let connections = try Self.fixture(name).summary()["connections"] as? [[String: Any]] ?? []
        let result = try FrameDumpProcess.run(["streams", "--json", Self.fixture(name).path])
        let listed = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "connection" }
        #expect(listed.count == connections.count)
        for (line, sent) in zip(listed, connections) {
            #expect((line["proc"] as? NSDictionary) == (sent["process"] as? NSDictionary), "\(name) conn \(line["conn"] ?? "?")")
        }
        let text = try FrameDumpProcess.run(["streams", Self.fixture(name).path]).stdout
        #expect(text.contains(", proc ") == connections.contains { $0["process"] != nil })
    }

    @Test func processThatNoConnectionNamesKeepsNothing() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--process", "Mail", Self.fixture("hb-pktap-v2").path])
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--process Mail left out 2 connections"), "\(result.stderr)")
        // A capture that names no process: every connection is left out.
        let plain = try FrameDumpProcess.run(["streams", "--json", "--process", "Safari", Self.fixture("hb-gre").path])
        #expect(try JSONLines.parse(plain.stdout).filter { $0["type"] as? String == "connection" }.isEmpty)
    }

    @Test func processOnAHexDumpIsAUsageError() throws {
        let result = try FrameDumpProcess.run(["decode", "--process", "Safari", "Fixtures/hex/h12-plain.hex"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--process applies only to a capture"), "\(result.stderr)")
    }

    @Test func textOutputShowsTheProcess() throws {
        let result = try FrameDumpProcess.run(["decode", "--color", "never", Self.fixture("hb-pktap-v2").path])
        let heads = result.stdout.split(separator: "\n").filter { $0.hasPrefix("conn ") }
        #expect(!heads.isEmpty)
        #expect(heads.filter { $0.hasPrefix("conn 1 ") }.allSatisfy { $0.contains(" (en0, proc MobileMail:530)  ") })
        #expect(heads.filter { $0.hasPrefix("conn 2 ") }.allSatisfy { $0.contains(" (pdp_ip0, proc nsurlsessiond:98, eproc MyApp:1207)  ") })
    }

    @Test func unsupportedLayersAreNamedOnceAndListedByStreams() throws {
        let fixture = Self.fixture("hb-unsupported")
        let expected = try #require(fixture.summary()["unsupported"] as? [String: Int])
        let decode = try FrameDumpProcess.run(["decode", "--json", fixture.path])
        #expect(decode.status == 2)
        for layer in expected.keys {
            #expect(decode.stderr.components(separatedBy: layer).count == 2, "\(layer) named once: \(decode.stderr)")
        }
        let streams = try FrameDumpProcess.run(["streams", "--json", fixture.path])
        #expect(streams.status == 2)
        let capture = try #require(try JSONLines.parse(streams.stdout).first { $0["type"] as? String == "capture" })
        #expect(capture["unsupported"] as? [String: Int] == expected)
        #expect(capture["unsupported_packets"] as? Int == expected.values.reduce(0, +))
        let text = try FrameDumpProcess.run(["streams", fixture.path])
        #expect(text.stdout.contains("\(expected.values.reduce(0, +)) unsupported: EtherType 0x88B5 (3), GRE version 1 (1), PPP protocol 0x002D (1)"),
                "\(text.stdout)")
    }
}
