import CNetworkNamespace
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A network namespace of a test's own (network_namespaces(7)), holding only a loopback
/// interface, up.
///
/// A capture on the machine's `lo` sees every program's loopback traffic, and part of it counts
/// even with a filter on the test's own port: the kernel hands the capture socket packets from the
/// moment it opens until the filter is set, and libpcap's "packets received by filter" counts
/// them (an idle capture once reported 46). Other test suites running in parallel, another build's
/// servers, anything on the machine can make that traffic. In a namespace of its own, a test's
/// traffic is the only traffic.
///
/// A namespace belongs to a thread, not to the process: ``run(_:)`` runs its body on a new thread
/// that has joined the namespace, so the sockets the body opens and the processes it starts are in
/// the namespace, and stay there whichever thread uses them later; the test's own thread never
/// changes namespace. The namespace lives while this value holds its descriptor, or something
/// inside it (a socket, a process) is alive. Making one needs CAP_SYS_ADMIN (root).
package final class PrivateNetwork: Sendable {
    /// An open `/proc/…/ns/net` of the namespace, to join it by and to keep it alive.
    private let namespace: Int32

    /// Makes a namespace and brings its `lo` up.
    ///
    /// - Throws: `LoopbackSocket.Failure` naming the system call that failed (`unshare` fails with
    ///   EPERM without CAP_SYS_ADMIN).
    package init() throws {
        namespace = try Self.onNewThread {
            guard unshare(FRAMEDUMP_CLONE_NEWNET) == 0 else { throw LoopbackSocket.Failure(call: "unshare(CLONE_NEWNET)", code: errno) }
            try Self.bringLoopbackUp()
            let descriptor = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw LoopbackSocket.Failure(call: "open /proc/thread-self/ns/net", code: errno) }
            return descriptor
        }
    }

    deinit { close(namespace) }

    /// Whether this machine lets a test make one (tried once).
    package static let canBeCreated = (try? PrivateNetwork()) != nil

    /// Runs `body` inside the namespace and returns what it returns.
    ///
    /// - Throws: What `body` throws; `LoopbackSocket.Failure` when the thread cannot join.
    package func run<Value>(_ body: () throws -> Value) throws -> Value {
        try Self.onNewThread { [namespace] in
            guard setns(namespace, FRAMEDUMP_CLONE_NEWNET) == 0 else { throw LoopbackSocket.Failure(call: "setns", code: errno) }
            return try body()
        }
    }

    /// A TCP server on 127.0.0.1 inside the namespace, on a port the system chose.
    package func listen() throws -> (socket: LoopbackSocket, port: UInt16) {
        let (socket, port) = try run { try LoopbackSocket.listen(on: "127.0.0.1") }
        return (socket, port)
    }

    /// A conversation for a capture to see: connects to `server` from inside the namespace, sends
    /// each of `messages` with its own `send(2)`, 10 ms apart (separate segments), half-closes,
    /// and has the server read everything before both ends close, so the connection ends with
    /// FINs rather than a reset.
    package func converse(with server: (socket: LoopbackSocket, port: UInt16), sending messages: [[UInt8]]) throws {
        let client = try run { try LoopbackSocket.connect(to: "127.0.0.1", port: server.port) }
        defer { client.close() }
        let accepted = try server.socket.accept()
        defer { accepted.close() }
        for message in messages {
            try client.send(message)
            usleep(10_000)
        }
        client.shutdownWrite()
        _ = try accepted.receiveAll()
    }

    /// SIOCSIFFLAGS with IFF_UP on `lo` (netdevice(7)): a new namespace's `lo` starts down.
    private static func bringLoopbackUp() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackSocket.Failure(call: "socket", code: errno) }
        defer { close(descriptor) }
        var request = ifreq()
        withUnsafeMutableBytes(of: &request.ifr_ifrn.ifrn_name) { $0.copyBytes(from: "lo".utf8) }
        guard ioctl(descriptor, UInt(SIOCGIFFLAGS), &request) == 0 else { throw LoopbackSocket.Failure(call: "SIOCGIFFLAGS lo", code: errno) }
        request.ifr_ifru.ifru_flags |= Int16(IFF_UP)
        guard ioctl(descriptor, UInt(SIOCSIFFLAGS), &request) == 0 else { throw LoopbackSocket.Failure(call: "SIOCSIFFLAGS lo", code: errno) }
    }

    /// Runs `body` on a thread of its own, which ends with it (and takes any namespace it joined
    /// along), and returns what `body` returned or throws what it threw.
    private static func onNewThread<Value>(_ body: () throws -> Value) throws -> Value {
        try withoutActuallyEscaping(body) { body in
            let handoff = Handoff(body)
            try TestThread { handoff.run() }.join()
            return try handoff.outcome!.get()
        }
    }

    /// A body and its outcome, passed to another thread and back. The caller waits for that
    /// thread to finish `run` before it reads the outcome, so the two threads never use it at once.
    private final class Handoff<Value>: @unchecked Sendable {
        private var body: (() throws -> Value)?
        private(set) var outcome: Result<Value, any Error>?

        init(_ body: @escaping () throws -> Value) { self.body = body }

        /// Runs the body and lets go of it: it must not outlive the caller's
        /// `withoutActuallyEscaping`, and the thread object may be freed later than that.
        func run() {
            outcome = Result { try body!() }
            body = nil
        }
    }
}
