import FrameCodec
import Foundation
import TestSupport
import Testing

/// `--body` through the binary: per-command views, the fallback to hex with a reason for bodies
/// that are not what their view expects, the JSON Lines `body` key only when asked for, and
/// usage errors for views that cannot work. Frames are built here with `FrameEncoder`; the
/// bodies' expected readings come from how they were encoded.
@Suite struct BodyViewsEndToEndTests {
    /// h12 frames: a ping with an 8-byte nonce, a msg whose body is protobuf (field 1 = 150,
    /// field 2 = "hi!", which does not parse as a message), an ack whose body is MessagePack `{"id": 7}`, and a msg that is not protobuf.
    static func frames() throws -> String {
        let encoder = FrameEncoder(format: .h12)
        let bodies: [(UInt64, [UInt8])] = [
            (1, [0, 0, 1, 0x93, 0x7E, 0x3A, 0xC4, 0xE8]),
            (3, [0x08, 0x96, 0x01, 0x12, 0x03, 0x68, 0x69, 0x21]),
            (4, [0x81, 0xA2, 0x69, 0x64, 0x07]),
            (3, [0x08]),
        ]
        return try bodies.map { command, body in
            try encoder.encode(fields: ["cmd": command], body: body).map { String(format: "%02x", $0) }.joined() + "\n"
        }.joined()
    }

    static func run(_ arguments: [String]) throws -> FrameDumpProcess.Result {
        try FrameDumpProcess.run(["decode", "--format", "h12", "--color", "never"] + arguments + ["-"], input: Data(try frames().utf8))
    }

    @Test func perCommandViewsInText() throws {
        let result = try Self.run(["--body", "cmd=msg:protobuf", "--body", "cmd=ack:msgpack"])
        #expect(result.status == 0, "\(result)")
        let blocks = result.stdout.components(separatedBy: "\n\n")
        #expect(blocks.count == 5)
        #expect(blocks[0].hasSuffix("  00000000  00 00 01 93 7e 3a c4 e8                           |....~:..|"), "the ping keeps the automatic view")
        #expect(blocks[1].hasSuffix("  1: 150  # zigzag 75\n  2: \"hi!\"  # guess: string"))
        #expect(blocks[2].hasSuffix("  {\n    \"id\": 7\n  }"))
        #expect(blocks[3].hasSuffix("  (not protobuf: truncated varint at byte 1)\n  00000000  08                                                |.|"))
    }

    @Test func jsonLinesCarryTheDecodedBody() throws {
        let result = try Self.run(["--json", "--payload", "none", "--body", "cmd=msg:protobuf", "--body", "cmd=ack:msgpack", "--body", "hex"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { !$0.contains("payload_hex") })
        #expect(lines[0].hasSuffix(#","names":{"cmd":"ping"},"body":{"view":"hex","hex":"000001937e3ac4e8"}}"#))
        #expect(lines[1].hasSuffix(#""body":{"view":"protobuf","fields":[{"number":1,"wire_type":"VARINT","value":150,"zigzag":75},{"number":2,"wire_type":"LEN","guess":"string","value":"hi!"}]}}"#))
        #expect(lines[2].hasSuffix(#""body":{"view":"msgpack","value":{"id":7}}}"#))
        #expect(lines[3].hasSuffix(#""body":{"view":"protobuf","error":"not protobuf: truncated varint at byte 1","hex":"08"}}"#))
    }

    @Test func withoutBodyOptionsJSONLinesStayAsTheyWere() throws {
        let plain = try Self.run(["--json"])
        #expect(!plain.stdout.contains("\"body\""))
        #expect(plain.stdout.contains("payload_hex"))
        let none = try Self.run(["--json", "--payload", "none", "--body", "none"])
        #expect(!none.stdout.contains("\"body\"") && !none.stdout.contains("payload_hex"))
        #expect(none.stdout.split(separator: "\n").count == 4)
        let text = try Self.run(["--payload", "none"])
        #expect(text.stdout.split(separator: "\n").allSatisfy { $0.isEmpty || $0.hasPrefix("frame") || $0 == "4 frames" })
    }

    @Test(arguments: [
        (["--body", "protobof"], "invalid --body 'protobof': expected auto, json, text, hex, protobuf, proto:TYPE, msgpack or none, or FIELD=VALUE:VIEW"),
        (["--body", "cmd=nope:protobuf"], "invalid --body 'cmd=nope:protobuf' at column 5: expected a value 'cmd' can hold (0 to 255), decimal or 0x hex, or one of ping, pong, msg, ack\n  cmd=nope:protobuf\n      ^"),
        (["--body", "cmd=999:protobuf"], "invalid --body 'cmd=999:protobuf' at column 5: expected a value 'cmd' can hold (0 to 255)"),
        (["--body", "cmd=0x100:protobuf"], "at column 5: expected a value 'cmd' can hold (0 to 255)"),
        (["--body", "op=1:protobuf"], "invalid --body 'op=1:protobuf' at column 1: expected a header field name: the format has no integer field 'op'; fields: "),
        (["--body", "proto:im.Chat"], "--body proto:im.Chat needs --proto-descriptors FILE"),
        (["--body", "hex", "--body", "json"], "--body VIEW is given twice"),
        (["--proto-descriptors", "Fixtures/hex/bad-hex.hex", "--body", "proto:x"], "--proto-descriptors 'Fixtures/hex/bad-hex.hex' is not a FileDescriptorSet"),
    ])
    func viewsThatCannotWorkAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Without `--format`, a rule is checked against the presets detection may pick: a field
    /// none of them has, or a value wider than every such field, is refused before any input
    /// is read; a value that fits one of them is accepted.
    @Test(arguments: [
        (["--body", "opcode=1:protobuf"], "invalid --body 'opcode=1:protobuf' at column 1: expected a header field name: the detectable formats (fefd, h12, tls, mqtt) have no integer field 'opcode'"),
        (["--body", "cmd=256:protobuf"], "invalid --body 'cmd=256:protobuf' at column 5: expected a value 'cmd' can hold (0 to 255)"),
        (["--body", "cmd=pang:protobuf"], "or one of ping, pong, msg, ack"),
    ])
    func detectedFormatsCheckRulesAgainstThePresets(_ arguments: [String], _ message: String) throws {
        let result = try FrameDumpProcess.run(["decode", "--color", "never"] + arguments + ["-"], input: Data(try Self.frames().utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let accepted = try FrameDumpProcess.run(["decode", "--color", "never", "--body", "cmd=255:protobuf", "--body", "cmd=msg:protobuf", "-"], input: Data(try Self.frames().utf8))
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdout.contains("  1: 150  # zigzag 75"))
    }
}
