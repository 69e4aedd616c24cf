import FrameCodec
import Foundation
import TestSupport
import Testing

/// `framedump listen`: decoding what clients send, and `--respond`'s pongs and acks.
@Suite struct ListenEndToEndTests {
    /// Reads frames from `socket` until `count` have arrived (or the stream ends).
    static func receiveFrames(_ socket: LoopbackSocket, count: Int) throws -> [Frame] {
        var decoder = FrameDecoder(format: .h12)
        var frames: [Frame] = []
        while frames.count < count {
            let chunk = try socket.receive()
            if chunk.isEmpty { break }
            decoder.process(chunk) { output in
                if case .frame(let frame) = output { frames.append(frame) }
            }
        }
        return frames
    }

    static func command(_ frame: Frame) -> UInt64? { FrameFormat.h12.value(ofField: "cmd", in: frame.header) }

    @Test(.timeLimit(.minutes(1)), arguments: ["127.0.0.1", "::1"])
    func respondAnswersPingsWithPongsAndMsgsWithAcks(host: String) throws {
        let address = host.contains(":") ? "[\(host)]:0" : "\(host):0"
        let listen = try LiveProcess(["listen", address, "--format", "h12", "--respond", "--json"])
        let socket = try LoopbackSocket.connect(to: host, port: try listen.listeningPort())
        defer { socket.close() }
        let encoder = FrameEncoder(format: .h12)
        let nonce: [UInt8] = [0, 0, 1, 0x93, 0x7E, 0x3A, 0xC4, 0xE8]
        try socket.send(
            try encoder.encode(fields: ["ver": 1, "cmd": 1], body: nonce)
                + encoder.encode(fields: ["ver": 1, "cmd": 3], body: Array(#"{"id":4000000000,"text":"hi"}"#.utf8))
                + encoder.encode(fields: ["ver": 1, "cmd": 3], body: Array("no id here".utf8))
                + encoder.encode(fields: ["ver": 1, "cmd": 9], body: [1, 2, 3])
        )
        let replies = try Self.receiveFrames(socket, count: 3)
        #expect(replies.map(Self.command) == [2, 4, 4])
        #expect(replies.allSatisfy { $0.crcOK == true }, "replies carry a correct CRC-32")
        #expect(replies.allSatisfy { FrameFormat.h12.value(ofField: "ver", in: $0.header) == 1 }, "the request's version is kept")
        #expect(Array(replies[0].body) == nonce, "pong carries the ping's body")
        #expect(Array(replies[1].body) == [0xEE, 0x6B, 0x28, 0x00], "ack carries the msg id, u32 big-endian")
        #expect(Array(replies[2].body) == [0, 0, 0, 10], "without an id, the body length")
        socket.shutdownWrite()
        #expect(try socket.receiveAll().isEmpty, "cmd 9 is not answered; the server closes after the client")

        try listen.waitForStandardError(containing: "conn 1 closed")
        #expect(try listen.stop() == 0)
        let lines = listen.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.contains("\"conn\":1,\"dir\":\"c2s\",\"src\":\"") && $0.contains("\"ts\":\"") })
    }

    @Test(.timeLimit(.minutes(1)))
    func respondMapChangesTheCommandNumbers() throws {
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--respond", "--respond-map", "10:11,20:21"])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try listen.listeningPort())
        defer { socket.close() }
        let encoder = FrameEncoder(format: .h12)
        try socket.send(
            try encoder.encode(fields: ["cmd": 1], body: [1])
                + encoder.encode(fields: ["cmd": 10], body: [7, 7])
                + encoder.encode(fields: ["cmd": 20], body: Array(#"{"id":5}"#.utf8))
        )
        let replies = try Self.receiveFrames(socket, count: 2)
        #expect(replies.map(Self.command) == [11, 21])
        #expect(Array(replies[0].body) == [7, 7])
        #expect(Array(replies[1].body) == [0, 0, 0, 5])
        #expect(try listen.stop(SIGINT) == 0)
        #expect(listen.stdout.contains("3 frames"), "the text summary is printed on SIGINT")
        #expect(listen.stderr.contains("framedump listen: 1 connection, 3 frames"), "\(listen.stderr)")
    }

    @Test(.timeLimit(.minutes(1)))
    func eachConnectionHasItsOwnDecoderAndNumber() throws {
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--json", "--payload", "none"])
        let port = try listen.listeningPort()
        let encoder = FrameEncoder(format: .h12)
        let frame = try encoder.encode(fields: ["cmd": 3], body: [1, 2, 3, 4])
        // The first connection's frame is cut in two around the second connection's frame.
        let first = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
        try first.send(Array(frame.prefix(5)))
        try listen.waitForStandardError(containing: "conn 1 from")
        let second = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
        try second.send(frame + Array(frame.prefix(3)))
        try listen.waitForStandardError(containing: "conn 2 from")
        try first.send(Array(frame.dropFirst(5)))
        first.close()
        second.close()
        try listen.waitForStandardError(containing: "conn 2 closed")
        try listen.waitForStandardError(containing: "conn 1 closed")
        #expect(try listen.stop() == 2, "the 3-byte tail of connection 2 is truncated")
        let lines = listen.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("\"conn\":1,") } .count == 1)
        #expect(lines.filter { $0.contains("\"conn\":2,") && $0.contains("\"type\":\"frame\"") }.count == 1)
        #expect(lines.contains { $0.contains("\"type\":\"truncated\",\"conn\":2,") && $0.hasSuffix("\"offset\":16,\"length\":3}") })
    }

    @Test func usageErrors() throws {
        let noFormat = try FrameDumpProcess.run(["listen", "0"])
        #expect(noFormat.status == 1)
        #expect(noFormat.stderr.contains("missing --format"))
        let badMap = try FrameDumpProcess.run(["listen", "0", "--format", "h12", "--respond", "--respond-map", "1:2"])
        #expect(badMap.status == 1)
        #expect(badMap.stderr.contains("expected PING:PONG,MSG:ACK"))
        let noCommandField = try FrameDumpProcess.run(["listen", "0", "--format", "u16", "--respond"])
        #expect(noCommandField.stderr.contains("needs a format with a 'cmd' field"))
        let unbracketed = try FrameDumpProcess.run(["listen", "::1:9000", "--format", "h12"])
        #expect(unbracketed.stderr.contains("put an IPv6 address in brackets"))
    }
}
