import Foundation
import Testing

/// One TLS capture in Fixtures/captures/tls/ (scripts/capture-tls-fixtures) and what lies beside it:
///
/// - `NAME.pcap`: recorded on loopback from scripts/tls-traffic-generator;
/// - `NAME.keys`: the client's key log (NSS format), as OpenSSL wrote it;
/// - `NAME.summary.json`: the generator's record of every h12 frame each side wrote (offsets in
///   that direction's plaintext), the SHA-256 of all plaintext each side wrote, and per
///   connection the suite and version the client saw, whether its keys were logged and its
///   session resumed;
/// - `NAME.expected.jsonl`: stdout of `decode --json --payload none --tls-keylog NAME.keys`,
///   checked against the summary before it is trusted.
///
/// `tls13-aes128gcm-dsb.pcapng` is `tls13-aes128gcm.pcap` with its key log in a Decryption
/// Secrets Block, and shares its summary.
package struct TLSCaptureFixture: CustomTestStringConvertible, Sendable {
    /// The file name, e.g. `tls13-aes128gcm.pcap`.
    package var file: String

    package init(file: String) { self.file = file }

    package var testDescription: String { file }

    package static let directory = "Fixtures/captures/tls"

    /// Every TLS capture with its key log beside it.
    package static let all = FixtureDirectory.files(in: directory, endingIn: ".pcap").map { TLSCaptureFixture(file: $0) }

    /// `NAME` without the extension.
    package var name: String { String(file.prefix(upTo: file.lastIndex(of: ".")!)) }

    package var path: String { "\(Self.directory)/\(file)" }

    package var keyLogPath: String { "\(Self.directory)/\(name).keys" }

    package var expectedPath: String { "\(Self.directory)/\(name).expected.jsonl" }

    /// The parsed `NAME.summary.json`.
    package func summary() throws -> [String: Any] {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent("\(Self.directory)/\(name).summary.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    }

    /// The lines of the checked-in golden, parsed.
    package func expectedLines() throws -> [[String: Any]] {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent(expectedPath)
        return try JSONLines.parse(String(contentsOf: url, encoding: .utf8))
    }
}
