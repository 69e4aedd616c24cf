import FrameCodec
import Foundation
import TestSupport
import Testing

/// Value names (`op:u8{1=get,…}`, h12's ping/pong/msg/ack) through the binary: `encode` takes
/// names for numbers, `decode` shows `op=put(2)` and adds `names` to JSON Lines only for values
/// that have a name, `--summary` names the command histogram. The oracle is `FrameEncoder` in
/// this process, given the numbers the spec assigns the names.
@Suite struct ValueNamesEndToEndTests {
    static let spec = "op:u8{1=get,2=put,0xff=error} len:u16"

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test func encodeTakesNamesAndDecodeShowsThem() throws {
        let input = #"""
        {"fields":{"op":"put"},"body_text":"hi"}
        {"fields":{"op":255}}
        {"fields":{"op":7},"body_hex":"00"}
        """# + "\n"
        let encoded = try FrameDumpProcess.run(["encode", "--format", Self.spec, "--output", "hex"], input: Data(input.utf8))
        #expect(encoded.status == 0, "\(encoded)")
        let encoder = FrameEncoder(format: try FrameFormat(spec: Self.spec))
        let frames = [
            try encoder.encode(fields: ["op": 2], body: Array("hi".utf8)),
            try encoder.encode(fields: ["op": 255], body: []),
            try encoder.encode(fields: ["op": 7], body: [0]),
        ]
        #expect(encoded.stdout == frames.map { Self.hex($0) + "\n" }.joined())

        let json = try FrameDumpProcess.run(["decode", "--json", "--format", Self.spec, "-"], input: Data(encoded.stdout.utf8))
        #expect(json.status == 0, "\(json)")
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 3)
        #expect(objects.compactMap { ($0["fields"] as? [String: Int])?["op"] } == [2, 255, 7])
        #expect(objects.map { $0["names"] as? [String: String] } == [["op": "put"], ["op": "error"], nil])
        // `names` comes after every key published before it.
        #expect(json.stdout.split(separator: "\n").first?.hasSuffix(#","frame_length":5,"names":{"op":"put"}}"#) == true)

        let text = try FrameDumpProcess.run(["decode", "--color", "never", "--format", Self.spec, "-"], input: Data(encoded.stdout.utf8))
        let headings = text.stdout.split(separator: "\n").filter { $0.hasPrefix("frame") }
        #expect(headings.map { $0.split(separator: " ").first { $0.hasPrefix("op=") } } == ["op=put(2)", "op=error(255)", "op=7"])
    }

    @Test func theFieldOptionTakesANameToo() throws {
        let result = try FrameDumpProcess.run(["encode", "--format", "h12", "--field", "cmd=ack", "--body-hex", "00000007", "--output", "hex"])
        #expect(result.status == 0, "\(result)")
        let expected = try FrameEncoder(format: .h12).encode(fields: ["cmd": 4], body: [0, 0, 0, 7])
        #expect(result.stdout == Self.hex(expected) + "\n")
    }

    @Test func anUnknownNameIsAnErrorListingTheNames() throws {
        let result = try FrameDumpProcess.run(["encode", "--format", "h12", "--output", "hex"], input: Data(#"{"fields":{"cmd":"pnig"}}"#.utf8 + [10]))
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(#"<stdin>:1: expected field 'cmd' to be a non-negative integer or one of its value names (ping, pong, msg, ack), found "pnig""#))
        let option = try FrameDumpProcess.run(["encode", "--format", "h12", "--field", "cmd=pnig"])
        #expect(option.status != 0)
        #expect(option.stderr.contains("--field 'cmd=pnig': expected a value"))
    }

    @Test func theSummaryNamesTheCommands() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-names-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = [#"{"fields":{"cmd":"ping"}}"#, #"{"fields":{"cmd":"msg"}}"#, #"{"fields":{"cmd":"msg"}}"#, #"{"fields":{"cmd":9}}"#]
            .joined(separator: "\n") + "\n"
        let encoded = try FrameDumpProcess.run(["encode", "--format", "h12", "--pcap", scratch.path], input: Data(input.utf8))
        #expect(encoded.status == 0, "\(encoded)")
        let text = try FrameDumpProcess.run(["decode", "--summary", "--payload", "none", "--format", "h12", scratch.path])
        #expect(text.stdout.contains("  c2s  h12  4 frames (48 bytes)  cmd ping(1):1 msg(3):2 9:1\n"), "\(text)")
        let json = try FrameDumpProcess.run(["decode", "--summary", "--json", "--format", "h12", scratch.path])
        let summary = try #require(json.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        let c2s = try #require(object["c2s"] as? [String: Any])
        #expect(c2s["cmd"] as? [String: Int] == ["1": 1, "3": 2, "9": 1])
        #expect(c2s["cmd_names"] as? [String: String] == ["1": "ping", "3": "msg"])
    }
}
