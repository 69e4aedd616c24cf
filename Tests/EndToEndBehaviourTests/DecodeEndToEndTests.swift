import Foundation
import TestSupport
import Testing

/// `framedump decode` on hex dumps: standard input, the options that change how the same frames
/// are shown, spec and file errors, pipes. Every hex fixture against the expected files beside
/// it is `HexDecodeGoldenTests`.
@Suite struct DecodeEndToEndTests {
    @Test func standardInputIsTheSameStream() throws {
        let fixture = HexFixture(name: "h12-xxd")
        let fromFile = try FrameDumpProcess.run(["decode", "--json", fixture.path])
        for arguments in [["decode", "--json", "-"], ["decode", "--json"]] {
            let fromStdin = try FrameDumpProcess.run(arguments, input: try fixture.contents())
            #expect(fromStdin == fromFile)
        }
    }

    @Test func hexErrorsOnStandardInputSayStdin() throws {
        let result = try FrameDumpProcess.run(["decode"], input: try HexFixture(name: "bad-hex").contents())
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("<stdin>:2:5: expected "))
    }

    @Test func payloadNoneDropsOnlyPayloadHex() throws {
        let fixture = HexFixture(name: "h12-xxd")
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", fixture.path])
        let expected = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(fixture.expectedPath("jsonl")), encoding: .utf8)
        let withoutPayload = expected.replacingOccurrences(of: #","payload_hex":"[0-9a-f]*""#, with: "", options: .regularExpression)
        #expect(result.stdout == withoutPayload)
        #expect(result.status == 2)
    }

    @Test func frameLengthAccountsForFramesWhoseStripPassesTheirEnd() throws {
        // len:u8 then a 1-byte body: a 2-byte frame whose payload (from byte 10) is empty.
        let result = try FrameDumpProcess.run(["decode", "--format", "len:u8 ; strip=10", "--json", "-"], input: Data("016162\n".utf8))
        #expect(result.stdout == """
        {"type":"frame","offset":0,"length":0,"fields":{"len":1},"payload_hex":"","frame_length":2}
        {"type":"truncated","offset":2,"length":1}

        """)
        #expect(result.status == 2)
    }

    @Test func payloadNoneInTextKeepsHeadingsOnly() throws {
        let result = try FrameDumpProcess.run(["decode", "--payload", "none", "--color", "never", "Fixtures/hex/fefd-nsdata.hex"])
        #expect(result.stdout == "frame  offset 0  body 249 bytes  magic=0xfefd len=249\n\n1 frame\n")
        #expect(result.status == 0)
    }

    @Test func givenFormatIsNotAnnounced() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--format", "fefd", "Fixtures/hex/fefd-nsdata.hex"])
        #expect(result.stderr.isEmpty)
        #expect(result.status == 0)
    }

    @Test func specEqualToAPresetDecodesTheSame() throws {
        let fixture = HexFixture(name: "h12-hexdump-C")
        let preset = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", fixture.path])
        let spec = try FrameDumpProcess.run(["decode", "--json", "--format", "magic:u16=0x55AA ver:u8 cmd:u8{1=ping,2=pong,3=msg,4=ack} len:u32 crc:crc32", fixture.path])
        #expect(spec.stdout == preset.stdout)
        #expect(spec.status == 2)
    }

    @Test func badSpecPointsAtTheColumn() throws {
        let result = try FrameDumpProcess.run(["decode", "--format", "len:u16 crc:crc99", "Fixtures/hex/fefd-nsdata.hex"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("framedump decode: invalid --format at column "))
        #expect(result.stderr.contains("\n  len:u16 crc:crc99\n  "))
    }

    @Test func mistypedPresetGetsASuggestion() throws {
        let result = try FrameDumpProcess.run(["decode", "--format", "h13", "Fixtures/hex/h12-plain.hex"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("(did you mean 'h12'?)"))
    }

    @Test func unreadableFileExitsTwo() throws {
        let result = try FrameDumpProcess.run(["decode", "Fixtures/hex/no-such-file.hex"])
        #expect(result == .init(stdout: "", stderr: "framedump: cannot read Fixtures/hex/no-such-file.hex: No such file or directory\n", status: 2))
    }

    @Test func colourOnlyWhenAskedAndNeverWithNoColor() throws {
        let path = "Fixtures/hex/h12-xxd.hex"
        let escape = "\u{1B}["
        #expect(try !FrameDumpProcess.run(["decode", path]).stdout.contains(escape), "auto: stdout is a file, not a terminal")
        #expect(try FrameDumpProcess.run(["decode", "--color", "always", path]).stdout.contains(escape))
        #expect(try !FrameDumpProcess.run(["decode", "--color", "always", path], environment: ["NO_COLOR": "1"]).stdout.contains(escape))
    }

    /// A capture or a hex dump named by a path that cannot be reopened — a process substitution,
    /// `/dev/stdin`, a FIFO — is read once, its first bytes replayed, like `decode -`; binary
    /// input given as a hex dump is refused at its first NUL byte instead of read whole.
    @Test func pipesNamedByAPathAreReadOnce() throws {
        let capture = "Fixtures/captures/h12-conversation.pcap", hex = "Fixtures/hex/h12-xxd.hex"
        let direct = try FrameDumpProcess.run(["decode", "--json", capture]).stdout
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-fifo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let script = #"""
            b="$0"; capture="$1"; hex="$2"; fifo="$3"
            "$b" decode --json <(cat "$capture"); echo "status $?"
            cat "$capture" | "$b" decode --json /dev/stdin; echo "status $?"
            mkfifo "$fifo"; (cat "$capture" > "$fifo" &); timeout 10 "$b" decode --json "$fifo"; echo "status $?"
            "$b" streams <(cat "$capture") | head -n 1; echo "status ${PIPESTATUS[0]}"
            "$b" decode --format h12 <(cat "$hex") | head -n 1
            timeout 10 "$b" decode /dev/zero 2>&1; echo "status $?"
            """#
        let output = try ExternalProgram.run("/bin/bash", ["-c", script, FrameDumpProcess.binary.path, capture, hex, fifo]).stdout
        let expected = [String](repeating: direct + "status 0\n", count: 3).joined()
            + "conn 1  127.0.0.1:53994 → 127.0.0.1:17001  closed-fin  roles from syn\nstatus 0\n"
            + "frame  offset 0  body 8 bytes  magic=0x55aa ver=1 cmd=ping(1) len=8 crc=0x9b839ee5  crc ok\n"
            + "/dev/zero:1:1: expected a hex digit or a space, got '\\u{0}'\nstatus 2\n"
        #expect(output == expected)
    }

    /// `framedump decode big | head -n 1` must end quietly: no message, no death by SIGPIPE.
    @Test func closedPipeEndsQuietly() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-pipe-\(UUID().uuidString).hex")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // 40 000 fefd frames with a 2-byte body: ~3 MB of JSON Lines, far more than a pipe holds.
        try String(repeating: "fefd00026869", count: 40_000).write(to: scratch, atomically: true, encoding: .utf8)
        let script = #""$0" decode --json --format fefd "$1" 2>"$1.err" | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"; cat "$1.err"; rm -f "$1.err""#
        let text = try ExternalProgram.run("/bin/bash", ["-c", script, FrameDumpProcess.binary.path, scratch.path]).stdout
        #expect(text == "0\n", "framedump's exit status, then its stderr")
    }

    /// The same on a capture, whose decoding reads ahead on a second thread: the first closed
    /// write stops both threads (exit 0, nothing on stderr), and a full disk is reported once.
    /// Swift 6.3.1 once lost that error inside the hand-off (`CaptureEventBatch.forEach`): the
    /// decode went on to the end and crashed, exit 2 with a backtrace.
    @Test func closedPipeOnACaptureEndsQuietly() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-pipe-\(UUID().uuidString).pcap")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // 30,000 h12 frames with 100-byte bodies: 3.5 MB of capture, ~7 MB of JSON Lines.
        let line = #"{"fields":{"cmd":7},"body_hex":"\#(String(repeating: "ab", count: 100))"}"# + "\n"
        let encoded = try FrameDumpProcess.run(["encode", "--format", "h12", "--pcap", scratch.path],
                                               input: Data(String(repeating: line, count: 30_000).utf8))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let script = #""$0" decode --json --format h12 "$1" 2>"$1.err" | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}"; cat "$1.err"; rm -f "$1.err""#
        for _ in 0..<5 {
            let text = try ExternalProgram.run("/bin/bash", ["-c", script, FrameDumpProcess.binary.path, scratch.path]).stdout
            #expect(text == "0\n", "framedump's exit status, then its stderr")
        }
        let full = #""$0" decode --json --format h12 "$1" 2>&1 >/dev/full; echo "status $?""#
        let text = try ExternalProgram.run("/bin/bash", ["-c", full, FrameDumpProcess.binary.path, scratch.path]).stdout
        #expect(text == "framedump decode: cannot write output: No space left on device\nstatus 2\n")
    }
}
