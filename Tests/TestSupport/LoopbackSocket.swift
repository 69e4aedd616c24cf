import FrameCodec
import FrameFuzzing
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket on 127.0.0.1 or ::1 for the live tests' own clients and servers.
///
/// Every blocking call is bounded: sends and receives time out after ``timeout`` seconds
/// (`SO_SNDTIMEO`/`SO_RCVTIMEO`) and throw, so a stuck relay fails the test instead of hanging it.
package struct LoopbackSocket {
    package let descriptor: Int32
    package static let timeout = 30

    package struct Failure: Error, CustomStringConvertible {
        package var call: String
        package var code: Int32
        package var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    /// A listening socket on `host` ("127.0.0.1" or "::1"), any free port.
    package static func listen(on host: String) throws -> (LoopbackSocket, port: UInt16) {
        let socket = try make(host)
        var one: Int32 = 1
        setsockopt(socket.descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        try withAddress(host, port: 0) { address, length in
            guard bind(socket.descriptor, address, length) == 0 else { throw Failure(call: "bind", code: errno) }
        }
        guard Glibc.listen(socket.descriptor, 128) == 0 else { throw Failure(call: "listen", code: errno) }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
        }
        let port = withUnsafeBytes(of: storage) { raw in
            host.contains(":") ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port
        }
        return (socket, UInt16(bigEndian: port))
    }

    /// A connection to `host`:`port`.
    package static func connect(to host: String, port: UInt16) throws -> LoopbackSocket {
        let socket = try make(host)
        try withAddress(host, port: port) { address, length in
            guard Glibc.connect(socket.descriptor, address, length) == 0 else {
                let code = errno
                socket.close()
                throw Failure(call: "connect", code: code)
            }
        }
        socket.setTimeouts()
        return socket
    }

    /// Accepts one connection, waiting at most ``timeout`` seconds.
    package func accept() throws -> LoopbackSocket {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(Self.timeout * 1000)) == 1 else { throw Failure(call: "accept (timed out)", code: ETIMEDOUT) }
        let connection = Glibc.accept(descriptor, nil, nil)
        guard connection >= 0 else { throw Failure(call: "accept", code: errno) }
        let socket = LoopbackSocket(descriptor: connection)
        socket.setTimeouts()
        return socket
    }

    /// Sends every byte.
    package func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let count = Glibc.send(descriptor, raw.baseAddress! + start, raw.count - start, Int32(MSG_NOSIGNAL))
                guard count > 0 else {
                    if errno == EINTR { continue }
                    throw Failure(call: "send", code: errno)
                }
                start += count
            }
        }
    }

    /// Receives up to `maximum` bytes; empty at end of stream.
    package func receive(maximum: Int = 64 * 1024) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count >= 0 { return Array(buffer[..<count]) }
            if errno != EINTR { throw Failure(call: "recv", code: errno) }
        }
    }

    /// Receives until end of stream, passing each chunk to `body`.
    package func receiveAll(_ body: ([UInt8]) throws -> Void) throws {
        while true {
            let chunk = try receive()
            if chunk.isEmpty { return }
            try body(chunk)
        }
    }

    /// Receives until end of stream.
    package func receiveAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        try receiveAll { bytes += $0 }
        return bytes
    }

    /// Sends FIN.
    package func shutdownWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

    package func close() { Glibc.close(descriptor) }

    /// Closes with RST (`SO_LINGER` on, zero timeout).
    package func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    private func setTimeouts() {
        var time = timeval(tv_sec: Self.timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func make(_ host: String) throws -> LoopbackSocket {
        let descriptor = socket(host.contains(":") ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        return LoopbackSocket(descriptor: descriptor)
    }

    private static func withAddress(_ host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Void) throws {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }
}

/// What a stream carried: byte count and CRC-32 — compared at both ends of the relay.
package struct StreamDigest: Equatable, CustomStringConvertible {
    package var byteCount = 0
    package var crc = CRC32()

    package init() {}

    package mutating func add(_ bytes: [UInt8]) {
        byteCount += bytes.count
        bytes.withUnsafeBytes { crc.update($0) }
    }

    package var description: String { "\(byteCount) bytes, crc32 \(String(crc.value, radix: 16))" }
}

/// Runs `body` on a new thread; `join()` waits for it and rethrows what it threw.
package final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var error: (any Error)?

    package init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do { try body() } catch { self.error = error }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    package func join() throws {
        done.wait()
        if let error { throw error }
    }
}

/// h12 frames of the live tests, with deterministic bodies (`FuzzRandom`, SplitMix64).
package struct FrameMaker {
    private var random: FuzzRandom
    private let encoder = FrameEncoder(format: .h12)
    /// 256 KiB of pseudo-random bytes that bodies are cut from.
    private static let pool: [UInt8] = {
        var maker = FrameMaker(seed: 0x5EED)
        return (0..<(256 * 1024 / 8)).flatMap { _ in withUnsafeBytes(of: maker.next()) { Array($0) } }
    }()

    package init(seed: UInt64) { random = FuzzRandom(seed: seed) }

    package mutating func next() -> UInt64 { random.next() }

    /// A body length skewed small: 95% 1...512 bytes, 4.5% up to 8 KiB, 0.5% up to 256 KiB.
    package mutating func bodyLength() -> Int {
        let roll = next() % 1000
        let limit = roll < 950 ? 512 : roll < 995 ? 8192 : 256 * 1024
        return Int(next() % UInt64(limit)) + 1
    }

    /// An h12 frame with a `length`-byte body cut from the pool.
    package mutating func frame(command: UInt64 = 3, length: Int) -> [UInt8] {
        let start = Int(next() % UInt64(Self.pool.count - length + 1))
        return try! encoder.encode(fields: ["ver": 1, "cmd": command], body: Self.pool[start..<(start + length)])
    }
}

/// A value shared between test threads, behind a lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
