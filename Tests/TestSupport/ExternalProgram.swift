import Foundation

/// Runs a program other than framedump: a reference tool whose reading framedump's output is
/// checked against (tshark), or a shell or pseudo-terminal framedump must run inside (`| head`,
/// script(1)).
///
/// A test that runs one says so with `.requires(.program(…))` (``Prerequisite``), so that on a
/// machine without it the test is skipped with its name, or fails under CI, instead of passing
/// without having checked anything.
package enum ExternalProgram {
    /// Where `name` is installed: the first executable of that name in a `PATH` directory, or
    /// `name` itself when it is a path.
    ///
    /// - Returns: The path; `nil` when there is none.
    package static func path(of name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the program `name` (looked up as ``path(of:)`` does) with `arguments`, standard input
    /// and standard error on `/dev/null`.
    ///
    /// - Returns: Standard output, read to its end before waiting for the exit (so a program
    ///   writing more than a pipe holds cannot block), and the exit status.
    /// - Throws: ``NotInstalled`` when there is no such program; what `Process.run` throws.
    package static func run(_ name: String, _ arguments: [String]) throws -> (stdout: String, status: Int32) {
        guard let path = path(of: name) else { throw NotInstalled(name: name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
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

    package struct NotInstalled: Error, CustomStringConvertible {
        package var name: String
        package var description: String { "\(name) is not installed (not found on PATH)" }
    }
}
