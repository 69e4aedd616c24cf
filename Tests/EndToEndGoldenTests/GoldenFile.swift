import Foundation
import TestSupport
import Testing

/// Compares output with a checked-in expected file, or rewrites the file on request.
///
/// Updating is deliberate: only `FRAMEDUMP_UPDATE_GOLDEN=1 swift test --filter EndToEndGoldenTests`
/// rewrites goldens, and the rewritten files then show up in `git diff` for review. Otherwise a
/// mismatch fails with the first differing lines, both sides shown.
enum GoldenFile {
    static var updating: Bool { ProcessInfo.processInfo.environment["FRAMEDUMP_UPDATE_GOLDEN"] == "1" }

    /// Checks `actual` against the file at `path` (relative to the package root).
    static func check(_ actual: String, against path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = FrameDumpProcess.packageRoot.appendingPathComponent(path)
        if updating {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing golden file \(path); create it with FRAMEDUMP_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if actual != expected {
            Issue.record("\(path) differs:\n\(difference(expected: expected, actual: actual))", sourceLocation: sourceLocation)
        }
    }

    /// The first few differing lines, with their line numbers.
    static func difference(expected: String, actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var report: [String] = []
        for index in 0..<max(expectedLines.count, actualLines.count) where report.count < 24 {
            let want = index < expectedLines.count ? String(expectedLines[index]) : nil
            let got = index < actualLines.count ? String(actualLines[index]) : nil
            guard want != got else { continue }
            report.append("line \(index + 1):")
            report.append("  - expected: \(want.map { "\"\($0)\"" } ?? "(no line)")")
            report.append("  + actual:   \(got.map { "\"\($0)\"" } ?? "(no line)")")
        }
        return report.joined(separator: "\n")
    }
}
