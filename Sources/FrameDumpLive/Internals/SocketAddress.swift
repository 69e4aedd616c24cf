#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PacketDecoding

/// An IPv4 or IPv6 socket address (`sockaddr_in` / `sockaddr_in6`) as the socket calls take it.
///
/// Made by ``resolve(_:defaultHost:)``; read as an ``Endpoint`` (address and port) everywhere
/// else.
public struct SocketAddress: Sendable {
    /// Big enough for either family.
    private var storage = sockaddr_storage()
    /// The bytes of `storage` in use (`sizeof(sockaddr_in)` or `sizeof(sockaddr_in6)`).
    private(set) var length: socklen_t

    /// `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// Copies `length` bytes of the address at `address`.
    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        self.length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(self.length)))
        }
    }

    /// Fills an address with a call that writes one (`accept`, `getsockname`, `getpeername`).
    ///
    /// - Returns: the address, or `nil` when `fill` returns -1 (`errno` is then set).
    static func filled(by fill: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> (SocketAddress, Int32)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { fill($0, &length) }
        }
        guard result >= 0 else { return nil }
        let address = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
        }
        return (address, result)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: storage) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    /// The address and port as an ``Endpoint`` (printed `ip:port`, IPv6 `[ip]:port`).
    public var endpoint: Endpoint {
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET6 {
                let address = raw.load(as: sockaddr_in6.self)
                let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                var high: UInt64 = 0, low: UInt64 = 0
                for index in 0..<8 { high = high << 8 | UInt64(bytes[index]) }
                for index in 8..<16 { low = low << 8 | UInt64(bytes[index]) }
                return Endpoint(address: .v6(high, low), port: UInt16(bigEndian: address.sin6_port))
            }
            let address = raw.load(as: sockaddr_in.self)
            return Endpoint(address: .v4(UInt32(bigEndian: address.sin_addr.s_addr)), port: UInt16(bigEndian: address.sin_port))
        }
    }

    /// The addresses `hostPort` names, in `getaddrinfo(3)`'s order (RFC 6724 preference).
    ///
    /// A numeric host is not looked up; a name is resolved through the system's resolver
    /// (`/etc/hosts` for `localhost`). A missing host is `defaultHost`.
    ///
    /// - Parameters:
    ///   - hostPort: the host and port as the command line gave them.
    ///   - defaultHost: the host when `hostPort` has none, e.g. `127.0.0.1`.
    /// - Returns: one address or more, IPv4 and IPv6 only.
    /// - Throws: ``SocketError`` with `getaddrinfo`'s message when the name does not resolve.
    public static func resolve(_ hostPort: HostPort, defaultHost: String) throws(SocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemCalls.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let host = hostPort.host ?? defaultHost
        let status = getaddrinfo(host, String(hostPort.port), &hints, &list)
        guard status == 0 else {
            throw SocketError("cannot resolve '\(host)'", code: status, text: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var next = list
        while let entry = next {
            if let address = entry.pointee.ai_addr, entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6 {
                addresses.append(SocketAddress(address, length: entry.pointee.ai_addrlen))
            }
            next = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            throw SocketError("cannot resolve '\(host)'", code: EAI_NONAME, text: "no IPv4 or IPv6 address")
        }
        return addresses
    }
}
