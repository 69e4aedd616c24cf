import FrameCodec
import Foundation
import TestSupport
import Testing

/// The live commands under stress (issue 11, items 10–15): running out of descriptors, a client
/// that does not read its replies, partial frames over the framing budget, a stdout reader that
/// goes away or never reads, and `--respond`'s ids. Loopback only; every wait is bounded.
@Suite(.serialized) struct LiveModesEndToEndTests {
    static let encoder = FrameEncoder(format: .h12)

    // MARK: - What /proc says about the process under test

    /// User plus system CPU time of `pid`, in clock ticks (`/proc/PID/stat` fields 14 and 15).
    static func cpuTicks(_ pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }

    /// The resident set of `pid`, in KiB (`VmRSS` in `/proc/PID/status`).
    static func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }!
        return Int(line.split(separator: " ")[1])!
    }

    /// Waits until `pid` sits in a `write(2)` to standard output (a pipe nobody reads): the
    /// kernel's wait channel is the pipe's, or `/proc/PID/syscall` shows write (1 on x86-64) on fd 1.
    static func waitUntilBlockedOnStandardOutput(_ pid: Int32) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            let syscall = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
            if wchan.contains("pipe_write") || syscall.hasPrefix("1 0x1 ") { return }
            usleep(20_000)
        }
        throw BlockedOutputTimeout()
    }

    struct BlockedOutputTimeout: Error {}

    /// Waits (up to 5 s) until no thread of `pid` has `signal` pending (the `SigPnd` and
    /// `ShdPnd` masks of /proc/PID/status and of each task, proc(5)): the kernel has begun to
    /// deliver it. A second one sent earlier, while the first still waits for a thread to run
    /// (a loaded machine), merges into it: standard signals do not queue.
    static func waitUntilDelivered(_ signal: Int32, to pid: Int32) {
        let bit = UInt64(1) << UInt64(signal - 1)
        func isPending(_ status: String) -> Bool {
            status.split(separator: "\n").contains { line in
                guard line.hasPrefix("SigPnd:") || line.hasPrefix("ShdPnd:"),
                      let mask = line.split(separator: "\t").last.flatMap({ UInt64($0, radix: 16) }) else { return false }
                return mask & bit != 0
            }
        }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            let paths = ["/proc/\(pid)/status"] + tasks.map { "/proc/\(pid)/task/\($0)/status" }
            if !paths.contains(where: { isPending((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "") }) { return }
            usleep(1_000)
        }
    }

    static func occurrences(of text: String, in string: String) -> Int {
        string.components(separatedBy: text).count - 1
    }

    /// `count` h12 frames of `bodyLength` bytes each, as one buffer.
    static func frames(_ count: Int, bodyLength: Int, command: UInt64 = 3) throws -> [UInt8] {
        let frame = try encoder.encode(fields: ["cmd": command], body: [UInt8](repeating: 0x41, count: bodyLength))
        return Array([[UInt8]](repeating: frame, count: count).joined())
    }

    // MARK: - 10: accept() out of descriptors

    /// An upstream for the proxy: accepts every connection and reads it to its end, then closes.
    final class SinkServer: @unchecked Sendable {
        let listener: LoopbackSocket
        let port: UInt16
        private var acceptor: TestThread?

        init() throws {
            (listener, port) = try LoopbackSocket.listen(on: "127.0.0.1")
            acceptor = TestThread { [listener] in
                // Ends when the listener is closed (accept fails).
                while let connection = try? listener.accept() {
                    _ = TestThread {
                        _ = try? connection.receiveAll()
                        connection.close()
                    }
                }
            }
        }

        func stop() throws {
            shutdown(listener.descriptor, Int32(SHUT_RDWR))
            try acceptor?.join()
            listener.close()
        }
    }

    /// With `ulimit -n 16`, `listen` and `proxy` run out of descriptors after a few clients:
    /// every further client is closed at once (it reads end of stream, not a hang), the episode
    /// is reported once, the process does not spin, and once clients leave it keeps one again.
    /// (The proxy runs out at accept or at its upstream socket, depending on how many
    /// descriptors its backend takes; the episode is the same.)
    @Test(.timeLimit(.minutes(1)), arguments: ["listen", "proxy"])
    func runningOutOfDescriptorsRefusesClientsOnceWithoutSpinningAndRecovers(command: String) throws {
        let upstream = try SinkServer()
        defer { try? upstream.stop() }
        let arguments = command == "listen" ? ["listen", "0"] : ["proxy", "0", "127.0.0.1:\(upstream.port)"]
        let live = try LiveProcess(
            arguments + ["--format", "h12", "--json"],
            wrapper: ["/bin/sh", "-c", "ulimit -n 16 && exec \"$@\"", "sh"]
        )
        let port = try live.listeningPort()
        let stalled = "Too many open files; closing new connections at once until descriptors free up"
        let keptLine = command == "listen" ? " from 127.0.0.1:" : " open\n"
        var clients: [LoopbackSocket] = []
        while !live.stderr.contains(stalled), clients.count < 32 {
            clients.append(try LoopbackSocket.connect(to: "127.0.0.1", port: port))
            usleep(30_000)
        }
        try live.waitForStandardError(containing: stalled)
        usleep(200_000)
        let kept = Self.occurrences(of: keptLine, in: live.stderr)
        #expect(kept >= 1 && kept < clients.count, "some clients kept, the last refused: \(live.stderr)")

        // While descriptors are out, a client is closed at once, and the loop stays idle.
        for _ in 0..<5 {
            let refused = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
            #expect(try refused.receive().isEmpty, "a refused client reads end of stream")
            refused.close()
        }
        let before = try Self.cpuTicks(live.processIdentifier)
        sleep(1)
        let spent = try Self.cpuTicks(live.processIdentifier) - before
        #expect(spent < 20, "\(spent) clock ticks of CPU in one idle second: accept is spinning")
        #expect(Self.occurrences(of: stalled, in: live.stderr) == 1, "one message per episode: \(live.stderr)")
        #expect(!live.stderr.contains("cannot connect to upstream"), "no message per refused client: \(live.stderr)")

        // Clients leave; the next one is kept and decoded.
        for client in clients { client.close() }
        let closedCount = { Self.occurrences(of: " closed: ", in: live.stderr) }
        let deadline = Date().addingTimeInterval(10)
        while closedCount() < kept, Date() < deadline { usleep(20_000) }
        #expect(closedCount() == kept, "every kept client's connection closed: \(live.stderr)")
        let late = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
        try late.send(try Self.encoder.encode(fields: ["cmd": 1], body: [7]))
        late.shutdownWrite()
        _ = try late.receiveAll()
        late.close()
        let refusedCount = clients.count - kept + 5
        try live.waitForStandardError(containing: "accepting connections again (\(refusedCount) connections closed at once)")
        while closedCount() < kept + 1, Date() < deadline.addingTimeInterval(10) { usleep(20_000) }
        #expect(try live.stop() == 0)
        #expect(live.stdout.split(separator: "\n").count == 1, "the late client's frame: \(live.stdout)")
    }

    // MARK: - 11: listen --respond backpressure

    /// A client that sends pings without reading the pongs: `listen --respond` stops reading it
    /// once `--max-buffer` bytes of replies wait (the client's sends stall, the server's memory
    /// stays put), and once the client reads, every ping gets its pong.
    @Test(.timeLimit(.minutes(2)))
    func respondStopsReadingAClientThatDoesNotReadItsReplies() throws {
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--respond", "--max-buffer", "64K", "--json", "--payload", "none"])
        let port = try listen.listeningPort()
        let baseline = try Self.residentKiB(listen.processIdentifier)
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
        defer { socket.close() }
        let batch = try Self.frames(64, bodyLength: 4096, command: 1)
        let batches = 192   // 48 MiB of pings: more than loopback's socket buffers hold
        let sent = Locked(0)
        let sender = TestThread {
            for _ in 0..<batches {
                try socket.send(batch)
                sent.withLock { $0 += batch.count }
            }
            socket.shutdownWrite()
        }
        // Wait for the sends to stall: no progress for a second.
        var last = -1
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let now = sent.withLock { $0 }
            if now == last { break }
            last = now
            sleep(1)
        }
        #expect(last < batches * batch.count, "the client's sends stall: the server stopped reading it")
        let resident = try Self.residentKiB(listen.processIdentifier)
        #expect(resident - baseline < 32 * 1024, "replies held: \(resident - baseline) KiB more than at start")

        var decoder = FrameDecoder(format: .h12)
        var pongs = 0
        try socket.receiveAll { chunk in
            decoder.process(chunk) { output in
                if case .frame(let frame) = output, FrameFormat.h12.value(ofField: "cmd", in: frame.header) == 2 { pongs += 1 }
            }
        }
        try sender.join()
        #expect(pongs == batches * 64, "every ping answered once the client reads")
        try listen.waitForStandardError(containing: "conn 1 closed")
        #expect(try listen.stop() == 0)
    }

    // MARK: - 12: --max-buffered and --max-frame-length in the live commands

    /// `listen` takes decode's framing bounds, with decode's events: partial frames over
    /// `--max-buffered` make the oldest one `truncated` after a `limit` line, and a length over
    /// `--max-frame-length` is `oversize`.
    @Test(.timeLimit(.minutes(1)))
    func listenBoundsPartialFramesAndFrameLengthAsDecodeDoes() throws {
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--json", "--payload", "none",
                                      "--max-buffered", "1K", "--max-frame-length", "64K"])
        let port = try listen.listeningPort()
        let partial = Array(try Self.frames(1, bodyLength: 10_000).prefix(612))
        var sockets: [LoopbackSocket] = []
        for number in 1...2 {
            let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
            try listen.waitForStandardError(containing: "conn \(number) from")
            try socket.send(partial)
            sockets.append(socket)
            usleep(100_000)
        }
        let oversize = try LoopbackSocket.connect(to: "127.0.0.1", port: port)
        try oversize.send(Array(try Self.frames(1, bodyLength: 100_000).prefix(12)))
        try listen.waitForStandardOutput(containing: "\"type\":\"oversize\",\"conn\":3,")
        try listen.waitForStandardOutput(containing: "\"limit\":\"buffered_bytes_total\"")
        oversize.close()
        for socket in sockets { socket.close() }
        try listen.waitForStandardError(containing: "conn 3 closed")
        #expect(try listen.stop() == 2)
        let lines = listen.stdout.split(separator: "\n").map(String.init)
        let limit = try #require(lines.firstIndex { $0.contains("\"type\":\"limit\",\"conn\":1,") && $0.contains("buffered_bytes_total") })
        #expect(lines[limit + 1].hasPrefix("{\"type\":\"truncated\",\"conn\":1,"), "the oldest partial frame follows the limit line")
        #expect(lines.contains { $0.contains("\"type\":\"oversize\",\"conn\":3,") && $0.contains("\"declared\":100000") })
    }

    /// `proxy` and `connect` take the same bounds with the same events.
    @Test(.timeLimit(.minutes(1)))
    func proxyAndConnectBoundFramesAsDecodeDoes() throws {
        let (upstream, upstreamPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { upstream.close() }
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(upstreamPort)", "--format", "h12", "--json", "--max-frame-length", "1K"])
        let client = try LoopbackSocket.connect(to: "127.0.0.1", port: try proxy.listeningPort())
        try client.send(Array(try Self.frames(1, bodyLength: 5000).prefix(12)))
        try proxy.waitForStandardOutput(containing: "\"type\":\"oversize\",\"conn\":1,\"dir\":\"c2s\"")
        client.close()
        #expect(try proxy.stop() == 2)

        // A server of its own: the proxy's upstream connection is still queued on `upstream`.
        let (server, serverPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { server.close() }
        let serving = TestThread {
            let connection = try server.accept()
            try connection.send(Array(try Self.frames(1, bodyLength: 10_000).prefix(612)))
            _ = try connection.receiveAll()
            connection.close()
        }
        let connect = try LiveProcess(["connect", "127.0.0.1:\(serverPort)", "--format", "h12", "--json", "--max-buffered", "512"])
        #expect(try connect.waitForExit() == 2)
        try serving.join()
        let lines = connect.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(connect.stdout)")
        #expect(lines.first?.contains("\"type\":\"limit\",\"conn\":1,\"dir\":\"s2c\"") == true && lines.first?.contains("buffered_bytes_total") == true)
        #expect(lines.last?.hasPrefix("{\"type\":\"truncated\",\"conn\":1,\"dir\":\"s2c\"") == true)
    }

    // MARK: - 13: the proxy's stdout reader goes away

    /// `proxy … | head -1`: once standard output's reader is gone, the proxy says so once and
    /// keeps relaying; the client gets every byte back and a clean close, never a truncation.
    @Test(.timeLimit(.minutes(1)))
    func proxyKeepsRelayingWhenItsOutputReaderGoesAway() throws {
        let server = try ProxyEndToEndTests.EchoServer(host: "127.0.0.1", connections: 1)
        let proxy = try LiveProcess(["proxy", "0", "127.0.0.1:\(server.port)", "--format", "h12", "--json"], stdoutPipe: true)
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try proxy.listeningPort())
        defer { socket.close() }
        let first = try Self.frames(1, bodyLength: 10)
        try socket.send(first)
        let output = proxy.outputPipe!.fileHandleForReading
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) { printed += output.availableData }
        try output.close()

        let rest = try Self.frames(3000, bodyLength: 100)
        let echoed = Locked([UInt8]())
        let reader = TestThread { let bytes = try socket.receiveAll(); echoed.withLock { $0 = bytes } }
        try socket.send(rest)
        socket.shutdownWrite()
        try reader.join()
        try server.join()
        #expect(echoed.withLock { $0 } == first + rest, "every byte relayed both ways")
        let total = first.count + rest.count
        try proxy.waitForStandardError(containing: "conn 1 closed: c2s \(total) bytes, s2c \(total) bytes")
        let notice = "framedump proxy: standard output closed: relaying goes on without decoding or printing"
        #expect(Self.occurrences(of: notice, in: proxy.stderr) == 1, "\(proxy.stderr)")
        #expect(try proxy.stop() == 0)
        #expect(proxy.stderr.contains("framedump proxy: 1 connection"))
    }

    // MARK: - 14: signals while standard output is blocked

    /// Each live command, its standard output a pipe nobody reads and full, stops within a
    /// second of SIGINT or SIGTERM, and at once on a second SIGINT.
    @Test(.timeLimit(.minutes(2)), arguments: ["listen", "connect", "proxy"], [[SIGINT], [SIGTERM], [SIGINT, SIGINT]])
    func signalsStopALiveCommandWhoseOutputIsBlocked(command: String, signals: [Int32]) throws {
        let (peer, peerPort) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { peer.close() }
        let flood = try Self.frames(5000, bodyLength: 16)
        let arguments: [String]
        switch command {
        case "listen": arguments = ["listen", "0"]
        case "connect": arguments = ["connect", "127.0.0.1:\(peerPort)"]
        default: arguments = ["proxy", "0", "127.0.0.1:\(peerPort)"]
        }
        let process = try LiveProcess(arguments + ["--format", "h12", "--json"], stdoutPipe: true)
        var sockets: [LoopbackSocket] = []
        defer { for socket in sockets { socket.close() } }
        if command == "connect" {
            let connection = try peer.accept()
            sockets.append(connection)
            try connection.send(flood)
        } else {
            let client = try LoopbackSocket.connect(to: "127.0.0.1", port: try process.listeningPort())
            sockets.append(client)
            try client.send(flood)
        }
        try Self.waitUntilBlockedOnStandardOutput(process.processIdentifier)

        let started = Date()
        for signal in signals {
            kill(process.processIdentifier, signal)
            Self.waitUntilDelivered(signal, to: process.processIdentifier)
        }
        let status = try process.waitForExit(timeout: 5)
        let elapsed = Date().timeIntervalSince(started)
        let limit = signals.count > 1 ? 1.0 : 2.0
        #expect(elapsed < limit, "stopped \(elapsed) s after the signal")
        #expect(status == 128 + signals[0])
        let why = signals.count > 1 ? "second signal" : "not stopped within a second of the signal"
        #expect(process.stderr.contains("framedump: stopped: \(why)"), "\(process.stderr)")
    }

    // MARK: - 15: --respond ids

    /// A msg body is one JSON document: whitespace around it does not hide the id; only an exact
    /// whole number is an id (`6.9999999999999999999` is not 7: the ack carries the body length).
    @Test(.timeLimit(.minutes(1)))
    func respondReadsIDsOfWholeJSONDocumentsAndExactIntegersOnly() throws {
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--respond"])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try listen.listeningPort())
        defer { socket.close() }
        let bodies = [" {\"id\":8}", "{\"id\":8}\r\n", "{\"id\":6.9999999999999999999}", "{\"id\":70e-1}"]
        for body in bodies {
            try socket.send(try Self.encoder.encode(fields: ["cmd": 3], body: Array(body.utf8)))
        }
        let acks = try ListenEndToEndTests.receiveFrames(socket, count: bodies.count)
        let ids = acks.map { $0.body.reduce(0) { $0 << 8 | UInt32($1) } }
        #expect(ids == [8, 8, UInt32(bodies[2].utf8.count), 7])
        #expect(try listen.stop() == 0)
    }
}
