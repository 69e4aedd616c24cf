import Foundation
import Testing

/// One capture in Fixtures/captures/ and what lies beside it (Fixtures/captures/README.md):
///
/// - `NAME.pcap` (or `.pcapng`): recorded on loopback or hand-built by a script;
/// - `NAME.summary.json`: the generator's record of every frame each side sent, with offsets,
///   lengths, cmd, and the gaps the capture does not hold — independent of framedump;
/// - `NAME.expected.jsonl`: stdout of `decode --json`, checked against the summary by
///   `CaptureDecodeGoldenTests` before it is trusted;
/// - `NAME.expected.txt` (a few): stdout of `decode --summary --color never`, reviewed by hand.
///
/// The TLS captures (``tls``, in `Fixtures/captures/tls/`, scripts/capture-tls-fixtures) also
/// have `NAME.keys`, the client's key log; their summary adds each direction's plaintext
/// SHA-256 and per connection the suite, version, `keys_logged` and `resumed`; their golden is
/// `decode --json --payload none --tls-keylog NAME.keys`. `tls13-aes128gcm-dsb.pcapng` is
/// `tls13-aes128gcm.pcap` with its key log in a Decryption Secrets Block.
package struct CaptureFixture: CustomTestStringConvertible, Sendable {
    /// The file name, e.g. `hb-gap.pcap`.
    package var file: String
    /// The folder, relative to the package root.
    package var folder: String

    package init(file: String, in folder: String = Self.directory) {
        self.file = file
        self.folder = folder
    }

    package var testDescription: String { file }

    package static let directory = "Fixtures/captures"

    /// Every classic pcap fixture, by name. (`h12-conversation.pcapng` holds the same packets as
    /// its `.pcap` and is checked against that one's goldens.)
    package static let all = FixtureDirectory.files(in: directory, endingIn: ".pcap").map { CaptureFixture(file: $0) }

    package static let tlsDirectory = "Fixtures/captures/tls"

    /// Every TLS capture (classic pcap) with its key log beside it.
    package static let tls = FixtureDirectory.files(in: tlsDirectory, endingIn: ".pcap").map { CaptureFixture(file: $0, in: tlsDirectory) }

    /// The fixtures with a human-output golden.
    package static var withText: [CaptureFixture] {
        all.filter { FileManager.default.fileExists(atPath: FrameDumpProcess.packageRoot.appendingPathComponent($0.expectedPath("txt")).path) }
    }

    /// `NAME` without the extension.
    package var name: String { String(file.prefix(upTo: file.lastIndex(of: ".")!)) }

    package var path: String { "\(folder)/\(file)" }

    package func expectedPath(_ suffix: String) -> String { "\(folder)/\(name).expected.\(suffix)" }

    package var summaryPath: String { "\(folder)/\(name).summary.json" }

    /// A TLS capture's key log.
    package var keyLogPath: String { "\(folder)/\(name).keys" }

    /// The parsed `NAME.summary.json`.
    package func summary() throws -> [String: Any] {
        let data = try Data(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(summaryPath))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The options its goldens are decoded with (the summary's `decode_options`, e.g.
    /// `--overlap-policy last`); none for most.
    package func decodeOptions() throws -> [String] {
        try summary()["decode_options"] as? [String] ?? []
    }

    /// The lines of the checked-in `NAME.expected.jsonl`, parsed.
    package func expectedLines() throws -> [[String: Any]] {
        let text = try String(contentsOf: FrameDumpProcess.packageRoot.appendingPathComponent(expectedPath("jsonl")), encoding: .utf8)
        return try JSONLines.parse(text)
    }
}

/// JSON Lines parsing for the tests.
package enum JSONLines {
    package static func parse(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }

    /// The port in a record's endpoint (`src`, `dst`): `"ip:port"` or `"[ip]:port"`.
    package static func port(_ endpoint: Any?) -> Int? {
        (endpoint as? String)?.split(separator: ":").last.flatMap { Int($0) }
    }
}
