import Foundation
import Testing

/// `framedump decode` on every capture fixture: the output against the checked-in goldens, and
/// the goldens against the generator's own record of what was sent (`NAME.summary.json`), so a
/// wrong golden cannot be accepted by regenerating it.
@Suite struct CaptureDecodeEndToEndTests {
    // MARK: Goldens

    @Test(arguments: CaptureFixture.all)
    func jsonLinesMatchTheGolden(_ fixture: CaptureFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--json", fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("jsonl"))
        let events = try JSONLines.parse(result.stdout).filter { $0["type"] as? String != "frame" }
        #expect(result.status == (events.isEmpty ? 0 : 2), "exit status 2 exactly when a frame or byte is bad")
        #expect(result.stderr.contains("framedump: detected format "), "\(result.stderr)")
    }

    @Test(arguments: CaptureFixture.withText)
    func humanOutputMatchesTheGolden(_ fixture: CaptureFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--summary", "--color", "never", fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("txt"))
    }

    @Test func everyCaptureHasItsGoldens() {
        #expect(CaptureFixture.all.count >= 20)
        #expect(CaptureFixture.withText.count >= 3)
    }

    // MARK: Goldens against the generator's record

    /// Per connection and direction: the frames decoded are exactly the frames sent that the
    /// capture holds whole (offset, body length, cmd), with good checksums; the gaps are the
    /// summary's; frames and events tile the stream from 0 to the bytes sent; `src`/`dst` put
    /// the server's port on the right side and `dir` says so; timestamps are RFC 3339 and never run backwards.
    @Test(arguments: CaptureFixture.all)
    func goldenAgreesWithTheGeneratorSummary(_ fixture: CaptureFixture) throws {
        let summary = try fixture.summary()
        let lines = try fixture.expectedLines()
        let connections = summary["connections"] as? [[String: Any]] ?? []
        #expect(Set(lines.compactMap { $0["conn"] as? Int }) == Set(connections.indices.map { $0 + 1 }),
                "one `conn` per connection, numbered from 1 in order of appearance")
        for connection in connections {
            let number = (connection["connection"] as? Int ?? -1) + 1
            let mine = lines.filter { $0["conn"] as? Int == number }
            for (key, name) in [("client_to_server", "c2s"), ("server_to_client", "s2c")] {
                let sent = connection[key] as? [String: Any] ?? [:]
                let isClientToServer = name == "c2s"
                let records = mine.filter { record in
                    let towardsServer = Self.port(record["dst"]) == Self.serverPort(summary, sent)
                    return towardsServer == isClientToServer
                }
                #expect(records.allSatisfy { $0["dir"] as? String == name }, "\(fixture.file) #\(number): `dir` is \(name) towards the \(isClientToServer ? "server" : "client")")
                try checkDirection("\(fixture.file) #\(number) \(name)", records: records, sent: sent)
            }
        }
    }

    private func checkDirection(_ label: String, records: [[String: Any]], sent: [String: Any]) throws {
        let bytes = sent["bytes"] as? Int ?? -1
        let gaps = (sent["gaps"] as? [[String: Any]] ?? []).map { ($0["offset"] as? Int ?? -1, $0["length"] as? Int ?? -1) }
        let frames = sent["frames"] as? [[String: Any]] ?? []
        let headerLengths = ["h12": 12, "fefd": 4]
        let directionHeader = headerLengths[frames.first?["framing"] as? String ?? ""] ?? 0
        let commands = ["ping": 1, "pong": 2, "msg": 3, "ack": 4]

        // Frames the capture holds whole: sent in full, inside the stream, touching no gap.
        var expected: [[Int]] = []
        for frame in frames {
            let offset = frame["offset"] as? Int ?? -1, length = frame["length"] as? Int ?? -1
            let body = frame["body_length"] as? Int ?? -1
            let header = headerLengths[frame["framing"] as? String ?? ""] ?? -1
            let whole = length == header + body && offset + length <= bytes
                && !gaps.contains { offset < $0.0 + $0.1 && $0.0 < offset + length }
            if whole { expected.append([offset, body, commands[frame["cmd"] as? String ?? ""] ?? -1]) }
        }
        let decoded = records.filter { $0["type"] as? String == "frame" }.map { record -> [Int] in
            let fields = record["fields"] as? [String: Any] ?? [:]
            return [record["offset"] as? Int ?? -2, record["length"] as? Int ?? -2, fields["cmd"] as? Int ?? -1]
        }
        #expect(decoded == expected, "\(label): frames decoded vs frames sent whole")
        #expect(records.allSatisfy { $0["crc_ok"] as? Bool ?? true }, "\(label): every checksum good")

        let decodedGaps = records.filter { $0["type"] as? String == "gap" }.map { [$0["offset"] as? Int ?? -1, $0["length"] as? Int ?? -1] }
        #expect(decodedGaps == gaps.map { [$0.0, $0.1] }, "\(label): gaps")

        // Every byte in exactly one record, in stream order.
        var position = 0
        for record in records {
            let offset = record["offset"] as? Int ?? -1, length = record["length"] as? Int ?? -1
            #expect(offset == position, "\(label): record at \(offset), expected one at \(position)")
            switch record["type"] as? String {
            case "frame":
                #expect(record["frame_length"] as? Int == directionHeader + length, "\(label): frame_length at \(offset)")
                position = offset + (record["frame_length"] as? Int ?? -1)
            case "oversize": position = offset + 1
            default: position = offset + length
            }
        }
        #expect(position == bytes, "\(label): records end at \(position), \(bytes) bytes sent")

        let times = records.compactMap { $0["ts"] as? String }
        #expect(times.count == records.count)
        #expect(times.allSatisfy { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z/) != nil }, "\(label): RFC 3339")
        #expect(times == times.sorted(), "\(label): in capture order")
    }

    /// The port in `"ip:port"` or `"[ip]:port"`.
    private static func port(_ endpoint: Any?) -> Int? {
        (endpoint as? String)?.split(separator: ":").last.flatMap { Int($0) }
    }

    /// Loopback files name the port; hand-built ones use 7000 for h12, 7001 for fefd (README).
    private static func serverPort(_ summary: [String: Any], _ direction: [String: Any]) -> Int {
        if let port = summary["server_port"] as? Int { return port }
        let framing = (direction["frames"] as? [[String: Any]])?.first?["framing"] as? String
        return framing == "fefd" ? 7001 : 7000
    }

    // MARK: Inputs and options

    @Test func pcapngDecodesLikeItsPcapCopy() throws {
        let pcap = try FrameDumpProcess.run(["decode", "--json", "Fixtures/captures/h12-conversation.pcap"])
        let pcapng = try FrameDumpProcess.run(["decode", "--json", "Fixtures/captures/h12-conversation.pcapng"])
        #expect(pcapng == pcap)
    }

    /// A filter that keeps no TCP segment is not an error, but `0 frames` alone would not say why.
    @Test func aFilterThatKeepsNoSegmentIsNoted() throws {
        let path = "Fixtures/captures/h12-conversation.pcap"
        let result = try FrameDumpProcess.run(["decode", path, "tcp", "port", "1"])
        #expect(result.status == 0)
        #expect(result.stdout == "0 frames\n")
        #expect(result.stderr == "framedump decode: no TCP segments in \(path) (0 packets matched the filter: tcp port 1)\n")
        let matching = try FrameDumpProcess.run(["decode", path])
        #expect(!matching.stderr.contains("no TCP segments"), "\(matching.stderr)")
    }

    @Test func standardInputIsReadAsACapture() throws {
        let path = "Fixtures/captures/h12-concurrent.pcap"
        let fromFile = try FrameDumpProcess.run(["decode", "--json", path])
        let data = try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(path))
        for arguments in [["decode", "--json", "-"], ["decode", "--json"]] {
            #expect(try FrameDumpProcess.run(arguments, input: data) == fromFile)
        }
    }

    @Test func filterAsTrailingWordsQuotedOrOption() throws {
        let path = "Fixtures/captures/h12-concurrent.pcap"
        let all = try JSONLines.parse(FrameDumpProcess.run(["decode", "--json", path]).stdout)
        let port = try #require(Self.port(all.first?["src"]))
        let expected = all.filter { Self.port($0["src"]) == port || Self.port($0["dst"]) == port }
        #expect(expected.count == 10 && expected.count < all.count)
        for arguments in [[path, "tcp", "port", "\(port)"], [path, "tcp port \(port)"], ["-f", "tcp port \(port)", path],
                          ["--filter=tcp", path, "port", "\(port)"]] {
            let result = try FrameDumpProcess.run(["decode", "--json"] + arguments)
            let lines = try JSONLines.parse(result.stdout)
            #expect(lines.map { $0["offset"] as? Int } == expected.map { $0["offset"] as? Int }, "\(arguments)")
            #expect(lines.allSatisfy { $0["conn"] as? Int == 1 }, "connections are numbered among the packets kept")
            #expect(result.status == 0)
        }
    }

    @Test func badFilterPrintsLibpcapsMessageAndExitsOne() throws {
        let result = try FrameDumpProcess.run(["decode", "Fixtures/captures/hb-gap.pcap", "tcp", "port"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "framedump: invalid filter 'tcp port': can't parse filter expression: syntax error\n")
    }

    @Test func filterOnHexInputIsAUsageError() throws {
        let result = try FrameDumpProcess.run(["decode", "Fixtures/hex/h12-plain.hex", "tcp"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("framedump decode: unexpected argument 'tcp': a filter applies only to a capture"))
    }

    @Test func unsupportedLinkTypeIsOneWarning() throws {
        // A pcap file (little endian, µs) of link type 147 (USER0) with three packets.
        var bytes: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0] + [UInt8](repeating: 0, count: 8)
        bytes += [0xFF, 0xFF, 0, 0, 147, 0, 0, 0]
        for _ in 0..<3 { bytes += [1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF] }
        let result = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", "-"], input: Data(bytes))
        #expect(result.stdout.isEmpty)
        #expect(result.status == 2)
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.hasPrefix("framedump: <stdin>: link type 147 is not supported; its packets are skipped") == true,
                "\(result.stderr)")
    }

    @Test func unreadableCaptureNamesItsPathOnce() throws {
        // A pcap magic, then the file ends inside its 24-byte header.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-short-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0]).write(to: URL(fileURLWithPath: path))
        for command in ["decode", "streams"] {
            let result = try FrameDumpProcess.run([command, path])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("framedump: cannot read capture \(path): truncated dump file"), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: path).count == 2, "the path once: \(result.stderr)")
        }
    }

    @Test func truncatedCaptureKeepsWhatWasReadAndExitsTwo() throws {
        let data = try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/captures/h12-conversation.pcap"))
        let result = try FrameDumpProcess.run(["decode", "--json", "-"], input: data.prefix(data.count - 10))
        #expect(result.status == 2)
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.contains("truncated dump file"), "\(result.stderr)")
    }

    @Test func givenFormatDecodesAStreamThatFitsNoPreset() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", "Fixtures/captures/hb-midstream.pcap"])
        #expect(result.stderr.isEmpty)
        let golden = try CaptureFixture(file: "hb-midstream.pcap").expectedLines()
        let lines = try JSONLines.parse(result.stdout)
        #expect(lines.count == golden.count)
        #expect(lines.first?["type"] as? String == "skip", "given a format, frames print in capture order: the client's skip first")
    }

    @Test func noPresetFitsAnyStreamIsAUsageError() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-u16-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let encoded = try FrameDumpProcess.run(["encode", "--format", "u16", "--body-text", "hello", "--pcap", scratch])
        try #require(encoded.status == 0, "\(encoded)")
        let result = try FrameDumpProcess.run(["decode", scratch])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("""
            framedump decode: no preset format fits the first bytes of any stream \
            (first: conn 1 c2s 127.0.0.1:50000 → 127.0.0.1:7777: 00 05 68 65 6c 6c 6f)
            Choose one with --format NAME|SPEC;
            """), "\(result.stderr)")
        let given = try FrameDumpProcess.run(["decode", "--json", "--format", "u16", scratch])
        #expect(given.status == 0)
        #expect(try JSONLines.parse(given.stdout).map { $0["payload_hex"] as? String } == ["68656c6c6f"])
    }

    /// `--summary --json`: one line per connection whose counts agree with the frames printed.
    @Test func jsonSummaryCountsTheFramesPrinted() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--summary", "--payload", "none", "Fixtures/captures/hb-gap.pcap"])
        let lines = try JSONLines.parse(result.stdout)
        let summaries = lines.filter { $0["type"] as? String == "summary" }
        #expect(summaries.count == 1)
        let c2s = try #require(summaries.first?["c2s"] as? [String: Any])
        #expect(c2s["format"] as? String == "h12")
        #expect(c2s["frames"] as? Int == 3)
        #expect(c2s["gaps"] as? Int == 1 && c2s["gap_bytes"] as? Int == 65)
        #expect(c2s["cmd"] as? [String: Int] == ["3": 3])
        let s2c = try #require(summaries.first?["s2c"] as? [String: Any])
        #expect(s2c["frames"] as? Int == 5 && s2c["bytes"] as? Int == 80 && s2c["crc_errors"] as? Int == 0)
        #expect(!lines.contains { $0["payload_hex"] != nil })
    }
}
