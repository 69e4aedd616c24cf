import FrameCodec
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `framedump capture -i lo`: the built binary captures a loopback conversation this test makes
/// (127.0.0.1 only) and decodes it live. Each test captures in a network namespace of its own
/// (`PrivateNetwork`), where its conversation is the only traffic on lo, and filters on the port
/// of its own server: the packet counts it checks do not depend on what else the machine sends
/// over loopback. Capturing needs root (CI runs as root). Every wait is bounded
/// (``LiveProcess``), and a capture still running when a test ends is killed.
@Suite(.requires(.liveCapture))
final class CaptureLiveEndToEndTests {
    /// This test's network namespace: each test gets a suite value of its own, so a namespace of
    /// its own, and tests running at once do not see each other's traffic either.
    let network: PrivateNetwork
    /// A server listening in it, on a port the system chose: the port every capture filters on.
    let server: (socket: LoopbackSocket, port: UInt16)

    init() throws {
        network = try PrivateNetwork()
        server = try network.listen()
    }

    deinit { server.socket.close() }

    /// h12 frames with cmd 1… and bodies of growing size.
    static func frames(_ count: Int) throws -> [[UInt8]] {
        let encoder = FrameEncoder(format: .h12)
        return try (0..<count).map { index in
            try encoder.encode(fields: ["cmd": UInt64(index + 1)], body: Array("frame \(index) ".utf8) + [UInt8](repeating: 0x41, count: index * 100))
        }
    }

    /// Starts `framedump capture -i lo ARGUMENTS 'tcp port PORT'` (the server's port) in the
    /// namespace and waits until it captures.
    func startCapture(_ arguments: [String]) throws -> LiveProcess {
        let capture = try network.run { try LiveProcess(["capture", "-i", "lo"] + arguments + ["tcp port \(server.port)"]) }
        try capture.waitForStandardError(containing: "listening on lo")
        return capture
    }

    @Test func countStopsAfterNFramesOfALoopbackConversation() throws {
        let frames = try Self.frames(5)
        let capture = try startCapture(["-c", "5", "--json"])
        try network.converse(with: server, sending: frames)
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
        let capture = try startCapture(["--format", "h12", "--color", "never"])
        try network.converse(with: server, sending: try Self.frames(3))
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
        let capture = try startCapture([])
        #expect(try capture.stop(SIGTERM) == 0)
        #expect(capture.stderr.contains("framedump capture: 0 frames in 0 packets, stopped by SIGTERM; 0 packets received by filter"))
    }

    @Test func writeSavesThePacketsAsAReadablePcap() throws {
        let frames = try Self.frames(4)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-capture-\(UUID().uuidString).pcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let capture = try startCapture(["-c", "4", "--json", "-w", path])
        try network.converse(with: server, sending: frames)
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
