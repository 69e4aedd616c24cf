import TestSupport
import Testing

/// The program's help and `formats`, run through the binary, against the goldens in Fixtures/cli.
@Suite struct CommandLineGoldenTests {
    static let goldens = "Fixtures/cli"

    @Test(arguments: [
        (["--help"], "help.txt"),
        (["help"], "help.txt"),
        (["decode", "--help"], "decode-help.txt"),
        (["help", "decode"], "decode-help.txt"),
        (["encode", "--help"], "encode-help.txt"),
        (["capture", "--help"], "capture-help.txt"),
        (["formats"], "formats.txt"),
    ])
    func helpAndFormatsMatchTheirGoldens(_ arguments: [String], _ golden: String) throws {
        let result = try FrameDumpProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        try GoldenFile.check(result.stdout, against: "\(Self.goldens)/\(golden)")
    }
}
