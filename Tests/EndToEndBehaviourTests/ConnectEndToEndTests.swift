import FrameCodec
import Foundation
import TestSupport
import Testing

/// `framedump connect`: frames from JSON Lines on standard input to a test server, and the
/// server's frames decoded.
@Suite struct ConnectEndToEndTests {
    @Test(.timeLimit(.minutes(1)), arguments: ["127.0.0.1", "::1"])
    func jsonLinesDriveAServerAndItsFramesAreDecoded(host: String) throws {
        let (listener, port) = try LoopbackSocket.listen(on: host)
        defer { listener.close() }
        let encoder = FrameEncoder(format: .h12)
        let expected = try encoder.encode(fields: ["ver": 1, "cmd": 1], body: [0, 0, 1, 0x93, 0x7E, 0x3A, 0xC4, 0xE8])
            + encoder.encode(fields: ["ver": 1, "cmd": 3], body: Array(#"{"id":7,"text":"hi"}"#.utf8))
            + encoder.encode(fields: ["cmd": 3], body: Array("line one\n".utf8))
            + encoder.encode(fields: ["cmd": 5], body: [])
        let replies = try encoder.encode(fields: ["ver": 1, "cmd": 2], body: [9, 9])
            + encoder.encode(fields: ["ver": 1, "cmd": 4], body: [0, 0, 0, 7])
        let server = TestThread {
            let connection = try listener.accept()
            defer { connection.close() }
            // receiveAll ends at the FIN connect sends at the end of its standard input.
            #expect(try connection.receiveAll() == expected)
            try connection.send(replies)
        }
        let input = """
        {"fields":{"ver":1,"cmd":1},"body_hex":"00000193 7e3ac4e8"}
        {"fields":{"ver":1,"cmd":3},"body_json":{"text":"hi","id":7}}

        {"fields":{"cmd":3},"body_text":"line one\\n"}\r
        {"fields":{"cmd":5}}
        """
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let connect = try LiveProcess(["connect", address, "--format", "h12", "--json"], input: Data(input.utf8))
        #expect(try connect.waitForExit() == 0, "\(connect.stderr)")
        try server.join()
        let lines = connect.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("\"fields\":{\"magic\":21930,\"ver\":1,\"cmd\":2,\"len\":2,"))
        #expect(lines[1].hasSuffix("\"crc_ok\":true,\"payload_hex\":\"00000007\",\"frame_length\":16,\"names\":{\"cmd\":\"ack\"}}"))
        #expect(lines.allSatisfy { $0.contains("\"type\":\"frame\",\"conn\":1,\"dir\":\"s2c\",\"src\":\"\(host.contains(":") ? "[\(host)]" : host):\(port)\"") })
    }

    @Test(.timeLimit(.minutes(1)))
    func badLinesAreReportedWithTheirLineAndSkipped() throws {
        let (listener, port) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { listener.close() }
        let good = try FrameEncoder(format: .h12).encode(fields: ["cmd": 1], body: [1])
        let server = TestThread {
            let connection = try listener.accept()
            defer { connection.close() }
            #expect(try connection.receiveAll() == good + good)
        }
        let input = """
        {"fields":{"cmd":1},"body_hex":"01"}
        {"fields":{"cmd":1},"body_hex":"0"}
        {"fields":{"cmd":true}}
        {"fields":{"nope":1}}
        {"body":"x"}
        not json
        {"fields":{"cmd":1},"body_hex":"01"}
        """
        let connect = try LiveProcess(["connect", "127.0.0.1:\(port)", "--format", "h12"], input: Data(input.utf8))
        #expect(try connect.waitForExit() == 2)
        try server.join()
        let errors = connect.stderr.split(separator: "\n").filter { $0.hasPrefix("<stdin>:") }
        #expect(errors.map { $0.prefix(10) } == ["<stdin>:2:", "<stdin>:3:", "<stdin>:4:", "<stdin>:5:", "<stdin>:6:"])
        #expect(errors[0].contains("even number of hex digits"))
        #expect(errors[2].contains("no field named 'nope'"))
        #expect(errors[3].contains("unknown key 'body'"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aRefusedConnectionIsAnError() throws {
        let (placeholder, deadPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        placeholder.close()
        let result = try FrameDumpProcess.run(["connect", "127.0.0.1:\(deadPort)", "--format", "h12"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("connect: Connection refused"))
    }
}
