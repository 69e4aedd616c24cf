import Foundation
import Testing

/// Examples/CaptureFrames — README's "Use it from Swift" — built as a package of its own on the
/// library products, run on captures, and every frame and decoder event it prints checked, in
/// order, against `framedump decode --json` on the same capture: connection, direction, offset,
/// body length and checksum status of each frame; offset and length of each skip, gap and
/// truncated tail; offset and declared length of each oversize header.
///
/// The example is built once per test run, by the first test that needs it, with
/// `swift build --package-path Examples/CaptureFrames --scratch-path .build/examples/CaptureFrames`
/// (about a minute from clean; nothing is written outside `.build`); the other tests wait for
/// that build without holding a thread. A failed build fails every test here, with its output.
///
/// Self-contained: it finds the package root, the example, `swift` and the framedump binary
/// itself (the binary as `FrameDumpProcess` does: beside the test bundle, or `FRAMEDUMP_BIN`).
@Suite struct ExampleEndToEndTests {
    /// Frames only, on one connection and on several at once; gaps, truncated tails and skipped
    /// bytes (hb-gap, hb-snaplen); a capture that starts mid-stream; a format without a checksum.
    static let captures = [
        "h12-conversation.pcap", "h12-concurrent.pcap", "hb-gap.pcap", "hb-snaplen.pcap",
        "hb-midstream.pcap", "fefd-conversation.pcap",
    ]

    @Test(arguments: captures)
    func framesEqualDecodeJSON(_ file: String) async throws {
        let path = "Fixtures/captures/\(file)"
        let records = try await compare(example: [path], decode: ["decode", "--json", path], exampleStatus: 0)
        #expect(records.contains { $0.kind == "frame" }, "\(file) has frames")
        if file == "hb-gap.pcap" {
            #expect(Set(records.map(\.kind)) == ["frame", "gap", "skip", "truncated"], "\(records)")
        }
    }

    /// A bad checksum, an oversize length and the bytes skipped after it, in a capture written by
    /// `framedump encode`, decoded with the format named as the example's second argument.
    @Test func damagedFramesWithANamedFormat() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = directory.appendingPathComponent("frames.jsonl"), capture = directory.appendingPathComponent("damaged.pcap")
        try """
        {"fields":{"cmd":1}}
        {"fields":{"cmd":3,"crc":1},"body_text":"bad checksum"}
        {"fields":{"cmd":3,"len":4294967295},"body_text":"oversize"}
        {"fields":{"cmd":4},"body_hex":"00000001"}

        """.write(to: frames, atomically: true, encoding: .utf8)
        let encoded = try await Self.run(Self.framedump, ["encode", "--format", "h12", "--pcap", capture.path, frames.path])
        try #require(encoded.status == 0, "\(encoded)")

        let records = try await compare(example: [capture.path, "h12"], decode: ["decode", "--json", "--format", "h12", capture.path],
                                        exampleStatus: 0)
        #expect(records.map(\.kind) == ["frame", "frame", "oversize", "skip", "frame"], "\(records)")
        #expect(records.map(\.crc) == ["ok", "MISMATCH", nil, nil, "ok"], "\(records)")
        #expect(records.first { $0.kind == "oversize" }?.length == 4_294_967_295)
    }

    /// A capture file cut in the middle of a packet: the frames before the cut, the tails left
    /// unfinished as `truncated`, then the read error on standard error and exit status 1.
    @Test func aCaptureCutShort() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Fixtures/captures/h12-concurrent.pcap"))
        let cut = directory.appendingPathComponent("cut.pcap")
        try whole.prefix(whole.count / 2 + 7).write(to: cut)

        let records = try await compare(example: [cut.path], decode: ["decode", "--json", cut.path], exampleStatus: 1)
        #expect(records.contains { $0.kind == "frame" })
    }

    @Test func errorsGoToStandardErrorWithExitStatus1() async throws {
        let example = try await Self.example.value
        let cases: [(arguments: [String], message: String)] = [
            ([], "usage: CaptureFrames CAPTURE.pcap [FORMAT]"),
            (["Fixtures/captures/h12-conversation.pcap", "h12", "extra"], "usage:"),
            (["Fixtures/captures/no-such.pcap"], "No such file"),
            (["Fixtures/captures/h12-conversation.pcap", "h13"], "a preset name (fefd, h12"),
            (["Fixtures/captures/h12-conversation.pcap", "len:u8 x"], "column 9: expected"),
        ]
        for (arguments, message) in cases {
            let result = try await Self.run(example, arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("CaptureFrames: ") && result.stderr.contains(message), "\(arguments): \(result)")
        }
    }

    /// README's "Use it from Swift" shows the example's core: every line of its Swift block (but
    /// the `// …` elisions) is a line of main.swift, so the README cannot drift from the code tested here.
    @Test func readmeShowsTheExamplesOwnCode() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Use it from Swift").dropFirst().first).components(separatedBy: "\n## ")[0]
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first).components(separatedBy: "```")[0]
        let source = try String(contentsOf: Self.packageRoot.appendingPathComponent("Examples/CaptureFrames/Sources/CaptureFrames/main.swift"), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let shown = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("// …") }
        #expect(shown.count >= 10)
        for line in shown { #expect(sourceLines.contains(line), "README line not in main.swift: \(line)") }
    }

    // MARK: - Comparing the example with framedump

    /// One frame or decoder event, as both programs report it.
    struct Record: Equatable, CustomStringConvertible {
        var connection: Int
        var direction: String
        /// `frame`, `skip`, `gap`, `truncated` or `oversize`.
        var kind: String
        var offset: UInt64
        /// A frame's body length, an event's byte count, an oversize header's declared length.
        var length: UInt64
        /// A frame's checksum status: `ok`, `MISMATCH`, or `none` when the format has no checksum.
        var crc: String?

        var description: String {
            "conn \(connection) \(direction) \(kind) offset \(offset) length \(length)" + (crc.map { " crc \($0)" } ?? "")
        }
    }

    /// Runs the example and `framedump`, and checks that they report the same records in the
    /// same order; returns framedump's.
    private func compare(example arguments: [String], decode: [String], exampleStatus: Int32) async throws -> [Record] {
        let example = try await Self.example.value
        let expected = try await Self.run(Self.framedump, decode)
        try #require(expected.status == 0 || expected.status == 2, "framedump \(decode): \(expected)")
        let expectedRecords = try Self.records(fromJSONLines: expected.stdout)

        let actual = try await Self.run(example, arguments)
        #expect(actual.status == exampleStatus, "CaptureFrames \(arguments): \(actual)")
        #expect(actual.status == 0 ? actual.stderr.isEmpty : actual.stderr.hasPrefix("CaptureFrames: "), "\(actual)")
        let actualRecords = Self.records(fromExample: actual.stdout)

        #expect(actualRecords.count == expectedRecords.count, "records of CaptureFrames \(arguments) and framedump \(decode)")
        if let (index, (mine, theirs)) = zip(actualRecords, expectedRecords).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            Issue.record("record \(index) differs: CaptureFrames \(mine), framedump \(theirs)")
        }
        return expectedRecords
    }

    /// The frames and decoder events of `decode --json` output (other lines are left out).
    private static func records(fromJSONLines text: String) throws -> [Record] {
        try text.split(separator: "\n").compactMap { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            guard let kind = object["type"] as? String, ["frame", "skip", "gap", "truncated", "oversize"].contains(kind) else { return nil }
            func number(_ key: String) throws -> UInt64 { try #require((object[key] as? NSNumber)?.uint64Value, "\(key) in \(line)") }
            var record = Record(connection: try #require(object["conn"] as? Int, "\(line)"), direction: try #require(object["dir"] as? String, "\(line)"),
                                kind: kind, offset: try number("offset"), length: try number(kind == "oversize" ? "declared" : "length"))
            if kind == "frame" { record.crc = (object["crc_ok"] as? Bool).map { $0 ? "ok" : "MISMATCH" } ?? "none" }
            return record
        }
    }

    /// The example's lines: `conn 1 c2s offset 0 body 8 crc ok`, `conn 1 c2s gap offset 69 length 65`,
    /// `conn 1 c2s oversize offset 20 declared 4294967295`. A line of another shape is an issue.
    private static func records(fromExample text: String) -> [Record] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            if words.count == 9, words[0] == "conn", words[3] == "offset", words[5] == "body", words[7] == "crc",
               let connection = Int(words[1]), let offset = UInt64(words[4]), let length = UInt64(words[6]) {
                return Record(connection: connection, direction: words[2], kind: "frame", offset: offset, length: length, crc: words[8])
            }
            if words.count == 8, words[0] == "conn", words[4] == "offset", words[6] == (words[3] == "oversize" ? "declared" : "length"),
               let connection = Int(words[1]), let offset = UInt64(words[5]), let length = UInt64(words[7]) {
                return Record(connection: connection, direction: words[2], kind: words[3], offset: offset, length: length)
            }
            Issue.record("CaptureFrames printed a line of no known shape: \(line)")
            return nil
        }
    }

    // MARK: - Building and running

    /// The package root: the nearest directory above this file that holds the example.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/",
              !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Examples/CaptureFrames/Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// The framedump binary this test run built: in the test bundle's directory, or `FRAMEDUMP_BIN`.
    static let framedump: URL = {
        if let path = ProcessInfo.processInfo.environment["FRAMEDUMP_BIN"] { return URL(fileURLWithPath: path) }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        while directory.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("framedump")
    }()

    /// The example's executable, built on first use; shared by every test of the run.
    static let example = Task<URL, any Error> {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let swift = directories.map({ "\($0)/swift" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ExampleBuildFailed(output: "no `swift` on PATH to build Examples/CaptureFrames with")
        }
        let scratch = ".build/examples/CaptureFrames"
        let build = try await run(URL(fileURLWithPath: swift),
                                  ["build", "--package-path", "Examples/CaptureFrames", "--scratch-path", scratch])
        guard build.status == 0 else { throw ExampleBuildFailed(output: "\(build)") }
        // The library's own warnings are its tests' business; the example's source must build clean.
        let warnings = (build.stdout + build.stderr).split(separator: "\n").filter { $0.contains("CaptureFrames/Sources/") && $0.contains("warning:") }
        guard warnings.isEmpty else { throw ExampleBuildFailed(output: warnings.joined(separator: "\n")) }
        let binary = packageRoot.appendingPathComponent("\(scratch)/debug/CaptureFrames")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ExampleBuildFailed(output: "no executable at \(binary.path) after:\n\(build)")
        }
        return binary
    }

    struct ExampleBuildFailed: Error, CustomStringConvertible {
        var output: String
        var description: String { "building Examples/CaptureFrames failed:\n\(output)" }
    }

    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    /// Runs `executable` from the package root, standard input empty, and waits for it without
    /// blocking a thread; standard output and error go to files, so neither can fill a pipe.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw ExampleBuildFailed(output: "no executable at \(executable.path) (run `swift build` first, or set FRAMEDUMP_BIN)")
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdout = directory.appendingPathComponent("stdout"), stderr = directory.appendingPathComponent("stderr")
        try Data().write(to: stdout)
        try Data().write(to: stderr)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in
                continuation.resume(returning: process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
            }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return Run(status: status, stdout: String(decoding: try Data(contentsOf: stdout), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: stderr), as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
