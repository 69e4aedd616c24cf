import Foundation
import TestSupport
import Testing
@testable import FrameDumpLive

/// ``AcceptLoop``'s episodes of running out of descriptors, on real loopback accepts: only a
/// connection accepted after the episode began ends it. (A proxy client accepted just before
/// could finish its upstream connect during the episode; CI once saw that end the episode
/// early and the next refusal report a second one.)
@Suite struct AcceptLoopTests {
    /// The accept events, as the test compares them.
    enum Seen: Equatable {
        case stalled(Int32)
        case resumed(refused: Int)
    }

    final class Harness {
        var seen: [Seen] = []
        var accepted: [(number: Int, socket: Socket)] = []
        var clients: [LoopbackSocket] = []
        var core: AcceptLoop!

        init() throws {
            core = try AcceptLoop(HostPort(host: "127.0.0.1", port: 0), backend: .poll, report: { [unowned self] event in
                switch event {
                case .acceptStalled(let error): seen.append(.stalled(error.code))
                case .acceptResumed(let refused): seen.append(.resumed(refused: refused))
                default: break
                }
            }, onAccept: { [unowned self] number, socket, _ in
                accepted.append((number, socket))
                core.stop()
            })
        }

        /// Connects a client and serves the loop until it is accepted; returns its number.
        func acceptClient() throws -> Int {
            clients.append(try LoopbackSocket.connect(to: "127.0.0.1", port: core.address.endpoint.port))
            let before = accepted.count
            core.loop.schedule(after: 5_000) { [unowned self] in core.stop() }
            while accepted.count == before { try core.loop.run {} }
            return accepted.last!.number
        }

        func close() {
            for (_, socket) in accepted { socket.close() }
            for client in clients { client.close() }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func onlyAConnectionAcceptedAfterTheEpisodeBeganEndsIt() throws {
        let harness = try Harness()
        defer { harness.close() }
        let core = harness.core!
        let early = try harness.acceptClient()
        let refused = try harness.acceptClient()
        #expect((early, refused) == (1, 2))

        core.refused(1, outOfDescriptors: SocketError("socket", code: EMFILE))
        core.connectionKept(early)
        core.refused(1, outOfDescriptors: SocketError("socket", code: EMFILE))
        #expect(harness.seen == [.stalled(EMFILE)], "a connection accepted before the episode does not end it")

        let late = try harness.acceptClient()
        core.connectionKept(late)
        core.connectionKept(late)
        #expect(harness.seen == [.stalled(EMFILE), .resumed(refused: 2)])

        core.refused(3, outOfDescriptors: SocketError("accept", code: ENFILE))
        core.connectionKept(late)
        let next = try harness.acceptClient()
        core.connectionKept(next)
        #expect(harness.seen == [.stalled(EMFILE), .resumed(refused: 2), .stalled(ENFILE), .resumed(refused: 3)])
    }
}
