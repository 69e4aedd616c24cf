import Foundation

/// Runs the built `framedump` binary the way a user would, and captures what it did.
///
/// The binary is the one `swift build` / `swift test` just built, found in the same bin
/// directory as the running test bundle (`swift build --show-bin-path`: e.g.
/// `.build/x86_64-unknown-linux-gnu/debug/`), so debug, release and custom `--build-path`
/// runs all test their own build. `FRAMEDUMP_BIN` overrides it.
///
/// Commands run from the package root, so fixture paths in messages read
/// `Fixtures/hex/NAME.hex`, with `NO_COLOR` removed from the environment.
package struct FrameDumpProcess {
    package struct Result: Equatable, CustomStringConvertible {
        package var stdout: String
        package var stderr: String
        package var status: Int32
        /// Standard output's exact bytes, for binary output (`stdout` is their UTF-8 reading).
        package var stdoutBytes: Data

        package init(stdout: String, stderr: String, status: Int32, stdoutBytes: Data = Data()) {
            self.stdout = stdout
            self.stderr = stderr
            self.status = status
            self.stdoutBytes = stdoutBytes
        }

        package var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    /// The package root: three levels above this file (Tests/TestSupport/FrameDumpProcess.swift).
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["FRAMEDUMP_BIN"] {
            return URL(fileURLWithPath: path)
        }
        // The test bundle lives in the bin directory: /proc/self/exe on Linux, argv[0] elsewhere.
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        // On macOS the bundle is Foo.xctest/Contents/MacOS/Foo.
        while directory.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("framedump")
    }()

    /// Runs `framedump arguments`, with `input` on standard input (empty when `nil`).
    package static func run(_ arguments: [String], input: Data? = nil, environment extra: [String: String] = [:]) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw MissingBinary(path: binary.path)
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stdoutURL = scratch.appendingPathComponent("stdout"), stderrURL = scratch.appendingPathComponent("stderr")
        let stdinURL = scratch.appendingPathComponent("stdin")
        try (input ?? Data()).write(to: stdinURL)
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        // Files, not pipes: no deadlock however much either stream holds.
        process.standardInput = try FileHandle(forReadingFrom: stdinURL)
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        process.waitUntilExit()
        let stdoutBytes = try Data(contentsOf: stdoutURL)
        return Result(
            stdout: String(decoding: stdoutBytes, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self),
            status: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
            stdoutBytes: stdoutBytes
        )
    }

    package struct MissingBinary: Error, CustomStringConvertible {
        package var path: String
        package var description: String { "no framedump binary at \(path): run `swift build` first, or set FRAMEDUMP_BIN" }
    }
}
