import Foundation
import TestSupport
import Testing

/// Standard output that cannot be written (a full disk, a closed descriptor) is an error
/// message in words and exit status 2; a reader that went away (`EPIPE`) stays quiet.
@Suite struct OutputErrorEndToEndTests {
    /// Runs `framedump ARGUMENTS REDIRECTION` through `/bin/sh`, so standard output can be
    /// `/dev/full` or closed (`>&-`).
    private func run(_ arguments: [String], redirection: String) throws -> (stderr: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirection)", FrameDumpProcess.binary.path] + arguments
        process.currentDirectoryURL = FrameDumpProcess.packageRoot
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let text = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, process.terminationStatus)
    }

    @Test(arguments: [(">/dev/full", "No space left on device"), (">&-", "Bad file descriptor")])
    func writeErrorIsAMessageAndStatusTwo(_ redirection: String, _ reason: String) throws {
        let capture = try run(["decode", "--format", "h12", "Fixtures/captures/h12-conversation.pcap"], redirection: redirection)
        #expect(capture == ("framedump decode: cannot write output: \(reason)\n", 2))
        let hex = try run(["decode", "Fixtures/hex/fefd-nsdata.hex"], redirection: redirection)
        #expect(hex.status == 2)
        #expect(hex.stderr.hasSuffix("framedump decode: cannot write output: \(reason)\n"), "\(hex.stderr)")
    }
}
