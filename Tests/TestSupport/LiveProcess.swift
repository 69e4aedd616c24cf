import Foundation

/// A long-running `framedump` (listen, proxy, connect) started in the background: output to
/// files, the port it prints read back, stopped with a signal, every wait bounded.
///
/// `deinit` kills a process still running, so a failing test leaves no process behind.
package final class LiveProcess {
    private let process = Process()
    private let scratch: URL
    private let stdoutURL: URL, stderrURL: URL

    /// Standard output's pipe, when the process was started with `stdoutPipe` (``stdout`` is then
    /// empty): a test reads it, or closes its read end, or never reads it at all.
    package let outputPipe: Pipe?

    /// Starts `framedump arguments`, with `input` (or nothing) on standard input, in this
    /// process's environment plus `environment`.
    ///
    /// - Parameters:
    ///   - stdoutPipe: standard output to ``outputPipe`` instead of a file.
    ///   - wrapper: a command that runs framedump, e.g. `["/bin/sh", "-c", "ulimit -n 16 && exec \"$@\"", "sh"]`
    ///     (framedump's path and arguments follow it).
    package init(
        _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
        stdoutPipe: Bool = false, wrapper: [String] = []
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: FrameDumpProcess.binary.path) else {
            throw FrameDumpProcess.MissingBinary(path: FrameDumpProcess.binary.path)
        }
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        let stdinURL = scratch.appendingPathComponent("stdin")
        try input.write(to: stdinURL)
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)
        if let command = wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = wrapper.dropFirst() + [FrameDumpProcess.binary.path] + arguments
        } else {
            process.executableURL = FrameDumpProcess.binary
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.currentDirectoryURL = FrameDumpProcess.packageRoot
        process.standardInput = try FileHandle(forReadingFrom: stdinURL)
        outputPipe = stdoutPipe ? Pipe() : nil
        if let outputPipe {
            process.standardOutput = outputPipe
        } else {
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        }
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The process id, e.g. to read its CPU time from `/proc`.
    package var processIdentifier: Int32 { process.processIdentifier }

    package var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    package var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits until standard error says `listening on HOST:PORT` and returns the port.
    package func listeningPort(timeout: Double = 10) throws -> UInt16 {
        try waitFor(timeout: timeout, "a 'listening on' line") {
            guard let range = stderr.range(of: "listening on ") else { return nil }
            let address = stderr[range.upperBound...].prefix { $0 != "\n" && $0 != "," }
            guard address.count < stderr[range.upperBound...].count,
                  let colon = address.lastIndex(of: ":") else { return nil }
            return UInt16(address[address.index(after: colon)...])
        }
    }

    /// Waits until standard error contains `text`.
    package func waitForStandardError(containing text: String, timeout: Double = 10) throws {
        _ = try waitFor(timeout: timeout, "'\(text)' on standard error") { stderr.contains(text) ? true : nil }
    }

    /// Waits until standard output contains `text`.
    package func waitForStandardOutput(containing text: String, timeout: Double = 10) throws {
        _ = try waitFor(timeout: timeout, "'\(text)' on standard output") { stdout.contains(text) ? true : nil }
    }

    /// Sends `signal` (SIGTERM by default) and waits for the exit status.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, timeout: Double = 10) throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        return try waitForExit(timeout: timeout)
    }

    /// Waits for the process to exit by itself; its exit status.
    package func waitForExit(timeout: Double = 10) throws -> Int32 {
        _ = try waitFor(timeout: timeout, "framedump to exit") { process.isRunning ? nil : true }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    private func waitFor<Value>(timeout: Double, _ what: String, _ probe: () -> Value?) throws -> Value {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let value = probe() { return value }
            usleep(10_000)
        }
        throw Timeout(what: what, stderr: stderr)
    }

    package struct Timeout: Error, CustomStringConvertible {
        package var what: String
        package var stderr: String
        package var description: String { "timed out waiting for \(what); framedump's standard error:\n\(stderr)" }
    }
}
