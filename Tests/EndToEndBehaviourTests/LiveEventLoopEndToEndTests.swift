import FrameCodec
import Foundation
import TestSupport
import Testing

/// The live commands' event-loop backend, chosen with `FRAMEDUMP_EVENT_LOOP`: each backend named
/// is the one that runs (the command says so), and the run CI makes with `poll` (.ci/run) really
/// runs on poll.
@Suite struct LiveEventLoopEndToEndTests {
    /// `listen` on `backend` decodes a client's frame and says which backend served it.
    @Test(.timeLimit(.minutes(1)), arguments: ["epoll", "poll"])
    func theBackendNamedIsTheOneThatRuns(backend: String) throws {
        let listen = try LiveProcess(["listen", "0", "--format", "h12", "--json"], environment: ["FRAMEDUMP_EVENT_LOOP": backend])
        let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: try listen.listeningPort())
        try socket.send(try FrameEncoder(format: .h12).encode(fields: ["cmd": 1], body: [1, 2]))
        socket.close()
        try listen.waitForStandardError(containing: "conn 1 closed")
        #expect(try listen.stop() == 0)
        #expect(listen.stderr.hasPrefix("framedump listen: event loop: \(backend) (FRAMEDUMP_EVENT_LOOP)\n"), "\(listen.stderr)")
        #expect(listen.stdout.split(separator: "\n").count == 1, "the frame is decoded: \(listen.stdout)")
    }

    /// The backend of this test run: when the environment names one (CI's second run of the live
    /// suites), every live command reports running on it; otherwise none reports a choice.
    @Test(.timeLimit(.minutes(1)))
    func thisRunUsesTheBackendTheEnvironmentNames() throws {
        let chosen = ProcessInfo.processInfo.environment["FRAMEDUMP_EVENT_LOOP"]
        let (listener, port) = try LoopbackSocket.listen(on: "127.0.0.1")
        defer { listener.close() }
        let server = TestThread { try listener.accept().close() }
        let runs = [
            ("listen", try LiveProcess(["listen", "0", "--format", "h12"])),
            ("proxy", try LiveProcess(["proxy", "0", "127.0.0.1:\(port)", "--format", "h12"])),
        ]
        let connect = try LiveProcess(["connect", "127.0.0.1:\(port)", "--format", "h12"])
        #expect(try connect.waitForExit() == 0, "\(connect.stderr)")
        try server.join()
        for (_, process) in runs {
            _ = try process.listeningPort()
            #expect(try process.stop() == 0)
        }
        for (name, process) in runs + [("connect", connect)] {
            if let chosen {
                #expect(process.stderr.contains("framedump \(name): event loop: \(chosen) (FRAMEDUMP_EVENT_LOOP)\n"), "\(process.stderr)")
            } else {
                #expect(!process.stderr.contains("event loop:"), "\(process.stderr)")
            }
        }
    }

    @Test func anUnknownBackendIsAUsageError() throws {
        for command in [["listen", "0"], ["connect", "127.0.0.1:1"], ["proxy", "0", "127.0.0.1:1"]] {
            let result = try FrameDumpProcess.run(command + ["--format", "h12"], environment: ["FRAMEDUMP_EVENT_LOOP": "kqueue"])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("framedump \(command[0]): invalid FRAMEDUMP_EVENT_LOOP 'kqueue': expected epoll or poll\n"), "\(result.stderr)")
        }
    }
}
