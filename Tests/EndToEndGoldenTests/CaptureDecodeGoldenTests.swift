import Foundation
import TestSupport
import Testing

/// `framedump decode` on every capture fixture: the output against the checked-in goldens, and
/// the goldens against the generator's own record of what was sent (`NAME.summary.json`), so a
/// wrong golden cannot be accepted by regenerating it.
@Suite struct CaptureDecodeGoldenTests {
    // MARK: Goldens

    @Test(arguments: CaptureFixture.all)
    func jsonLinesMatchTheGolden(_ fixture: CaptureFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--json"] + fixture.decodeOptions() + [fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("jsonl"))
        let events = try JSONLines.parse(result.stdout).filter { $0["type"] as? String != "frame" }
        #expect(result.status == (events.isEmpty ? 0 : 2), "exit status 2 exactly when a frame or byte is bad")
        #expect(result.stderr.contains("framedump: detected format "), "\(result.stderr)")
    }

    @Test(arguments: CaptureFixture.withText)
    func humanOutputMatchesTheGolden(_ fixture: CaptureFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--summary", "--color", "never"] + fixture.decodeOptions() + [fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("txt"))
    }

    @Test func everyCaptureHasItsGoldens() {
        #expect(CaptureFixture.all.count >= 20)
        #expect(CaptureFixture.withText.count >= 3)
    }

    // MARK: Goldens against the generator's record

    /// Per connection and direction: the frames decoded are exactly the frames sent that the
    /// capture holds whole (offset, body length, cmd), with good checksums; the gaps and the
    /// discarded ranges are the summary's; frames and events tile the stream from 0 to the bytes
    /// sent; the reassembler's other notices (`rst_ignored`, `out_of_window`, `overlap`) are the
    /// ones the summary says the scenario causes; `src`/`dst` put the server's port on the right
    /// side and `dir` says so; timestamps are RFC 3339 and never run backwards.
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
                    let towardsServer = JSONLines.port(record["dst"]) == Self.serverPort(summary, sent)
                    return towardsServer == isClientToServer
                }
                #expect(records.allSatisfy { $0["dir"] as? String == name }, "\(fixture.file) #\(number): `dir` is \(name) towards the \(isClientToServer ? "server" : "client")")
                try checkDirection("\(fixture.file) #\(number) \(name)", records: records, sent: sent)
            }
        }
    }

    /// Record types that do not take a place in the stream.
    static let noticeTypes: Set = ["rst_ignored", "out_of_window", "overlap"]

    private func checkDirection(_ label: String, records allRecords: [[String: Any]], sent: [String: Any]) throws {
        let bytes = sent["bytes"] as? Int ?? -1
        let records = allRecords.filter { !Self.noticeTypes.contains($0["type"] as? String ?? "") }
        let notices = allRecords.filter { Self.noticeTypes.contains($0["type"] as? String ?? "") }
        let expectedNotices = sent["notices"] as? [[String: Any]] ?? []
        #expect(notices.map(Self.noticeKey) == expectedNotices.map(Self.noticeKey), "\(label): notices")
        let discarded = (sent["discarded"] as? [[String: Any]] ?? []).map { ($0["offset"] as? Int ?? -1, $0["length"] as? Int ?? -1) }
        let decodedDiscarded = records.filter { $0["type"] as? String == "discarded" }
            .map { [$0["offset"] as? Int ?? -1, $0["length"] as? Int ?? -1, $0["captured"] as? Int ?? -1] }
        #expect(decodedDiscarded == (sent["discarded"] as? [[String: Any]] ?? []).map { [$0["offset"] as? Int ?? -2, $0["length"] as? Int ?? -2, $0["captured"] as? Int ?? -2] },
                "\(label): discarded ranges")
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
                && !(gaps + discarded).contains { offset < $0.0 + $0.1 && $0.0 < offset + length }
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

    /// A notice's type and values, in a comparable form.
    private static func noticeKey(_ record: [String: Any]) -> String {
        ["type", "seq", "expected", "offset", "length", "kept"].compactMap { key in record[key].map { "\(key)=\($0)" } }.joined(separator: " ")
    }

    /// Loopback files name the port; hand-built ones use 7000 for h12, 7001 for fefd (README).
    private static func serverPort(_ summary: [String: Any], _ direction: [String: Any]) -> Int {
        if let port = summary["server_port"] as? Int { return port }
        let framing = (direction["frames"] as? [[String: Any]])?.first?["framing"] as? String
        return framing == "fefd" ? 7001 : 7000
    }
}
