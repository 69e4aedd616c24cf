import Foundation
import TestSupport
import Testing

/// `framedump decode --format websocket` on the real captures of scripts/capture-websocket: the
/// output against its golden, and the golden against what the script's client and server sent
/// (its summary), so regenerating a golden cannot make a wrong one pass.
@Suite struct WebSocketCaptureGoldenTests {
    @Test(arguments: WebSocketCapture.names)
    func jsonLinesMatchTheGolden(_ name: String) throws {
        let result = try FrameDumpProcess.run(WebSocketCapture.decodeArguments(name, ["--json"]))
        try GoldenFile.check(result.stdout, against: WebSocketCapture.goldenPath(name))
        #expect(result.status == 0, "\(result)")
    }

    /// Text output dumps each frame's payload, and with `--payload none` none: only the heading
    /// lines, one a WebSocket event of the JSON Lines golden (same count).
    @Test(arguments: WebSocketCapture.names)
    func textShowsPayloadsUnlessPayloadNone(_ name: String) throws {
        let golden = try String(contentsOfFile: FrameDumpProcess.packageRoot.appendingPathComponent(WebSocketCapture.goldenPath(name)).path, encoding: .utf8)
        let wsEvents = golden.split(separator: "\n").count { $0.contains(#""type":"ws_frame""#) }
        let dumped = try FrameDumpProcess.run(WebSocketCapture.decodeArguments(name))
        let headingsOnly = try FrameDumpProcess.run(WebSocketCapture.decodeArguments(name, ["--payload", "none"]))
        func dumpLines(_ text: String) -> Int { text.split(separator: "\n").count { $0.hasPrefix("  000") } }
        #expect(dumpLines(dumped.stdout) > 0)
        #expect(dumpLines(headingsOnly.stdout) == 0, "\(headingsOnly.stdout.prefix(2000))")
        #expect(headingsOnly.stdout.split(separator: "\n").count { $0.contains("  ws frame  ") } == wsEvents)
    }

    /// `--summary --json`: each direction's `websocket` counts are the golden's handshake head,
    /// frames (and their wire bytes), messages (and their inflated bytes), with no error.
    @Test(arguments: WebSocketCapture.names)
    func summaryCountsTheGoldensFramesAndMessages(_ name: String) throws {
        let golden = try JSONLines.parse(String(contentsOfFile: FrameDumpProcess.packageRoot
            .appendingPathComponent(WebSocketCapture.goldenPath(name)).path, encoding: .utf8))
        let result = try FrameDumpProcess.run(WebSocketCapture.decodeArguments(name, ["--json", "--payload", "none", "--summary"]))
        let summary = try #require(try JSONLines.parse(result.stdout).first { $0["type"] as? String == "summary" })
        for direction in ["c2s", "s2c"] {
            func records(_ type: String) -> [[String: Any]] { golden.filter { $0["type"] as? String == type && $0["dir"] as? String == direction } }
            let counts = try #require((summary[direction] as? [String: Any])?["websocket"] as? [String: Int], "\(summary)")
            let handshake = golden.first { $0["type"] as? String == "ws_handshake" }
            #expect(counts["handshake_bytes"] == handshake?[direction == "c2s" ? "request_length" : "response_length"] as? Int)
            #expect(counts["frames"] == records("ws_frame").count)
            #expect(counts["bytes"] == records("ws_frame").reduce(0) { $0 + ($1["length"] as? Int ?? 0) })
            #expect(counts["messages"] == records("ws_message").count)
            #expect(counts["message_bytes"] == records("ws_message").reduce(0) { $0 + ($1["length"] as? Int ?? 0) })
            #expect(counts["errors"] == 0 && counts["unread_bytes"] == 0)
        }
    }

    /// Per direction, in order: the data messages (opcode, payload, and for an uncompressed one
    /// its fragments as the frames' payload lengths, an empty final frame aside), the pings, a
    /// pong for each of the peer's pings with its payload, and the close (the client's code and
    /// reason, echoed by the server); no error, nothing unread.
    @Test(arguments: WebSocketCapture.names)
    func goldenAgreesWithWhatWasSent(_ name: String) throws {
        let summary = try WebSocketCapture.summary(name)
        let text = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(WebSocketCapture.goldenPath(name)), encoding: .utf8)
        let lines = try JSONLines.parse(text)
        let handshakes = lines.filter { $0["type"] as? String == "ws_handshake" }
        #expect(handshakes.count == 1)
        #expect(handshakes.first?["status"] as? Int == 101)
        #expect(handshakes.first?["deflate"] as? Bool == summary.deflate)
        #expect(!lines.contains { ["ws_error", "ws_unread", "tls_no_key", "tls_decrypt_error"].contains($0["type"] as? String) })
        #expect(lines.contains { $0["type"] as? String == "tls" } == (WebSocketCapture.keyLogPath(name) != nil))
        for direction in ["c2s", "s2c"] {
            let sent = summary.sent[direction] ?? []
            let frames = lines.filter { $0["type"] as? String == "ws_frame" && $0["dir"] as? String == direction }
            let messages = lines.filter { $0["type"] as? String == "ws_message" && $0["dir"] as? String == direction }
            #expect(frames.allSatisfy { $0["masked"] as? Bool == (direction == "c2s") })

            // Data messages, reassembled here from the frames (or inflated by framedump when compressed).
            var rebuilt: [(opcode: String, lengths: [Int], payload: [UInt8])] = []
            for frame in frames {
                let opcode = frame["opcode"] as? String ?? ""
                let payload = Tshark.hexBytes(frame["payload_hex"] as? String ?? "")
                if opcode == "text" || opcode == "binary" { rebuilt.append((opcode, [payload.count], payload)) }
                if opcode == "continuation" {
                    rebuilt[rebuilt.count - 1].lengths.append(payload.count)
                    rebuilt[rebuilt.count - 1].payload += payload
                }
            }
            let expected = sent.compactMap { item -> (String, [Int], Int, [UInt8]?, UInt32?)? in
                if case .message(let opcode, let fragments, let length, let payload, let crc) = item { return (opcode, fragments, length, payload, crc) }
                return nil
            }
            #expect(rebuilt.count == expected.count, "\(name) \(direction)")
            #expect(messages.count == expected.count, "\(name) \(direction)")
            for (index, (opcode, fragments, length, payload, crc)) in expected.enumerated() where index < min(rebuilt.count, messages.count) {
                let message = messages[index]
                #expect(rebuilt[index].opcode == opcode)
                #expect(message["opcode"] as? String == opcode)
                #expect(message["length"] as? Int == length, "\(name) \(direction) message \(index)")
                #expect(message["compressed"] as? Bool == summary.deflate)
                let bytes = summary.deflate ? Tshark.hexBytes(message["payload_hex"] as? String ?? "") : rebuilt[index].payload
                #expect(bytes.count == length)
                if let payload { #expect(bytes == payload, "\(name) \(direction) message \(index)") }
                if let crc { #expect(WebSocketCapture.crc32(bytes) == crc, "\(name) \(direction) message \(index)") }
                if !summary.deflate {
                    #expect(rebuilt[index].lengths.filter { $0 > 0 } == fragments.filter { $0 > 0 }, "\(name) \(direction) message \(index)")
                    #expect(message["frames"] as? Int == rebuilt[index].lengths.count)
                } else {
                    #expect((message["frames"] as? Int ?? 0) >= fragments.count)
                }
            }

            func payloads(_ opcode: String, _ records: [[String: Any]]) -> [[UInt8]] {
                records.filter { $0["opcode"] as? String == opcode }.map { Tshark.hexBytes($0["payload_hex"] as? String ?? "") }
            }
            func pings(_ side: String) -> [[UInt8]] {
                (summary.sent[side] ?? []).compactMap { if case .ping(let payload) = $0 { return payload } else { return nil } }
            }
            #expect(payloads("ping", frames) == pings(direction), "\(name) \(direction)")
            #expect(payloads("pong", frames) == pings(direction == "c2s" ? "s2c" : "c2s"), "\(name) \(direction)")
            let close: (Int, String)? = (summary.sent["c2s"] ?? []).compactMap { item -> (Int, String)? in
                if case .close(let code, let reason) = item { return (code, reason) }
                return nil
            }.first
            #expect(frames.last?["opcode"] as? String == "close")
            #expect(frames.last?["close_code"] as? Int == close?.0)
            #expect(frames.last?["close_reason"] as? String == close?.1)

            // ws-h12: the inner frames, their offsets in the binary messages' payloads.
            let inner = lines.filter { $0["type"] as? String == "frame" && $0["dir"] as? String == direction }
            let h12 = summary.h12[direction] ?? []
            let innerFields: [[Int]] = inner.map { record in
                let fields = record["fields"] as? [String: Any] ?? [:]
                return [fields["cmd"] as? Int ?? -1, fields["len"] as? Int ?? -1]
            }
            let sentFields: [[Int]] = h12.map { [$0.cmd, $0.length] }
            #expect(innerFields == sentFields, "\(name) \(direction)")
            #expect(inner.allSatisfy { $0["crc_ok"] as? Bool == true })
            if !h12.isEmpty { #expect(inner.first?["offset"] as? Int == 0) }
        }
    }
}
