import Foundation
import TestSupport
import Testing

/// `decode --json --payload none` with no body view reads no frame's body, so its framing engine
/// hands out length-field frames with their headers only (`FrameDecoder.BodyRetention.headersOnly`); with
/// `--payload hex` it holds them. Apart from `payload_hex`, the two outputs must be the same
/// byte for byte on every capture fixture: lengths, checksum verdicts, events, limits, totals.
@Suite struct DroppedBodiesEndToEndTests {
    /// Every capture under Fixtures, with the options its goldens are decoded with.
    static let captures: [CaptureFixture] = CaptureFixture.all + CaptureFixture.tls
        + ["analyze", "mqtt", "websocket"].flatMap { folder in
            FixtureDirectory.files(in: "Fixtures/\(folder)", endingIn: ".pcap", ".pcapng").map { CaptureFixture(file: $0, in: "Fixtures/\(folder)") }
        }
        + [CaptureFixture(file: "h12-conversation.pcapng")]

    static func options(_ capture: CaptureFixture) throws -> [String] {
        let summary = FrameDumpProcess.packageRoot.appendingPathComponent(capture.summaryPath).path
        var options = FileManager.default.fileExists(atPath: summary) ? try capture.decodeOptions() : []
        if capture.folder == CaptureFixture.tlsDirectory { options += ["--tls-keylog", capture.keyLogPath] }
        return options
    }

    /// `text` without its `,"payload_hex":"…"` members.
    static func withoutPayloadHex(_ text: String) -> String {
        text.replacingOccurrences(of: #","payload_hex":"[0-9a-f]*""#, with: "", options: .regularExpression)
    }

    @Test(arguments: captures)
    func droppingBodiesChangesNothingButThePayloadHex(capture: CaptureFixture) throws {
        let options = try Self.options(capture)
        let dropping = try FrameDumpProcess.run(["decode", "--json", "--payload", "none"] + options + [capture.path])
        let holding = try FrameDumpProcess.run(["decode", "--json", "--body", "none"] + options + [capture.path])
        #expect(holding.stdout.contains("\"type\":\"frame\"") == dropping.stdout.contains("\"type\":\"frame\""))
        #expect(dropping.stdout == Self.withoutPayloadHex(holding.stdout))
        #expect(dropping.stderr == holding.stderr)
        #expect(dropping.status == holding.status)
    }

    @Test func theLargeFramesFixtureHasFramesThatSpanPackets() throws {
        // h12-large's frames are longer than a segment: the dropping path is what decodes them.
        let lines = try JSONLines.parse(try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "Fixtures/captures/h12-large.pcap"]).stdout)
        let lengths = lines.filter { $0["type"] as? String == "frame" }.compactMap { $0["frame_length"] as? Int }
        #expect(lengths.contains { $0 > 65_535 })
        #expect(lines.filter { $0["crc_ok"] as? Bool == true }.count == lengths.count)
    }
}
