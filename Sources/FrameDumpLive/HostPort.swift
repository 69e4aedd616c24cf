/// Where to listen or connect, before name resolution (``SocketAddress/resolve(_:defaultHost:)``).
///
/// On the command line: `9000`, `localhost:9000`, `127.0.0.1:9000`, `[::1]:9000`; an IPv6
/// address goes in brackets there (RFC 3986 §3.2.2), so the last colon separates the port.
public struct HostPort: Equatable, Sendable, CustomStringConvertible {
    /// The host name or address without brackets, or `nil` when only a port was given.
    public var host: String?
    /// The TCP port; 0 asks the system for any free port (listening only).
    public var port: UInt16

    /// - Parameters:
    ///   - host: a name or address (IPv6 without brackets), or `nil` for the default host.
    ///   - port: the TCP port; 0 for any free port when listening.
    public init(host: String?, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String {
        guard let host else { return "\(port)" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
