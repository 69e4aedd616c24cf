import Foundation
import TestSupport
import Testing

/// `framedump decode` on captures: inputs (pcapng, standard input, truncated and unreadable
/// files), filters, link types and format choice. Its output on every capture fixture against
/// the goldens is `CaptureDecodeGoldenTests`.
@Suite struct CaptureDecodeEndToEndTests {
    @Test func pcapngDecodesLikeItsPcapCopy() throws {
        let pcap = try FrameDumpProcess.run(["decode", "--json", "Fixtures/captures/h12-conversation.pcap"])
        let pcapng = try FrameDumpProcess.run(["decode", "--json", "Fixtures/captures/h12-conversation.pcapng"])
        #expect(pcapng == pcap)
    }

    /// A filter that keeps no TCP segment is not an error, but `0 frames` alone would not say why.
    @Test func aFilterThatKeepsNoSegmentIsNoted() throws {
        let path = "Fixtures/captures/h12-conversation.pcap"
        let result = try FrameDumpProcess.run(["decode", path, "tcp", "port", "1"])
        #expect(result.status == 0)
        #expect(result.stdout == "0 frames\n")
        #expect(result.stderr == "framedump decode: no TCP segments in \(path) (0 packets matched the filter: tcp port 1)\n")
        let matching = try FrameDumpProcess.run(["decode", path])
        #expect(!matching.stderr.contains("no TCP segments"), "\(matching.stderr)")
    }

    @Test func standardInputIsReadAsACapture() throws {
        let path = "Fixtures/captures/h12-concurrent.pcap"
        let fromFile = try FrameDumpProcess.run(["decode", "--json", path])
        let data = try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(path))
        for arguments in [["decode", "--json", "-"], ["decode", "--json"]] {
            #expect(try FrameDumpProcess.run(arguments, input: data) == fromFile)
        }
    }

    @Test func filterAsTrailingWordsQuotedOrOption() throws {
        let path = "Fixtures/captures/h12-concurrent.pcap"
        let all = try JSONLines.parse(FrameDumpProcess.run(["decode", "--json", path]).stdout)
        let port = try #require(JSONLines.port(all.first?["src"]))
        let expected = all.filter { JSONLines.port($0["src"]) == port || JSONLines.port($0["dst"]) == port }
        #expect(expected.count == 10 && expected.count < all.count)
        for arguments in [[path, "tcp", "port", "\(port)"], [path, "tcp port \(port)"], ["-f", "tcp port \(port)", path],
                          ["--filter=tcp", path, "port", "\(port)"]] {
            let result = try FrameDumpProcess.run(["decode", "--json"] + arguments)
            let lines = try JSONLines.parse(result.stdout)
            #expect(lines.map { $0["offset"] as? Int } == expected.map { $0["offset"] as? Int }, "\(arguments)")
            #expect(lines.allSatisfy { $0["conn"] as? Int == 1 }, "connections are numbered among the packets kept")
            #expect(result.status == 0)
        }
    }

    @Test func badFilterPrintsLibpcapsMessageAndExitsOne() throws {
        let result = try FrameDumpProcess.run(["decode", "Fixtures/captures/hb-gap.pcap", "tcp", "port"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "framedump: invalid filter 'tcp port': can't parse filter expression: syntax error\n")
    }

    @Test func filterOnHexInputIsAUsageError() throws {
        let result = try FrameDumpProcess.run(["decode", "Fixtures/hex/h12-plain.hex", "tcp"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("framedump decode: unexpected argument 'tcp': a filter applies only to a capture"))
    }

    @Test func unsupportedLinkTypeIsOneWarning() throws {
        // A pcap file (little endian, µs) of link type 147 (USER0) with three packets.
        var bytes: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0] + [UInt8](repeating: 0, count: 8)
        bytes += [0xFF, 0xFF, 0, 0, 147, 0, 0, 0]
        for _ in 0..<3 { bytes += [1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xEF] }
        let result = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", "-"], input: Data(bytes))
        #expect(result.stdout.isEmpty)
        #expect(result.status == 2)
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.hasPrefix("framedump: <stdin>: link type 147 is not supported; its packets are skipped") == true,
                "\(result.stderr)")
    }

    @Test func unreadableCaptureNamesItsPathOnce() throws {
        // A pcap magic, then the file ends inside its 24-byte header.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-short-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0]).write(to: URL(fileURLWithPath: path))
        for command in ["decode", "streams"] {
            let result = try FrameDumpProcess.run([command, path])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("framedump: cannot read capture \(path): truncated dump file"), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: path).count == 2, "the path once: \(result.stderr)")
        }
    }

    /// A file named as a capture that does not begin with a capture's magic (empty: a tcpdump
    /// killed before it wrote its header; cut inside the magic; text) is a capture that cannot be
    /// read, exit 2, not an empty hex dump that exits 0.
    @Test(arguments: [("empty.pcap", [UInt8]()), ("cut.PCAPNG", [0x0A, 0x0D]), ("text.cap", Array("55 aa 01\n".utf8))])
    func aCaptureNamedFileThatIsNotOneIsUnreadable(_ name: String, _ bytes: [UInt8]) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-\(UUID().uuidString)-\(name)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for command in ["decode", "streams"] {
            let result = try FrameDumpProcess.run([command, path])
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("framedump: cannot read capture \(path): "), "\(result.stderr)")
            #expect(!result.stderr.contains("hex"), "\(result.stderr)")
        }
    }

    /// A pcapng cut inside its first block type, `0A 0D 0D` (blank text to a hex dump), read
    /// from a pipe: a capture that cannot be read, exit 2, as the same bytes in a `.pcapng` file;
    /// a lone line feed (`echo |`) is still an empty hex dump.
    @Test(arguments: [[UInt8]([0x0A, 0x0D]), [0x0A, 0x0D, 0x0D]])
    func aPcapngCutInsideItsMagicOnStandardInputIsUnreadable(_ bytes: [UInt8]) throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "-"], input: Data(bytes))
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("framedump: cannot read capture <stdin>: truncated dump file"), "\(result.stderr)")
        let newline = try FrameDumpProcess.run(["decode", "-"], input: Data([0x0A]))
        #expect(newline.status == 0 && newline.stderr == "framedump decode: <stdin> holds no hex bytes\n", "\(newline.stderr)")
    }

    @Test func truncatedCaptureKeepsWhatWasReadAndExitsTwo() throws {
        let data = try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/captures/h12-conversation.pcap"))
        let result = try FrameDumpProcess.run(["decode", "--json", "-"], input: data.prefix(data.count - 10))
        #expect(result.status == 2)
        #expect(!result.stdout.isEmpty)
        #expect(result.stderr.contains("truncated dump file"), "\(result.stderr)")
        #expect(result.stderr.contains("; reading stopped at byte \(data.count - 10) (decoded the "), "\(result.stderr)")
    }

    /// A capture cut short whose one stream fits no preset (its first payload byte, 0x55 of
    /// h12's magic, zeroed): the usage error comes after the read error, which says where
    /// reading stopped, from a file and from standard input alike.
    @Test func aCutCaptureThatFitsNoPresetStillReportsItsReadError() throws {
        var bytes = [UInt8](try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/captures/h12-conversation.pcap")).prefix(400))
        #expect(bytes[368] == 0x55)
        bytes[368] = 0
        let path = try CaptureBytes.temporaryFile(bytes)
        for (arguments, input) in [(["decode", path], nil), (["decode", "-"], Data(bytes))] {
            let result = try FrameDumpProcess.run(arguments, input: input)
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.first?.contains("truncated dump file") == true, "\(result.stderr)")
            #expect(lines.first?.contains("; reading stopped at byte 400 (read the 4 packets before it)") == true, "\(result.stderr)")
            #expect(lines.dropFirst().first?.hasPrefix("framedump decode: no preset format fits the first bytes of any stream") == true, "\(result.stderr)")
            #expect(lines.dropFirst().first?.hasSuffix(": 00 aa 01 01 00 00 00 08 ...)") == true, "\(result.stderr)")
        }
    }

    @Test func givenFormatDecodesAStreamThatFitsNoPreset() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", "Fixtures/captures/hb-midstream.pcap"])
        #expect(result.stderr.isEmpty)
        let golden = try CaptureFixture(file: "hb-midstream.pcap").expectedLines()
        let lines = try JSONLines.parse(result.stdout)
        #expect(lines.count == golden.count)
        #expect(lines.first?["type"] as? String == "skip", "given a format, frames print in capture order: the client's skip first")
    }

    @Test func noPresetFitsAnyStreamIsAUsageError() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-u16-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let encoded = try FrameDumpProcess.run(["encode", "--format", "u16", "--body-text", "hello", "--pcap", scratch])
        try #require(encoded.status == 0, "\(encoded)")
        let result = try FrameDumpProcess.run(["decode", scratch])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("""
            framedump decode: no preset format fits the first bytes of any stream \
            (first: conn 1 c2s 127.0.0.1:50000 → 127.0.0.1:7777: 00 05 68 65 6c 6c 6f)
            Choose one with --format NAME|SPEC;
            """), "\(result.stderr)")
        let given = try FrameDumpProcess.run(["decode", "--json", "--format", "u16", scratch])
        #expect(given.status == 0)
        #expect(try JSONLines.parse(given.stdout).map { $0["payload_hex"] as? String } == ["68656c6c6f"])
    }

    /// `--summary --json`: one line per connection whose counts agree with the frames printed.
    @Test func jsonSummaryCountsTheFramesPrinted() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--summary", "--payload", "none", "Fixtures/captures/hb-gap.pcap"])
        let lines = try JSONLines.parse(result.stdout)
        let summaries = lines.filter { $0["type"] as? String == "summary" }
        #expect(summaries.count == 1)
        let c2s = try #require(summaries.first?["c2s"] as? [String: Any])
        #expect(c2s["format"] as? String == "h12")
        #expect(c2s["frames"] as? Int == 3)
        #expect(c2s["gaps"] as? Int == 1 && c2s["gap_bytes"] as? Int == 65)
        #expect(c2s["cmd"] as? [String: Int] == ["3": 3])
        let s2c = try #require(summaries.first?["s2c"] as? [String: Any])
        #expect(s2c["frames"] as? Int == 5 && s2c["bytes"] as? Int == 80 && s2c["crc_errors"] as? Int == 0)
        #expect(!lines.contains { $0["payload_hex"] != nil })
    }
}
