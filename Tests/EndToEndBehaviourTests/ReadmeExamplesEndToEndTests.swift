import Foundation
import Testing
import TestSupport

/// README's "Examples": every `decode` line that reads a bundled file runs as written, and what
/// README says about the sample h12 dumps (which are damaged on purpose) is what decoding them gives.
@Suite struct ReadmeExamplesEndToEndTests {
    /// README's "Examples" section, up to the next `## ` heading.
    private func examples() throws -> String {
        let readme = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return try #require(readme.components(separatedBy: "## Examples").dropFirst().first).components(separatedBy: "\n## ")[0]
    }

    @Test func decodeLinesOnBundledFilesRun() throws {
        let lines = try examples().split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("swift run framedump decode ") && $0.contains("Fixtures/") && !$0.contains("|") }
        #expect(lines.count >= 7)
        for line in lines {
            let (command, comment) = line.firstRange(of: "  # ").map { (String(line[..<$0.lowerBound]), String(line[$0.upperBound...])) } ?? (line, "")
            // The line as a shell runs it, with the built binary for `swift run framedump`.
            let script = "cd '\(FrameDumpProcess.packageRoot.path)' && "
                + command.replacingOccurrences(of: "swift run framedump", with: "'\(FrameDumpProcess.binary.path)'")
                + " >/dev/null 2>&1; echo $?"
            let status = try ExternalProgram.run("/bin/bash", ["-c", script]).stdout
            // Not a usage error; a damaged input exits 2, which the line's comment may say.
            #expect(comment.contains("exit status 2") ? status == "2\n" : status == "0\n" || status == "2\n", "\(line): exit \(status)")
        }
    }

    @Test(arguments: [
        ("h12-xxd.hex", "5 frames (1 crc MISMATCH); 22 bytes skipped; 1 oversize header; 32 bytes truncated\n", Int32(2)),
        ("h12-hexdump-C.hex", "5 frames (1 crc MISMATCH); 22 bytes skipped; 1 oversize header; 32 bytes truncated\n", 2),
        ("h12-plain.hex", "7 frames\n", 0),
        ("h12-plain-spaced.hex", "7 frames\n", 0),
        ("h12-several-dumps.hex", "7 frames\n", 0),
    ])
    func sampleDumpsAreAsReadmeSays(_ file: String, _ totals: String, _ status: Int32) throws {
        let text = try examples()
        let damaged = try #require(text.components(separatedBy: "**damaged on purpose**").first)
        let clean = try #require(text.components(separatedBy: "exits with status 2.").dropFirst().first?.components(separatedBy: "(status 0)").first)
        #expect((status == 2 ? damaged : clean).contains("`\(file)`"), "README names \(file) among the \(status == 2 ? "damaged" : "clean") dumps")
        let result = try FrameDumpProcess.run(["decode", "Fixtures/hex/\(file)"])
        #expect(result.status == status)
        #expect(result.stdout.hasSuffix("\n\n" + totals))
    }
}
