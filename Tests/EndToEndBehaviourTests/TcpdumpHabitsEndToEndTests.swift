import Foundation
import Testing
import TestSupport

/// What a tcpdump or tshark user types first: `-r FILE`, `-c N`, `-f` for a filter (and `-F`
/// for `--format` wherever a command has one), and one input per run.
@Suite struct TcpdumpHabitsEndToEndTests {
    static let conversation = "Fixtures/captures/h12-conversation.pcap"

    @Test(arguments: [
        (["decode", "-r", conversation], ["decode", conversation]),
        (["decode", "-r", conversation, "tcp", "port", "17001"], ["decode", conversation, "tcp", "port", "17001"]),
        (["decode", "--json", "--read=\(conversation)", "-f", "tcp"], ["decode", "--json", conversation, "tcp"]),
        (["streams", "-r", conversation], ["streams", conversation]),
        (["streams", "-r", conversation, "tcp", "port", "1"], ["streams", conversation, "tcp", "port", "1"]),
    ])
    func readOptionIsTheSameAsThePositional(_ withOption: [String], _ withPositional: [String]) throws {
        let expected = try FrameDumpProcess.run(withPositional)
        #expect(!expected.stdout.isEmpty)
        #expect(try FrameDumpProcess.run(withOption) == expected)
    }

    @Test func streamsWithoutAnInputIsAUsageError() throws {
        let result = try FrameDumpProcess.run(["streams"])
        #expect(result.status == 1)
        #expect(result.stderr == "framedump streams: missing argument FILE|- (or -r FILE): the capture to read\nRun 'framedump streams --help' for usage.\n")
    }

    /// A second input is refused, whether it is a file that exists, a name that looks like one,
    /// or standard input; filter words keep working.
    @Test(arguments: [
        (["decode", "a.pcap", "b.pcap"], "decode", "got 'a.pcap' and 'b.pcap' (merge captures first: mergecap -w merged.pcap a.pcap b.pcap; "),
        (["decode", conversation, "Fixtures/captures/h12-conversation.summary.json"], "decode",
         "got '\(conversation)' and 'Fixtures/captures/h12-conversation.summary.json' (merge captures first: "),
        (["decode", "-r", conversation, "tcp", "other.PCAPNG"], "decode", "got '\(conversation)' and 'other.PCAPNG' ("),
        (["decode", "-r", conversation, "-"], "decode", "got '\(conversation)' and '-' ("),
        (["decode", conversation, "dump.txt"], "decode", "got '\(conversation)' and 'dump.txt' (a filter word"),
        (["streams", conversation, "b.cap"], "streams", "got '\(conversation)' and 'b.cap' (merge captures first: "),
        (["streams", "-r", conversation, conversation], "streams", "got '\(conversation)' and '\(conversation)' ("),
    ])
    func aSecondInputIsRefused(_ arguments: [String], _ command: String, _ detail: String) throws {
        let result = try FrameDumpProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("framedump \(command): one input only: \(detail)"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("a filter word that names a file goes in -f EXPR)\nRun 'framedump \(command) --help' for usage.\n"))
    }

    @Test func filterWordsStillWork() throws {
        // Every packet of the conversation is on port 17001, and none on port 1.
        let all = try FrameDumpProcess.run(["decode", "--json", Self.conversation])
        #expect(try FrameDumpProcess.run(["decode", "--json", Self.conversation, "tcp", "port", "17001"]) == all)
        let none = try FrameDumpProcess.run(["decode", "--json", Self.conversation, "tcp", "port", "1"])
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("no TCP segments in \(Self.conversation) (0 packets matched the filter: tcp port 1)"), "\(none.stderr)")
    }

    /// `-c N` ends the run after the Nth frame; the status is that of what was decoded, so damage
    /// after the last frame shown does not count.
    /// (input, N, the lines of the full output that are shown, exit status); h12-reset.pcap
    /// holds two frames and then a truncated one.
    @Test(arguments: [
        ("Fixtures/hex/h12-xxd.hex", 1, 1, 0),
        ("Fixtures/hex/h12-xxd.hex", 2, 3, 2),
        ("Fixtures/captures/h12-reset.pcap", 2, 2, 0),
        ("Fixtures/captures/h12-reset.pcap", 3, 3, 2),
        (conversation, 5, 5, 0),
    ])
    func countStopsAfterNFrames(_ path: String, _ count: Int, _ lines: Int, _ status: Int32) throws {
        let full = try FrameDumpProcess.run(["decode", "--json", path])
        let result = try FrameDumpProcess.run(["decode", "--json", "-c", String(count), path])
        #expect(result.status == status, "\(result)")
        let expected = full.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(lines)
        #expect(result.stdout == expected.joined(separator: "\n") + "\n")
    }

    @Test func countInTextSaysHowManyFramesWereShown() throws {
        let result = try FrameDumpProcess.run(["decode", "--count=2", "--payload", "none", Self.conversation])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("\n2 frames\n"), "\(result.stdout)")
    }

    @Test(arguments: ["0", "-3", "two"])
    func countMustBePositive(_ value: String) throws {
        let result = try FrameDumpProcess.run(["decode", "-c", value, Self.conversation])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("framedump decode: --count '\(value)': expected a whole number of 1 or more\n"))
    }

    /// `-F` is `--format` in every command that has one; `-f` (once `--format` in encode and
    /// fuzz) is refused there with a pointer to `-F`.
    @Test func capitalFIsFormatEverywhere() throws {
        let long = try FrameDumpProcess.run(["decode", "--format", "h12", "Fixtures/hex/h12-plain.hex"])
        #expect(try FrameDumpProcess.run(["decode", "-F", "h12", "Fixtures/hex/h12-plain.hex"]) == long)
        let encoded = try FrameDumpProcess.run(["encode", "-F", "h12", "--body-text", "hi", "-o", "hex"])
        #expect(encoded.stdout == "55aa000000000002d8932aac6869\n", "\(encoded)")
        for command in ["encode", "fuzz"] {
            let old = try FrameDumpProcess.run([command, "-f", "h12"])
            #expect(old.status == 1)
            #expect(old.stderr.hasPrefix("framedump \(command): unknown option '-f' (did you mean '-F' (--format)?)\n"), "\(old.stderr)")
        }
        for command in ["decode", "capture", "listen", "connect", "proxy", "encode", "fuzz"] {
            let help = try FrameDumpProcess.run([command, "--help"]).stdout
            #expect(help.contains("  -F, --format "), "\(command)")
        }
    }
}
