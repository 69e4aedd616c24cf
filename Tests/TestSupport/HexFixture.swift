import Foundation
import Testing

/// One hex-dump fixture in Fixtures/hex/ and its expected outputs beside it:
///
/// - `NAME.hex`: the dump (written by scripts/make-hex-fixtures);
/// - `NAME.args`: extra `decode` arguments, one per line (optional);
/// - `NAME.expected.jsonl`: stdout of `decode --json`, computed by the script from how it built
///   the stream, independently of framedump;
/// - `NAME.expected.txt`: stdout of `decode --color never`, reviewed by hand;
/// - `NAME.expected.stderr`: stderr of both runs, then `exit status N`.
package struct HexFixture: CustomTestStringConvertible, Sendable {
    package var name: String

    package init(name: String) { self.name = name }

    package var testDescription: String { name }

    package static let directory = "Fixtures/hex"

    /// Every fixture, by name.
    package static let all = FixtureDirectory.files(in: directory, endingIn: ".hex").map { HexFixture(name: String($0.dropLast(4))) }

    package var path: String { "\(Self.directory)/\(name).hex" }

    package func expectedPath(_ suffix: String) -> String { "\(Self.directory)/\(name).expected.\(suffix)" }

    /// The extra arguments from `NAME.args`, or none.
    package var arguments: [String] {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent("\(Self.directory)/\(name).args")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    package func contents() throws -> Data {
        try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(path))
    }
}

extension FrameDumpProcess.Result {
    /// Standard error and the exit status, as kept in `NAME.expected.stderr`.
    package var stderrAndStatus: String { stderr + "exit status \(status)\n" }
}
