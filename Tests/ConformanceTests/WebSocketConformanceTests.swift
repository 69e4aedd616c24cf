import Foundation
import TestSupport
import Testing

/// framedump's WebSocket frames against tshark's websocket dissector on every real WebSocket
/// capture: per direction, the same frames in the same order, by opcode, FIN, mask and payload
/// length (so the same messages: a message is its text/binary frame and continuations).
@Suite(.requires(.tshark))
struct WebSocketConformanceTests {
    @Test(arguments: WebSocketCapture.names)
    func framesMatchTsharksWebSocketDissector(_ name: String) throws {
        let summary = try WebSocketCapture.summary(name)
        let theirs = try WebSocketCapture.tsharkFrames(WebSocketCapture.path(name), port: summary.port, keyLogPath: WebSocketCapture.keyLogPath(name))
        let result = try FrameDumpProcess.run(WebSocketCapture.decodeArguments(name, ["--json", "--payload", "none"]))
        let ours = try Self.frames(result.stdout)
        #expect(result.status == 0)
        #expect(ours.keys.sorted() == ["c2s", "s2c"])
        #expect(ours == theirs, "\(name)")
        #expect(theirs.values.reduce(0) { $0 + $1.count } >= 10)
    }

    /// framedump's `ws_frame` lines as the tshark helper gives its frames: by direction,
    /// `[opcode, fin, mask, payload length]`.
    static func frames(_ jsonLines: String) throws -> [String: [[Int]]] {
        var frames: [String: [[Int]]] = [:]
        for record in try JSONLines.parse(jsonLines) where record["type"] as? String == "ws_frame" {
            frames[record["dir"] as? String ?? "", default: []].append([
                opcodes[record["opcode"] as? String ?? ""] ?? -2, record["fin"] as? Bool == true ? 1 : 0,
                record["masked"] as? Bool == true ? 1 : 0, record["payload_length"] as? Int ?? -2,
            ])
        }
        return frames
    }

    static let opcodes = ["continuation": 0, "text": 1, "binary": 2, "close": 8, "ping": 9, "pong": 10]

    /// `encode --format websocket --pcap` against tshark: random conversations (WebSocketScript)
    /// have, per direction, the frames the script wrote (opcode, FIN, mask, payload length) and
    /// so its messages (count, opcode, length); compressed, their frames are framedump's decode's
    /// and their messages the script's by count and opcode.
    @Test(arguments: [(UInt64(3), false), (4, false), (5, true), (6, true)])
    func encodedConversationsMatchTsharksWebSocketDissector(seed: UInt64, deflate: Bool) throws {
        let script = WebSocketScript(seed: seed, deflate: deflate)
        let pcap = CaptureBytes.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: pcap) }
        let encoded = try FrameDumpProcess.run(["encode", "--format", "websocket", "--pcap", pcap, "--port", "7777"] + (deflate ? ["--deflate"] : []),
                                               input: Data((script.lines.joined(separator: "\n") + "\n").utf8))
        #expect(encoded.status == 0, "\(encoded)")
        let theirs = try WebSocketCapture.tsharkFrames(pcap, port: 7777)
        func messages(_ frames: [[Int]]) -> [[Int]] {
            var messages: [[Int]] = []
            for frame in frames where frame[0] < 8 {
                if frame[0] != 0 { messages.append([frame[0], 0]) }
                messages[messages.count - 1][1] += frame[3]
            }
            return messages
        }
        for direction in ["c2s", "s2c"] {
            let sent = script.messages[direction]!.map { [Self.opcodes[$0.opcode]!, $0.payload.count] }
            let seen = messages(theirs[direction] ?? [])
            #expect(seen.map { $0[0] } == sent.map { $0[0] }, "seed \(seed) \(direction)")
            if !deflate {
                let written = script.frames[direction]!.map { [Self.opcodes[$0.opcode]!, $0.fin ? 1 : 0, direction == "c2s" ? 1 : 0, $0.payload.count] }
                #expect(theirs[direction] ?? [] == written, "seed \(seed) \(direction)")
                #expect(seen == sent, "seed \(seed) \(direction)")
            }
        }
        if deflate {
            let decoded = try FrameDumpProcess.run(["decode", "--format", "websocket", "--json", "--payload", "none", pcap])
            #expect(try Self.frames(decoded.stdout) == theirs)
        }
        #expect(theirs.values.reduce(0) { $0 + $1.count } >= 20)
    }
}
