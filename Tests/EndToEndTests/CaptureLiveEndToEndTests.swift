import FrameCodec
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `framedump capture -i lo`: the built binary captures a loopback conversation this test makes
/// (127.0.0.1 only) and decodes it live. Capturing needs root (CI runs as root); otherwise the
/// tests are skipped with that reason. Every test bounds its waits and kills what it started.
@Suite(.enabled(if: getuid() == 0, "capturing on lo needs root or CAP_NET_RAW"), .serialized)
struct CaptureLiveEndToEndTests {
    /// The longest any step may take before the test fails (and kills the capture).
    static let timeout: TimeInterval = 15

    /// h12 frames with cmd 1… and bodies of growing size.
    static func frames(_ count: Int) throws -> [[UInt8]] {
        let encoder = FrameEncoder(format: .h12)
        return try (0..<count).map { index in
            try encoder.encode(fields: ["cmd": UInt64(index + 1)], body: Array("frame \(index) ".utf8) + [UInt8](repeating: 0x41, count: index * 100))
        }
    }

    @Test func countStopsAfterNFramesOfALoopbackConversation() throws {
        let server = try LoopbackServer()
        let frames = try Self.frames(5)
        let capture = try CaptureProcess(["capture", "-i", "lo", "-c", "5", "--json", "tcp port \(server.port)"])
        defer { capture.kill() }
        try capture.waitUntilListening()
        try server.connectAndSend(frames)
        let status = try capture.waitForExit()
        #expect(status == 0, "\(capture.stderr)")
        let lines = capture.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        for (line, frame) in zip(lines, frames) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["type"] as? String == "frame")
            #expect(object["dst"] as? String == "127.0.0.1:\(server.port)")
            #expect(object["crc_ok"] as? Bool == true)
            #expect(object["payload_hex"] as? String == frame.dropFirst(12).map { String(format: "%02x", $0) }.joined())
        }
        #expect(capture.stderr.contains("framedump capture: 5 frames in "))
        #expect(capture.stderr.contains("packets received by filter, 0 dropped by kernel"))
    }

    @Test func sigintStopsWithSummaryAndPacketCounts() throws {
        let server = try LoopbackServer()
        let capture = try CaptureProcess(["capture", "-i", "lo", "--format", "h12", "--color", "never", "tcp port \(server.port)"])
        defer { capture.kill() }
        try capture.waitUntilListening()
        try server.connectAndSend(try Self.frames(3))
        // Frames are printed as their packets arrive, before the capture ends.
        try capture.wait("the 3 frames on standard output") { capture.stdout.components(separatedBy: "  frame  ").count == 4 }
        capture.process.interrupt()
        let status = try capture.waitForExit()
        #expect(status == 0)
        #expect(capture.stdout.hasSuffix("\n3 frames\n"))
        #expect(capture.stderr.contains("framedump capture: 3 frames in "))
        #expect(capture.stderr.contains(", stopped by SIGINT; "))
        #expect(capture.stderr.contains(" packets received by filter, 0 dropped by kernel, 0 dropped by interface\n"))
    }

    @Test func idleCaptureStopsOnSigterm() throws {
        let server = try LoopbackServer()
        let capture = try CaptureProcess(["capture", "-i", "lo", "tcp port \(server.port)"])
        defer { capture.kill() }
        try capture.waitUntilListening()
        capture.process.terminate()
        #expect(try capture.waitForExit() == 0)
        #expect(capture.stderr.contains("framedump capture: 0 frames in 0 packets, stopped by SIGTERM; 0 packets received by filter"))
    }

    @Test func writeSavesThePacketsAsAReadablePcap() throws {
        let server = try LoopbackServer()
        let frames = try Self.frames(4)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-capture-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try CaptureProcess(["capture", "-i", "lo", "-c", "4", "--json", "-w", path, "tcp port \(server.port)"])
        defer { capture.kill() }
        try capture.waitUntilListening()
        try server.connectAndSend(frames)
        #expect(try capture.waitForExit() == 0)
        // The saved packets decode to the same frames, with the same timestamps.
        let decoded = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", path])
        let live = capture.stdout.split(separator: "\n")
        let fromFile = decoded.stdout.split(separator: "\n")
        #expect(fromFile.count >= 4)
        #expect(Array(fromFile.prefix(4)) == live)
    }

    @Test func unknownInterfaceIsAUsageError() throws {
        let result = try FrameDumpProcess.run(["capture", "-i", "nosuch0"])
        #expect(result.status == 1)
        #expect(result.stderr == "framedump capture: nosuch0: No such device exists (list interfaces with `framedump capture -D`)\n")
    }

    @Test func listsLoopback() throws {
        let result = try FrameDumpProcess.run(["capture", "-D"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").contains { $0.hasSuffix(". lo [up, running, loopback]") })
    }
}

/// A `framedump capture` running in the background, its output going to files read on demand.
final class CaptureProcess {
    let process = Process()
    private let directory: URL

    init(_ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: FrameDumpProcess.binary.path) else {
            throw FrameDumpProcess.MissingBinary(path: FrameDumpProcess.binary.path)
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["stdout", "stderr"] { try Data().write(to: directory.appendingPathComponent(name)) }
        process.executableURL = FrameDumpProcess.binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
        try process.run()
    }

    var stdout: String { read("stdout") }
    var stderr: String { read("stderr") }

    private func read(_ name: String) -> String {
        String(decoding: (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
    }

    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var stderr: String
        var description: String { "timed out waiting for \(what); stderr:\n\(stderr)" }
    }

    /// Polls `condition` every 10 ms for at most ``CaptureLiveEndToEndTests/timeout``.
    func wait(_ what: String, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(CaptureLiveEndToEndTests.timeout)
        while !condition() {
            guard Date() < deadline else { throw Timeout(what: what, stderr: stderr) }
            usleep(10_000)
        }
    }

    /// Waits for the line the command prints once the capture is active and filtered.
    func waitUntilListening() throws {
        try wait("\"listening on lo\"") { stderr.contains("listening on lo") || !process.isRunning }
        guard process.isRunning else { throw Timeout(what: "\"listening on lo\" (the capture exited)", stderr: stderr) }
    }

    /// Waits for the process to exit by itself; returns its status.
    func waitForExit() throws -> Int32 {
        try wait("the capture to exit") { !process.isRunning }
        return process.terminationStatus
    }

    /// Kills the process if still running and removes its files.
    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A TCP server on 127.0.0.1 at a port the system picks, and a client that sends it frames.
final class LoopbackServer {
    private let listener: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard descriptor >= 0,
              withUnsafeMutablePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }) == 0,
              listen(descriptor, 4) == 0,
              withUnsafeMutablePointer(to: &address, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }) == 0
        else {
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            throw SocketFailure(errno: code)
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    struct SocketFailure: Error { var errno: Int32 }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Connects, sends each frame with its own `send(2)` (10 ms apart, so they are separate
    /// segments), then closes both ends.
    func connectAndSend(_ frames: [[UInt8]]) throws {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = Self.loopback(port: port)
        guard withUnsafePointer(to: &address, {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }) == 0 else { throw SocketFailure(errno: errno) }
        let accepted = accept(listener, nil, nil)
        guard accepted >= 0 else { throw SocketFailure(errno: errno) }
        defer { close(accepted) }
        for frame in frames {
            let sent = frame.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
            guard sent == frame.count else { throw SocketFailure(errno: errno) }
            usleep(10_000)
        }
    }
}
