/// One end of a TCP connection: address and port.
public struct Endpoint: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The IPv4 or IPv6 address.
    public var address: IPAddress
    /// The TCP port, in host order.
    public var port: UInt16
    /// An endpoint at `address`, `port` (host order).
    public init(address: IPAddress, port: UInt16) {
        self.address = address
        self.port = port
    }
    /// `"ip:port"`, IPv6 as `"[addr]:port"` (RFC 3986 §3.2.2).
    public var description: String {
        switch address {
        case .v4: "\(address):\(port)"
        case .v6: "[\(address)]:\(port)"
        }
    }
    /// Orders by address (see `IPAddress.<`), then by port.
    public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool {
        (lhs.address, lhs.port) < (rhs.address, rhs.port)
    }
}
