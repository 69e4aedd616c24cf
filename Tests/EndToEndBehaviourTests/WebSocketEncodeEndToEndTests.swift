import Foundation
import TestSupport
import Testing

/// `framedump encode --format websocket`: RFC 6455 §5.7's and RFC 7692 §7.2.3's example frames
/// byte for byte, the Upgrade's accept value (§1.3), and the identity property: random
/// conversations (`WebSocketScript`: both directions interleaved, control frames between
/// fragments, 7/16/64-bit lengths, random masks, deflate on and off) encoded into a pcap and
/// decoded give back the script's own record of every frame and message.
@Suite struct WebSocketEncodeEndToEndTests {
    static func encode(_ lines: [String], _ arguments: [String]) throws -> FrameDumpProcess.Result {
        try FrameDumpProcess.run(["encode", "--format", "websocket"] + arguments, input: Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// RFC 6455 §5.7's examples (masked "Hello" with key 37 fa 21 3d, unmasked, fragmented,
    /// ping, a 256-byte and a 65536-byte binary header) and RFC 7692 §7.2.3.1-2's compressed
    /// "Hello" twice, the second referring back into the first (context takeover).
    @Test(arguments: [
        ([#"{"opcode":"text","mask":"0x37fa213d","payload_text":"Hello"}"#], ["--no-upgrade"], ["818537fa213d7f9f4d5158"]),
        ([#"{"direction":"s2c","opcode":"text","payload_text":"Hello"}"#], ["--no-upgrade"], ["810548656c6c6f"]),
        ([#"{"direction":"s2c","opcode":1,"fin":false,"payload_text":"Hel"}"#, #"{"direction":"s2c","opcode":"continuation","payload_text":"lo"}"#],
         ["--no-upgrade"], ["010348656c", "80026c6f"]),
        ([#"{"direction":"s2c","opcode":"ping","payload_text":"Hello"}"#], ["--no-upgrade"], ["890548656c6c6f"]),
        ([#"{"direction":"s2c","opcode":"text","payload_text":"Hello"}"#, #"{"direction":"s2c","opcode":"text","payload_text":"Hello"}"#],
         ["--deflate"], ["c107f248cdc9c90700", "c105f200110000"]),
    ])
    func rfcExamplesComeOutByteForByte(_ lines: [String], _ options: [String], _ frames: [String]) throws {
        let result = try Self.encode(lines, options + ["--output", "hex"])
        #expect(result.status == 0, "\(result)")
        var output = result.stdout.split(separator: "\n").map(String.init)
        if !options.contains("--no-upgrade") { output.removeFirst() } // the response head
        #expect(output == frames)
    }

    @Test func lengthFormsAreRFC6455s() throws {
        let result = try Self.encode([#"{"direction":"s2c","payload_hex":"\#(String(repeating: "00", count: 256))"}"#,
                                      #"{"direction":"s2c","payload_hex":"\#(String(repeating: "00", count: 65536))"}"#],
                                     ["--no-upgrade", "--output", "hex"])
        let output = result.stdout.split(separator: "\n")
        #expect(output.map { String($0.prefix(20)) } == ["827e0100000000000000", "827f0000000000010000"])
    }

    /// The heads: the request offers and the response agrees permessage-deflate, and the accept
    /// value for §1.3's sample key is the one §1.3 gives.
    @Test func theUpgradeCarriesRFC6455sAcceptValue() throws {
        let request = try Self.encode([#"{"payload_text":"x"}"#], ["--deflate", "--output", "hex"])
        let response = try Self.encode([#"{"direction":"s2c","payload_text":"x"}"#], ["--deflate", "--output", "hex"])
        func head(_ result: FrameDumpProcess.Result) -> String {
            String(decoding: Tshark.hexBytes(String(result.stdout.split(separator: "\n")[0])), as: UTF8.self)
        }
        #expect(head(request).hasPrefix("GET / HTTP/1.1\r\nHost: 127.0.0.1:7777\r\n"))
        #expect(head(request).contains("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"))
        #expect(head(request).contains("Sec-WebSocket-Extensions: permessage-deflate"))
        #expect(head(response).hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(head(response).contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(head(response).hasSuffix("Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n"))
    }

    @Test(arguments: propertySeeds, [false, true])
    func encodedConversationsDecodeToWhatWasWritten(seed: UInt64, deflate: Bool) throws {
        let script = WebSocketScript(seed: seed, deflate: deflate)
        let pcap = CaptureBytes.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: pcap) }
        let encoded = try Self.encode(script.lines, ["--pcap", pcap] + (deflate ? ["--deflate"] : []))
        #expect(encoded.status == 0, "seed \(seed): \(encoded)")
        let decoded = try FrameDumpProcess.run(["decode", "--format", "websocket", "--json", pcap])
        #expect(decoded.status == 0, "seed \(seed): \(decoded.stderr)")
        let records = try JSONLines.parse(decoded.stdout)
        #expect(!records.contains { ["ws_error", "ws_unread"].contains($0["type"] as? String) }, "seed \(seed)")
        #expect(records.first { $0["type"] as? String == "ws_handshake" }?["deflate"] as? Bool == deflate)
        for direction in ["c2s", "s2c"] {
            let frames = records.filter { $0["type"] as? String == "ws_frame" && $0["dir"] as? String == direction }
            let written = script.frames[direction]!
            #expect(frames.count == written.count, "seed \(seed) \(direction)")
            for (frame, expected) in zip(frames, written) {
                #expect(frame["opcode"] as? String == expected.opcode)
                #expect(frame["fin"] as? Bool == expected.fin)
                #expect(frame["rsv1"] as? Bool == expected.rsv1)
                #expect(frame["masked"] as? Bool == (direction == "c2s"))
                if let key = expected.maskKey { #expect(frame["mask_key"] as? String == String(format: "0x%08x", key)) }
                if !expected.compressed { #expect(Tshark.hexBytes(frame["payload_hex"] as? String ?? "-") == expected.payload, "seed \(seed)") }
                #expect(frame["close_code"] as? Int == expected.closeCode)
                if expected.closeCode != nil { #expect(frame["close_reason"] as? String == expected.closeReason) }
            }
            let messages = records.filter { $0["type"] as? String == "ws_message" && $0["dir"] as? String == direction }
            let sent = script.messages[direction]!
            #expect(messages.count == sent.count, "seed \(seed) \(direction)")
            for (message, expected) in zip(messages, sent) {
                #expect(message["opcode"] as? String == expected.opcode)
                #expect(message["frames"] as? Int == expected.frames)
                #expect(message["length"] as? Int == expected.payload.count)
                #expect(message["compressed"] as? Bool == expected.compressed)
                if expected.compressed { #expect(Tshark.hexBytes(message["payload_hex"] as? String ?? "-") == expected.payload, "seed \(seed)") }
            }
        }
    }

    /// `--inner h12`: each line's h12 frames are the payload, and `decode --inner h12` frames them
    /// again, also across a message cut into two frames with a ping between, and across the
    /// three frames `"fragments":3` cuts a line into (h12 frames crossing frame boundaries).
    @Test func innerFramesAreCarriedAndDecodedAgain() throws {
        let lines = [
            #"{"opcode":"binary","inner":[{"fields":{"cmd":"msg"},"body_text":"one"},{"fields":{"cmd":"ping"}}]}"#,
            #"{"opcode":"binary","fin":false,"inner":{"fields":{"cmd":3},"body_json":{"id":7}}}"#,
            #"{"opcode":"ping"}"#,
            #"{"opcode":"continuation","inner":{"fields":{"cmd":"ack"},"body_hex":"00ff"}}"#,
            #"{"direction":"s2c","opcode":"binary","inner":{"fields":{"cmd":"pong"}}}"#,
            #"{"direction":"s2c","opcode":"binary","fragments":3,"inner":[{"fields":{"cmd":"msg"},"body_text":"hello"},{"fields":{"cmd":4}}]}"#,
        ]
        let pcap = CaptureBytes.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: pcap) }
        let encoded = try Self.encode(lines, ["--inner", "h12", "--deflate", "--pcap", pcap])
        #expect(encoded.status == 0, "\(encoded)")
        let decoded = try FrameDumpProcess.run(["decode", "--format", "websocket", "--inner", "h12", "--json", pcap])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let frames = try JSONLines.parse(decoded.stdout).filter { $0["type"] as? String == "frame" }
        #expect(frames.map { "\($0["dir"] as? String ?? "") \(($0["fields"] as? [String: Any])?["cmd"] as? Int ?? -1) \($0["payload_hex"] as? String ?? "")" } == [
            "c2s 3 6f6e65", "c2s 1 ", "c2s 3 7b226964223a377d", "c2s 4 00ff", "s2c 2 ", "s2c 3 68656c6c6f", "s2c 4 ",
        ])
        let messages = try JSONLines.parse(decoded.stdout).filter { $0["type"] as? String == "ws_message" }
        #expect(messages.map { "\($0["dir"] as? String ?? "") \($0["frames"] as? Int ?? -1) \($0["length"] as? Int ?? -1)" } == [
            "c2s 1 27", "c2s 2 34", "s2c 1 12", "s2c 3 29", // h12: 12 header bytes per frame, then the body
        ])
    }

    /// The identity through `--inner h12`: random binary messages of both directions carrying
    /// 1-3 h12 frames each (`inner`), cut into 1-3 frames (`fragments`), with text messages and
    /// pings between them, deflate on or off; `decode --inner h12` gives back each direction's
    /// h12 frames, in order, by cmd and body.
    @Test(arguments: propertySeeds)
    func innerConversationsDecodeToTheirFrames(seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        let deflate = random.chance(1, in: 2)
        var lines: [String] = []
        var sent: [String: [String]] = ["c2s": [], "s2c": []]
        for _ in 0..<30 {
            let direction = random.chance(1, in: 2) ? "c2s" : "s2c"
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                lines.append(#"{"direction":"\#(direction)","opcode":"ping","payload_hex":"0102"}"#)
            case 1:
                lines.append(#"{"direction":"\#(direction)","opcode":"text","payload_text":"not h12","fragments":2}"#)
            default:
                let frames = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    (cmd: Int.random(in: 1...4, using: &random), body: random.bytes(Int(random.edgy(in: 0...300))))
                }
                let inner = frames.map { #"{"fields":{"cmd":\#($0.cmd)},"body_hex":"\#($0.body.map { String(format: "%02x", $0) }.joined())"}"# }
                lines.append(#"{"direction":"\#(direction)","opcode":"binary","fragments":\#(Int.random(in: 1...3, using: &random)),"inner":[\#(inner.joined(separator: ","))]}"#)
                sent[direction]! += frames.map { "\($0.cmd) \($0.body.map { String(format: "%02x", $0) }.joined())" }
            }
        }
        let pcap = CaptureBytes.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: pcap) }
        let encoded = try Self.encode(lines, ["--inner", "h12", "--pcap", pcap] + (deflate ? ["--deflate"] : []))
        #expect(encoded.status == 0, "seed \(seed): \(encoded)")
        let decoded = try FrameDumpProcess.run(["decode", "--format", "websocket", "--inner", "h12", "--json", pcap])
        #expect(decoded.status == 0, "seed \(seed): \(decoded.stderr)")
        let frames = try JSONLines.parse(decoded.stdout).filter { $0["type"] as? String == "frame" }
        #expect(sent.values.reduce(0) { $0 + $1.count } >= 5)
        for direction in ["c2s", "s2c"] {
            let seen = frames.filter { $0["dir"] as? String == direction }
                .map { "\(($0["fields"] as? [String: Any])?["cmd"] as? Int ?? -1) \($0["payload_hex"] as? String ?? "-")" }
            #expect(seen == sent[direction]!, "seed \(seed) \(direction), deflate \(deflate)")
        }
    }

    @Test(arguments: [
        ([#"{"opcode":"text"}"#, #"{"direction":"s2c"}"#], ["--output", "hex"], 2, "<stdin>:2: a s2c frame after c2s ones: binary and hex output carry one direction"),
        ([#"{"opcode":"text","payload_hex":"0g"}"#], ["--output", "hex"], 2, #"<stdin>:1: expected a hex digit in "payload_hex" at character 2"#),
        ([#"{"opcode":"nope"}"#], ["--output", "hex"], 2, "<stdin>:1: expected \"opcode\" to be continuation, text, binary"),
        ([#"{"opcode":"close","reason":"x"}"#], ["--output", "hex"], 2, "<stdin>:1: \"reason\" needs a \"code\""),
        ([#"{"payload_text":"a","payload_hex":"00"}"#], ["--output", "hex"], 2, "<stdin>:1: expected one payload, found payload_hex and payload_text"),
        ([#"{"inner":{}}"#], ["--output", "hex"], 2, "<stdin>:1: \"inner\" needs --inner FORMAT"),
        ([#"{"mask":4294967296}"#], ["--output", "hex"], 2, "<stdin>:1: expected \"mask\" to be an integer 0...4294967295"),
        ([#"{"opcode":"ping","fragments":2}"#], ["--output", "hex"], 2, "<stdin>:1: \"fragments\" cuts a data frame; a control frame is never fragmented"),
        // The range named is the one the key takes, whichever side the value is off.
        ([#"{"fragments":0}"#], ["--output", "hex"], 2, "<stdin>:1: expected \"fragments\" to be an integer 1...65535"),
        ([#"{"fragments":65536}"#], ["--output", "hex"], 2, "<stdin>:1: expected \"fragments\" to be an integer 1...65535"),
        ([#"{}"#], ["--deflate", "--no-upgrade", "--output", "hex"], 1, "--deflate needs the Upgrade"),
        ([#"{}"#], ["--field", "cmd=1", "--output", "hex"], 1, "--field describes a frame of a layout"),
    ])
    func badInputSaysWhere(_ lines: [String], _ options: [String], _ status: Int32, _ message: String) throws {
        let result = try Self.encode(lines, options)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func webSocketOptionsNeedTheWebSocketFormat() throws {
        let result = try FrameDumpProcess.run(["encode", "--format", "h12", "--deflate", "--output", "hex"], input: Data("{}\n".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("--deflate applies only to --format websocket"), "\(result.stderr)")
    }
}
