import FrameCodec
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `framedump capture -i lo`: the built binary captures a loopback conversation this test makes
/// (127.0.0.1 only) and decodes it live. Capturing needs root (CI runs as root); otherwise the
/// tests are skipped with that reason. Every wait is bounded (``LiveProcess``), and a capture
/// still running when a test ends is killed.
@Suite(.enabled(if: getuid() == 0, "capturing on lo needs root or CAP_NET_RAW"))
struct CaptureLiveEndToEndTests {
    /// h12 frames with cmd 1… and bodies of growing size.
    static func frames(_ count: Int) throws -> [[UInt8]] {
        let encoder = FrameEncoder(format: .h12)
        return try (0..<count).map { index in
            try encoder.encode(fields: ["cmd": UInt64(index + 1)], body: Array("frame \(index) ".utf8) + [UInt8](repeating: 0x41, count: index * 100))
        }
    }

    /// Connects to `server`, sends each frame with its own `send(2)` 10 ms apart (separate
    /// segments), and closes both ends.
    static func converse(with server: (socket: LoopbackSocket, port: UInt16), sending frames: [[UInt8]]) throws {
        let client = try LoopbackSocket.connect(to: "127.0.0.1", port: server.port)
        defer { client.close() }
        let accepted = try server.socket.accept()
        defer { accepted.close() }
        for frame in frames {
            try client.send(frame)
            usleep(10_000)
        }
    }

    /// Starts `framedump capture -i lo ARGUMENTS` and waits until it captures.
    static func startCapture(_ arguments: [String]) throws -> LiveProcess {
        let capture = try LiveProcess(["capture", "-i", "lo"] + arguments)
        try capture.waitForStandardError(containing: "listening on lo")
        return capture
    }

    @Test func countStopsAfterNFramesOfALoopbackConversation() throws {
        let server = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { server.0.close() }
        let frames = try Self.frames(5)
        let capture = try Self.startCapture(["-c", "5", "--json", "tcp port \(server.port)"])
        try Self.converse(with: server, sending: frames)
        #expect(try capture.waitForExit() == 0, "\(capture.stderr)")
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
        let server = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { server.0.close() }
        let capture = try Self.startCapture(["--format", "h12", "--color", "never", "tcp port \(server.port)"])
        try Self.converse(with: server, sending: try Self.frames(3))
        // Frames are printed as their packets arrive, before the capture ends.
        try capture.waitForStandardOutput(containing: "frame  offset 140  body 208 bytes")
        let status = try capture.stop(SIGINT)
        #expect(status == 0)
        #expect(capture.stdout.hasSuffix("\n3 frames\n"))
        #expect(capture.stderr.contains("framedump capture: 3 frames in "))
        #expect(capture.stderr.contains(", stopped by SIGINT; "))
        #expect(capture.stderr.contains(" packets received by filter, 0 dropped by kernel, 0 dropped by interface\n"))
    }

    @Test func idleCaptureStopsOnSigterm() throws {
        let server = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { server.0.close() }
        let capture = try Self.startCapture(["tcp port \(server.port)"])
        #expect(try capture.stop(SIGTERM) == 0)
        #expect(capture.stderr.contains("framedump capture: 0 frames in 0 packets, stopped by SIGTERM; 0 packets received by filter"))
    }

    @Test func writeSavesThePacketsAsAReadablePcap() throws {
        let server = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { server.0.close() }
        let frames = try Self.frames(4)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-capture-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try Self.startCapture(["-c", "4", "--json", "-w", path, "tcp port \(server.port)"])
        try Self.converse(with: server, sending: frames)
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
