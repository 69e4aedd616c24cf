import FrameCodec
import Foundation
import TestSupport
import Testing

/// `framedump proxy` between a real client and server (both in this process, on threads):
/// bytes unchanged both ways, frames counted, half-close, resets and a missing upstream.
@Suite(.serialized) struct ProxyEndToEndTests {
    /// An upstream that echoes every connection: reads, writes back, and at EOF shuts down its
    /// own sending side. What it received per connection is recorded.
    final class EchoServer: @unchecked Sendable {
        let listener: LoopbackSocket
        let port: UInt16
        private let digests = Locked([StreamDigest]())
        /// What each connection received, in the order connections ended.
        var received: [StreamDigest] { digests.withLock { $0 } }
        private var acceptor: TestThread?

        init(host: String, connections: Int) throws {
            (listener, port) = try LoopbackSocket.listen(on: host)
            acceptor = TestThread { [self] in
                var workers: [TestThread] = []
                for _ in 0..<connections {
                    let connection = try listener.accept()
                    workers.append(TestThread { [self] in
                        var digest = StreamDigest()
                        try connection.receiveAll { chunk in
                            digest.add(chunk)
                            try connection.send(chunk)
                        }
                        connection.shutdownWrite()
                        connection.close()
                        digests.withLock { $0.append(digest) }
                    })
                }
                for worker in workers { try worker.join() }
            }
        }

        func join() throws {
            try acceptor?.join()
            listener.close()
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func fiftyConnectionsOfMixedFramesArriveUnchangedAndAreAllDecoded() throws {
        let connections = 50, framesPerConnection = 2000
        let server = try EchoServer(host: "127.0.0.1", connections: connections)
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(server.port)", "--format", "h12", "--json", "--payload", "none"])
        let port = try proxy.listeningPort()
        let started = Date()

        let sent = Locked([StreamDigest](repeating: StreamDigest(), count: connections))
        let echoed = Locked([StreamDigest](repeating: StreamDigest(), count: connections))
        let clients = (0..<connections).map { index in
            TestThread {
                let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
                defer { socket.close() }
                let reader = TestThread {
                    var digest = StreamDigest()
                    try socket.receiveAll { digest.add($0) }
                    echoed.withLock { $0[index] = digest }
                }
                var maker = FrameMaker(seed: UInt64(index))
                var digest = StreamDigest()
                var batch: [UInt8] = []
                for number in 0..<framesPerConnection {
                    // Every connection carries the smallest and the largest body at least once.
                    let length = number == 0 ? 1 : number == 1 ? 256 * 1024 : maker.bodyLength()
                    batch += maker.frame(length: length)
                    if batch.count >= 64 * 1024 || number == framesPerConnection - 1 {
                        try socket.send(batch)
                        digest.add(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                socket.shutdownWrite()
                sent.withLock { $0[index] = digest }
                try reader.join()
            }
        }
        for client in clients { try client.join() }
        try server.join()
        let elapsed = Date().timeIntervalSince(started)
        try proxy.waitForStandardError(containing: "conn \(connections) closed")
        #expect(try proxy.stop() == 0)

        // What each client sent reached the server unchanged, and the echo came back unchanged.
        let key = { (digest: StreamDigest) in "\(digest.byteCount)/\(digest.crc.value)" }
        let sentDigests = sent.withLock { $0 }
        #expect(sentDigests.map(key).sorted() == server.received.map(key).sorted())
        #expect(echoed.withLock { $0 } == sentDigests)
        let totalBytes = sentDigests.reduce(0) { $0 + $1.byteCount }

        let lines = proxy.stdout.split(separator: "\n")
        let frames = lines.filter { $0.hasPrefix("{\"type\":\"frame\"") }.count
        #expect(frames == 2 * connections * framesPerConnection, "one frame per frame sent, both directions")
        #expect(frames == lines.count, "no skip, oversize or truncated events")
        #expect(proxy.stderr.contains("\(connections) connections, \(frames) frames; c2s \(totalBytes) bytes, s2c \(totalBytes) bytes"))
        print("proxy: \(connections) connections × \(framesPerConnection) frames each way, \(totalBytes) bytes each way, \(String(format: "%.1f", elapsed)) s")
    }

    @Test(.timeLimit(.minutes(1)))
    func ipv6ConnectionsAreRelayedAndLabelled() throws {
        let server = try EchoServer(host: "::1", connections: 1)
        let proxy = try LiveProcess(["proxy", "[::1]:0", "[::1]:\(server.port)", "--format", "h12", "--json"])
        let port = try proxy.listeningPort()
        var maker = FrameMaker(seed: 6)
        let bytes = maker.frame(command: 1, length: 8) + [0xDE, 0xAD] + maker.frame(length: 300)
        let socket = try LoopbackSocket.connect(to: "::1", port: port)
        try socket.send(bytes)
        socket.shutdownWrite()
        #expect(try socket.receiveAll() == bytes)
        socket.close()
        try server.join()
        try proxy.waitForStandardError(containing: "conn 1 closed")
        #expect(try proxy.stop() == 2, "the 2 stray bytes are a skip, both ways")
        let lines = proxy.stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.contains("\",\"src\":\"[::1]:") })
        #expect(lines.filter { $0.contains("\"conn\":1,\"dir\":\"c2s\",") }.count == 3)
        #expect(lines.filter { $0.contains("\"conn\":1,\"dir\":\"s2c\",") }.count == 3)
        #expect(lines.filter { $0.contains("\"type\":\"skip\"") }.count == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func halfCloseIsPassedOnAndTheOtherDirectionKeepsFlowing() throws {
        let (listener, upstreamPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { listener.close() }
        var maker = FrameMaker(seed: 7)
        let request = maker.frame(command: 3, length: 40), reply = maker.frame(command: 4, length: 4)
        let server = TestThread {
            let connection = try listener.accept()
            defer { connection.close() }
            // The client's FIN must arrive through the proxy: receiveAll returns only at EOF.
            #expect(try connection.receiveAll() == request)
            try connection.send(reply)
            connection.shutdownWrite()
        }
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(upstreamPort)", "--format", "h12", "--json"])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try proxy.listeningPort())
        defer { socket.close() }
        try socket.send(request)
        socket.shutdownWrite()
        #expect(try socket.receiveAll() == reply, "the reply comes after the client's half-close, then EOF")
        try server.join()
        try proxy.waitForStandardError(containing: "conn 1 closed: c2s \(request.count) bytes, s2c \(reply.count) bytes")
        #expect(try proxy.stop() == 0)
        #expect(proxy.stdout.split(separator: "\n").count == 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func aClientResetMidFrameIsReportedTruncatedAndTheUpstreamClosed() throws {
        let (listener, upstreamPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { listener.close() }
        var maker = FrameMaker(seed: 8)
        let whole = maker.frame(length: 100), partial = Array(maker.frame(length: 100).prefix(50))
        let server = TestThread {
            let connection = try listener.accept()
            defer { connection.close() }
            var received: [UInt8] = []
            // The reset arrives as ECONNRESET or as EOF, depending on timing; either way it ends.
            do {
                try connection.receiveAll { received += $0 }
            } catch let failure as LoopbackSocket.Failure where failure.code == ECONNRESET {}
            #expect(Array(received.prefix(whole.count)) == whole)
        }
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(upstreamPort)", "--format", "h12", "--json"])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try proxy.listeningPort())
        try socket.send(whole + partial)
        try proxy.waitForStandardError(containing: "conn 1 127.0.0.1:")
        usleep(200_000)
        socket.reset()
        try server.join()
        try proxy.waitForStandardError(containing: "upstream connection reset")
        #expect(proxy.stderr.contains("conn 1: client recv: Connection reset by peer"))
        #expect(try proxy.stop() == 2)
        let lines = proxy.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.contains("\"type\":\"truncated\"") == true)
        #expect(lines.last?.hasSuffix("\"offset\":\(whole.count),\"length\":\(partial.count)}") == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func anUpstreamThatRefusesIsReportedAndTheClientClosed() throws {
        // A port that was just free: bound, then closed, so nothing listens there.
        let (placeholder, deadPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        placeholder.close()
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(deadPort)", "--format", "h12"])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try proxy.listeningPort())
        defer { socket.close() }
        #expect(try socket.receiveAll().isEmpty, "the client sees its connection closed")
        try proxy.waitForStandardError(containing: "cannot connect to upstream: Connection refused; client connection closed")
        #expect(try proxy.stop() == 0)
    }
}
