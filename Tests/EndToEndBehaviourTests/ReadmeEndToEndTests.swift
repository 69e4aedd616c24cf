import Foundation
import TestSupport
import Testing

/// README's "Set up and run": command 1 runs the main job on a bundled capture, in one line that
/// works on a fresh machine with only the Swift toolchain; command 2 is the test suite, which
/// `.ci/run` runs exactly.
@Suite struct ReadmeEndToEndTests {
    /// The code blocks of README's "Set up and run" section, in order.
    private func setUpCommands() throws -> [String] {
        let readme = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Set up and run").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        return section.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }
            .map { $0.element.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test func firstCommandDecodesABundledCapture() throws {
        let commands = try setUpCommands()
        let first = try #require(commands.first)
        #expect(!first.contains("\n"), "a single command")
        // libssl-dev: the libcrypto headers CCrypto reads (TLSDecryption loads the library when first
        // used); zlib1g-dev: FrameDumpCLI links zlib (CZlib, for permessage-deflate).
        #expect(first.hasPrefix("apt-get update && apt-get install -y libpcap-dev libssl-dev zlib1g-dev pkg-config && swift run framedump decode "))
        let arguments = try #require(first.components(separatedBy: "swift run framedump ").last).split(separator: " ").map(String.init)
        let file = try #require(arguments.last)
        #expect(file.hasPrefix("Fixtures/captures/") && file.hasSuffix(".pcap"), "\(file)")
        let result = try FrameDumpProcess.run(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("frame  offset 0"))
        // What README says the command ends with.
        #expect(result.stdout.hasSuffix("\n14 frames\n"), "\(result.stdout.suffix(200))")
        #expect(result.stdout.components(separatedBy: "  crc ok").count - 1 == 14)
    }

    @Test func secondCommandIsTheTestSuiteThatCIRuns() throws {
        let commands = try setUpCommands()
        #expect(commands.count >= 2)
        #expect(commands.dropFirst().first == "scripts/test")
        let ci = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.split(separator: "\n").contains("scripts/test"))
    }
}
