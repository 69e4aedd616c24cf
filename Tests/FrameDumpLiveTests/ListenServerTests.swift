import Foundation
import PacketDecoding
import TestSupport
import Testing
@testable import FrameDumpLive

/// ``ListenServer`` used as a library, without the CLI: a client's bytes come out as events
/// (in order, with their offsets), and the owner's replies go back to the client.
@Suite struct ListenServerTests {
    /// What the test saw of the server's events, in order.
    enum Seen: Equatable {
        case listening
        case opened(Int)
        case received(Int, StreamDirection, [UInt8], UInt64)
        case streamEnded(Int, StreamDirection)
        case closed(Int, clientToServer: UInt64, serverToClient: UInt64, clean: Bool)
    }

    @Test(.timeLimit(.minutes(1)), arguments: EventLoopBackend.allCases.filter(\.isAvailable))
    func aClientsBytesAreEventsAndRepliesGoBack(backend: EventLoopBackend) throws {
        var seen: [Seen] = []
        var client: TestThread?
        let echoed = Locked([UInt8]())
        var server: ListenServer?
        server = try ListenServer(HostPort(host: "127.0.0.1", port: 0), backend: backend, bufferLimit: 1 << 20) { event in
            switch event {
            case .listening(let address):
                seen.append(.listening)
                client = TestThread {
                    let socket = try LoopbackSocket.connect(to: "127.0.0.1", port: address.port)
                    defer { socket.close() }
                    try socket.send(Array("hello ".utf8))
                    // Wait for the reply before the next bytes, so they arrive as a second read.
                    var reply = try socket.receive()
                    try socket.send(Array("world".utf8))
                    socket.shutdownWrite()
                    reply += try socket.receiveAll()
                    echoed.withLock { $0 = reply }
                }
            case .opened(let connection, _, _):
                seen.append(.opened(connection))
            case .received(let connection, let direction, let bytes, let offset, _):
                seen.append(.received(connection, direction, Array(bytes), offset))
                server?.send(Array(bytes.reversed()), toConnection: connection)
            case .streamEnded(let connection, let direction, _):
                seen.append(.streamEnded(connection, direction))
            case .closed(let connection, let clientToServer, let serverToClient, let reason):
                seen.append(.closed(connection, clientToServer: clientToServer, serverToClient: serverToClient, clean: reason == nil))
                server?.stop()
            default:
                break
            }
        }
        try server?.run {}
        try client?.join()
        #expect(seen == [
            .listening, .opened(1),
            .received(1, .clientToServer, Array("hello ".utf8), 0),
            .received(1, .clientToServer, Array("world".utf8), 6),
            .streamEnded(1, .clientToServer),
            .closed(1, clientToServer: 11, serverToClient: 11, clean: true),
        ])
        #expect(echoed.withLock { $0 } == Array(" olleh".utf8) + Array("dlrow".utf8))
        #expect(server?.connectionCount == 1)
        server = nil
    }
}
