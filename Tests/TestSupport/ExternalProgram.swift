import Foundation

/// Runs a program other than framedump: a reference tool whose reading framedump's output is
/// checked against (tshark), or a shell or pseudo-terminal framedump must run inside (`| head`,
/// script(1)).
enum ExternalProgram {
    /// Runs `executable` with `arguments`, standard input and standard error on `/dev/null`.
    ///
    /// - Returns: Standard output, read to its end before waiting for the exit (so a program
    ///   writing more than a pipe holds cannot block), and the exit status.
    static func run(_ executable: String, _ arguments: [String]) throws -> (stdout: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, process.terminationStatus)
    }
}
