import FrameCodec
import Foundation
import TestSupport
import Testing

/// `--body` on the live commands, on both event-loop backends: `listen` (c2s), `connect` (s2c)
/// and `proxy` (both) decode bodies per command as `decode` does. Frames are built here with
/// `FrameEncoder`; the expected `body` values follow from the bytes encoded (protobuf field 1 =
/// 150, MessagePack `{"id": 7}`).
@Suite struct LiveBodyViewsEndToEndTests {
    static let options = ["--format", "h12", "--json", "--payload", "none", "--body", "cmd=msg:protobuf", "--body", "cmd=ack:msgpack"]
    static let protobuf = #""body":{"view":"protobuf","fields":[{"number":1,"wire_type":"VARINT","value":150,"zigzag":75}]}}"#
    static let msgpack = #""body":{"view":"msgpack","value":{"id":7}}}"#

    /// A msg with a protobuf body, then an ack with a MessagePack body.
    static func frames() throws -> [UInt8] {
        let encoder = FrameEncoder(format: .h12)
        return try encoder.encode(fields: ["cmd": 3], body: [0x08, 0x96, 0x01])
            + encoder.encode(fields: ["cmd": 4], body: [0x81, 0xA2, 0x69, 0x64, 0x07])
    }

    static func expectBodies(_ stdout: String, direction: String, count: Int = 2, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = stdout.split(separator: "\n").filter { $0.contains("\"dir\":\"\(direction)\"") }
        #expect(lines.count == count, "\(stdout)", sourceLocation: sourceLocation)
        for (index, line) in lines.enumerated() {
            #expect(line.hasSuffix(index % 2 == 0 ? protobuf : msgpack), "\(line)", sourceLocation: sourceLocation)
            #expect(!line.contains("payload_hex"), sourceLocation: sourceLocation)
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["epoll", "poll"])
    func listenDecodesBodies(backend: String) throws {
        let listen = try LiveProcess(["listen", "0"] + Self.options, environment: ["FRAMEDUMP_EVENT_LOOP": backend])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try listen.listeningPort())
        try socket.send(try Self.frames())
        socket.close()
        try listen.waitForStandardError(containing: "conn 1 closed")
        #expect(try listen.stop() == 0)
        Self.expectBodies(listen.stdout, direction: "c2s")
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["epoll", "poll"])
    func connectDecodesBodies(backend: String) throws {
        let (listener, port) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { listener.close() }
        let server = TestThread {
            let connection = try listener.accept()
            defer { connection.close() }
            _ = try connection.receiveAll()
            try connection.send(try Self.frames())
        }
        let connect = try LiveProcess(["connect", "127.0.0.1:\(port)"] + Self.options, environment: ["FRAMEDUMP_EVENT_LOOP": backend])
        #expect(try connect.waitForExit() == 0, "\(connect.stderr)")
        try server.join()
        Self.expectBodies(connect.stdout, direction: "s2c")
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["epoll", "poll"])
    func proxyDecodesBodiesBothWays(backend: String) throws {
        let server = try ProxyEndToEndTests.EchoServer(host: "127.0.0.1", connections: 1)
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(server.port)"] + Self.options, environment: ["FRAMEDUMP_EVENT_LOOP": backend])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try proxy.listeningPort())
        let frames = try Self.frames()
        try socket.send(frames)
        socket.shutdownWrite()
        #expect(try socket.receiveAll() == frames, "the echo comes back unchanged")
        socket.close()
        try proxy.waitForStandardError(containing: "conn 1 closed")
        #expect(try proxy.stop() == 0)
        try server.join()
        Self.expectBodies(proxy.stdout, direction: "c2s")
        Self.expectBodies(proxy.stdout, direction: "s2c")
    }

    /// Text output and `--proto-descriptors` go through the same options: a schema view
    /// without descriptors is refused, as by `decode`, and a rule is checked against the format.
    @Test(.timeLimit(.minutes(1)))
    func liveCommandsCheckTheirBodyOptions() throws {
        for command in [["listen", "0"], ["connect", "127.0.0.1:1"], ["proxy", "0", "127.0.0.1:1"]] {
            let schema = try FrameDumpProcess.run(command + ["--format", "h12", "--body", "proto:im.Chat"])
            #expect(schema.status == 1)
            #expect(schema.stderr.contains("--body proto:im.Chat needs --proto-descriptors FILE"), "\(schema.stderr)")
            let wide = try FrameDumpProcess.run(command + ["--format", "h12", "--body", "cmd=999:protobuf"])
            #expect(wide.status == 1)
            #expect(wide.stderr.contains("invalid --body 'cmd=999:protobuf' at column 5"), "\(wide.stderr)")
        }
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--color", "never", "--body", "cmd=msg:protobuf"])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try listen.listeningPort())
        try socket.send(try Self.frames())
        socket.close()
        try listen.waitForStandardError(containing: "conn 1 closed")
        #expect(try listen.stop() == 0)
        #expect(listen.stdout.contains("\n  1: 150  # zigzag 75\n"), "\(listen.stdout)")
    }
}
