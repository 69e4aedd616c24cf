import FrameCodec
import Foundation
import TestSupport
import Testing

/// `framedump encode`: every output path (binary, hex lines, synthetic pcap) round-trips through
/// `framedump decode` (and Wireshark for the pcap) for every preset and a spec. The oracle is
/// `FrameEncoder` in this process: the bytes the binary must write.
@Suite struct EncodeEndToEndTests {
    /// A format under test, by its `--format` text.
    struct Case: CustomTestStringConvertible, Sendable {
        var formatText: String
        var testDescription: String { formatText }
        var format: FrameFormat { try! FrameFormat(nameOrSpec: formatText) }
    }

    static let cases = FrameFormat.presets.map { Case(formatText: $0.name) }
        + [Case(formatText: "magic:u32le=0xCAFEBABE seq:u24 len:u16le crc:crc32cle/frame counts=frame")]

    /// Body sizes: empty, one byte, under one MSS, several MSS-sized segments.
    static let bodySizes = [0, 1, 100, 3_000]

    /// The bodies of ``frames(_:)``, in order: one per body size, then a text and a JSON body.
    /// A delimiter format's bodies hold none of its delimiters' first bytes.
    static func bodies(_ format: FrameFormat) -> [[UInt8]] {
        let avoided = Set(format.delimiters.map { $0[0] })
        let sized = bodySizes.enumerated().map { index, size in
            (0..<size).map { position in
                var byte = UInt8(truncatingIfNeeded: position &* 7 &+ index)
                while avoided.contains(byte) { byte &+= 1 }
                return byte
            }
        }
        return sized + [Array("line \"two\" é".utf8), Array(#"{"id":7,"to":["bob"]}"#.utf8)]
    }

    /// The JSON Lines input and the frames it must give: bodies in each body form, and the
    /// format's free value fields (no expected range) set to the frame's number.
    static func frames(_ format: FrameFormat) throws -> (input: String, frames: [[UInt8]]) {
        let encoder = FrameEncoder(format: format)
        let bodies = bodies(format)
        var lines: [String] = []
        var frames: [[UInt8]] = []
        for (index, body) in bodies.prefix(bodySizes.count).enumerated() {
            var fields: [String: UInt64] = [:]
            for field in format.fields where field.role == .value && field.expected == nil {
                fields[field.name] = UInt64(index + 1)
            }
            let fieldsJSON = fields.keys.sorted().map { "\"\($0)\":\(fields[$0]!)" }.joined(separator: ",")
            let hex = body.map { String(format: "%02x", $0) }.joined()
            lines.append("{\"fields\":{\(fieldsJSON)},\"body_hex\":\"\(hex)\"}")
            frames.append(try encoder.encode(fields: fields, body: body))
        }
        lines.append(#"{"body_text":"line \"two\" \u00e9"}"#)
        frames.append(try encoder.encode(body: bodies[bodySizes.count]))
        lines.append(#"{"body_json": {"to":["bob"], "id":7}}"#)
        frames.append(try encoder.encode(body: bodies[bodySizes.count + 1]))
        return (lines.joined(separator: "\n") + "\n", frames)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Runs `decode --json --format F arguments` and returns its objects; the run must be clean.
    static func decodedObjects(_ arguments: [String], input: Data? = nil, format: Case) throws -> [[String: Any]] {
        let decoded = try FrameDumpProcess.run(["decode", "--json", "--format", format.formatText] + arguments, input: input)
        #expect(decoded.status == 0, "\(decoded)")
        return try decoded.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Decodes `hexText` and checks it gives exactly `frames`.
    static func expectDecodes(_ hexText: String, to frames: [[UInt8]], format: Case) throws {
        let objects = try decodedObjects([], input: Data(hexText.utf8), format: format)
        #expect(objects.count == frames.count)
        for (object, body) in zip(objects, bodies(format.format)) {
            #expect(object["type"] as? String == "frame")
            #expect(object["payload_hex"] as? String == hex(body))
        }
    }

    /// Decodes the capture at `path` and checks it gives exactly `frames`, all from the client
    /// to the server of one connection.
    static func expectDecodes(capture path: String, to frames: [[UInt8]], format: Case) throws {
        let objects = try decodedObjects([path], format: format)
        #expect(objects.count == frames.count)
        for (object, body) in zip(objects, bodies(format.format)) {
            #expect(object["conn"] as? Int == 1)
            #expect(object["src"] as? String == "127.0.0.1:50000")
            #expect(object["payload_hex"] as? String == hex(body))
        }
    }

    @Test(arguments: cases)
    func binaryIsTheEncodedFramesAndDecodesBack(_ format: Case) throws {
        let (input, frames) = try Self.frames(format.format)
        let result = try FrameDumpProcess.run(["encode", "--format", format.formatText], input: Data(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect([UInt8](result.stdoutBytes) == frames.flatMap { $0 })
        try Self.expectDecodes(Self.hex(result.stdoutBytes), to: frames, format: format)
    }

    @Test(arguments: cases)
    func hexIsOneLinePerFrameAndDecodesBack(_ format: Case) throws {
        let (input, frames) = try Self.frames(format.format)
        let result = try FrameDumpProcess.run(["encode", "--format", format.formatText, "--output", "hex"], input: Data(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == frames.map { Self.hex($0) + "\n" }.joined())
        try Self.expectDecodes(result.stdout, to: frames, format: format)
    }

    @Test(.requires(.tshark), arguments: cases)
    func pcapCarriesTheFramesForWireshark(_ format: Case) throws {
        let (input, frames) = try Self.frames(format.format)
        try withScratchFile("conversation.pcap") { path in
            let result = try FrameDumpProcess.run(["encode", "-F", format.formatText, "--pcap", path], input: Data(input.utf8))
            #expect(result.status == 0, "\(result)")
            // 3 + 6 data segments of at most 1460 bytes (the 3000-byte body takes 3), each acked, + 3.
            #expect(result.stderr == "framedump encode: 6 frames in 8 data segments, 22 packets written to \(path)\n")
            try expectWiresharkReads(path, stream: frames.flatMap { $0 })
            try Self.expectDecodes(capture: path, to: frames, format: format)
        }
    }

    @Test(.requires(.tshark)) func rawIPv4LinkAndOtherMSSAndPort() throws {
        let (input, frames) = try Self.frames(.h12)
        try withScratchFile("raw.pcap") { path in
            let result = try FrameDumpProcess.run(
                ["encode", "--format", "h12", "--pcap", path, "--link", "raw", "--mss", "536", "--port", "4000"], input: Data(input.utf8))
            #expect(result.status == 0, "\(result)")
            let pcap = try Data(contentsOf: URL(fileURLWithPath: path))
            // Nanosecond pcap, link type LINKTYPE_RAW (101), in host (little-endian) order.
            #expect(pcap.prefix(4) == Data([0x4d, 0x3c, 0xb2, 0xa1]))
            #expect(pcap[pcap.startIndex + 20] == 101)
            try expectWiresharkReads(path, stream: frames.flatMap { $0 }, serverPort: 4000, mss: 536)
        }
    }

    @Test func optionsBuildOneFrame() throws {
        let result = try FrameDumpProcess.run(["encode", "--format", "h12", "--field", "cmd=3", "--field", "ver=0x01", "--body-text", "hello", "-o", "hex"])
        #expect(result.stdout == Self.hex(try FrameEncoder(format: .h12).encode(fields: ["cmd": 3, "ver": 1], body: Array("hello".utf8))) + "\n")
        // As body_json: written compactly, keys sorted.
        let json = try FrameDumpProcess.run(["encode", "--format", "u16", "--body-json", #"{"b": 1, "a": [1, 2]}"#, "-o", "hex"])
        #expect(json.stdout == "0011" + Self.hex(#"{"a":[1,2],"b":1}"#.utf8) + "\n")
        let bytes = try FrameDumpProcess.run(["encode", "--format", "u16", "--body-hex", "00 ff10"])
        #expect([UInt8](bytes.stdoutBytes) == [0x00, 0x03, 0x00, 0xFF, 0x10])
    }

    @Test func badLinesSayWhereAndWhat() throws {
        let cases: [(input: String, stderr: String)] = [
            ("{\"body_text\":\"ok\"}\n{\"fields\":{\"cmd\":3},\"bdy_hex\":\"00\"}\n",
             "<stdin>:2: unknown key 'bdy_hex'; expected fields, body_hex, body_text or body_json\n"),
            ("\n{\"body_hex\":\"0g\"}\n", "<stdin>:2: expected a hex digit in \"body_hex\" at character 2\n"),
            ("{\"fields\":{\"cmd\":300}}\n", "<stdin>:1: cannot encode: value 300 does not fit in the 1-byte field 'cmd'\n"),
            ("{\"fields\":{\"cmd\":-1}}\n", "<stdin>:1: expected field 'cmd' to be a non-negative integer, found -1\n"),
            ("{\"body_text\":\"a\",\"body_hex\":\"00\"}\n", "<stdin>:1: expected one body key, found body_hex and body_text\n"),
            ("[1]\n", "<stdin>:1: expected a JSON object, e.g. {\"fields\":{\"cmd\":1},\"body_hex\":\"00ff\"}\n"),
        ]
        for (input, stderr) in cases {
            let result = try FrameDumpProcess.run(["encode", "--format", "h12", "-o", "hex"], input: Data(input.utf8))
            #expect(result.stderr == stderr)
            #expect(result.status == 2)
        }
        // The frames before the bad line are written.
        let partial = try FrameDumpProcess.run(["encode", "--format", "u16", "-o", "hex"], input: Data("{\"body_hex\":\"01\"}\n{\"x\":1}\n".utf8))
        #expect(partial.stdout == "000101\n")
    }

    @Test func usageErrors() throws {
        let cases: [(arguments: [String], message: String)] = [
            (["encode"], "framedump encode: --format is required: encode cannot guess a layout (presets: fefd, h12, u16, u32, tls, varint, lines, mqtt; or websocket)"),
            (["encode", "--format", "h12", "--body-text", "a", "--body-hex", "00"], "framedump encode: give one body: --body-hex and --body-text were both given"),
            (["encode", "--format", "h12", "--field", "cmd"], "framedump encode: --field 'cmd': expected NAME=VALUE, e.g. --field cmd=3"),
            (["encode", "--format", "h12", "--field", "nope=1", "--body-text", "a"], "framedump encode: cannot encode: the format has no field named 'nope'"),
            (["encode", "--format", "h12", "--pcap", "x.pcap", "-o", "hex"], "framedump encode: --output and --pcap both choose the output; give one"),
            (["encode", "--format", "h12", "--mss", "100"], "framedump encode: --mss applies only to --pcap FILE"),
            (["encode", "--format", "h12", "--pcap", "/nonexistent/x.pcap", "--mss", "0"], "framedump encode: --mss '0': expected 1...65495 bytes"),
            (["encode", "--format", "h12", "--body-json", "{a}"], "framedump encode: --body-json: expected a JSON value (column 2: expected a string key or '}', found 'a')"),
            (["encode", "--format", "h12", "--body-text", "a", "in.jsonl"], "framedump encode: 'in.jsonl': give frames either as JSON Lines input or with --field/--body-* options, not both"),
        ]
        for (arguments, message) in cases {
            let result = try FrameDumpProcess.run(arguments)
            #expect(result.stderr == message + "\nRun 'framedump encode --help' for usage.\n")
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
        }
    }

    @Test(.requires(.script)) func binaryIsRefusedOnATerminal() throws {
        // script(1) gives the command a pseudo-terminal as standard output.
        let command = "'\(FrameDumpProcess.binary.path)' encode -F u16 --body-text hi; echo \"status $?\""
        let output = try ExternalProgram.run("script", ["-qec", command, "/dev/null"]).stdout
        #expect(output.contains("refusing to write binary frames to a terminal"))
        #expect(output.contains("status 1"))
    }

    /// Reads `path` with tshark (checksums verified): no expert warnings or errors (malformed
    /// packets, bad checksums, broken sequence numbers), and the client's stream as Follow TCP
    /// Stream shows it equals `stream`. Tests that call it need `.requires(.tshark)`.
    private func expectWiresharkReads(_ path: String, stream: [UInt8], serverPort: Int = 7777, mss: Int = 1460) throws {
        let (output, status) = try ExternalProgram.run("tshark", ["-r", path, "-q", "-o", "tcp.check_checksum:TRUE", "-o", "ip.check_checksum:TRUE",
                                                                  "-z", "expert,warn", "-z", "follow,tcp,raw,0"])
        #expect(status == 0)
        #expect(!output.contains("Errors (") && !output.contains("Warns ("), "\(output)")
        #expect(output.contains("Node 1: 127.0.0.1:\(serverPort)"))
        // Follow output: one hex line per segment, server data indented with a tab (none here).
        let lines = output.split(separator: "\n").filter { line in line.allSatisfy(\.isHexDigit) && !line.isEmpty }
        #expect(lines.joined() == Self.hex(stream))
        #expect(lines.allSatisfy { $0.count <= 2 * mss })
    }

    private func withScratchFile(_ name: String, _ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-encode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.appendingPathComponent(name).path)
    }
}
