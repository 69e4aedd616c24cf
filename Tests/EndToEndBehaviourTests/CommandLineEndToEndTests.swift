import Foundation
import TestSupport
import Testing

/// The program's surface run through the binary: version and usage errors. Help and `formats`
/// against their goldens are `CommandLineGoldenTests`.
@Suite struct CommandLineEndToEndTests {
    @Test func version() throws {
        let result = try FrameDumpProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.wholeMatch(of: /framedump \d+\.\d+\.\d+\n/) != nil, "\(result.stdout)")
    }

    @Test(arguments: [
        (["decode", "--jsn"], "framedump decode: unknown option '--jsn' (did you mean '--json'?)\nRun 'framedump decode --help' for usage.\n"),
        (["decode", "--format"], "framedump decode: option '--format' needs a value (NAME|SPEC)\nRun 'framedump decode --help' for usage.\n"),
        (["decode", "a.hex", "b.hex"], "framedump decode: one input only: got 'a.hex' and 'b.hex' (a filter word that names a file goes in -f EXPR)\nRun 'framedump decode --help' for usage.\n"),
        (["decode", "--color", "sometimes"], "framedump decode: invalid value 'sometimes' for '--color'; expected auto, always or never\nRun 'framedump decode --help' for usage.\n"),
        (["formats", "extra"], "framedump formats: unexpected argument 'extra' (this command takes no arguments)\nRun 'framedump formats --help' for usage.\n"),
        (["decod"], "framedump: unknown command 'decod' (did you mean 'decode'?)\nRun 'framedump --help' for the commands.\n"),
        (["--verison"], "framedump: unknown option '--verison' (did you mean '--version'?)\nRun 'framedump --help' for the commands.\n"),
        ([], "usage: framedump COMMAND [OPTIONS] [ARGUMENTS]\nRun 'framedump --help' for the commands.\n"),
    ])
    func usageErrorsExitOne(_ arguments: [String], _ stderr: String) throws {
        let result = try FrameDumpProcess.run(arguments)
        #expect(result == .init(stdout: "", stderr: stderr, status: 1))
    }
}
