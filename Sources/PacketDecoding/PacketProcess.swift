/// The interface and process a packet belongs to, as Apple's PKTAP header names them
/// (`PacketParser.process(of:)`).
///
/// `pid`/`name` are the process that owns the socket; `effectivePID`/`effectiveName` the one
/// it acts for when the socket was delegated (`nsurlsessiond` downloading for an app: xnu's
/// `pth_epid`, `pth_ecomm`). Each is `nil` when the header leaves it out; names are at most 16
/// bytes (xnu's MAXCOMLEN), longer process names are cut.
public struct PacketProcess: Sendable, Hashable {
    /// The process ID, or `nil` when the kernel matched none.
    public var pid: Int32?
    /// The process name (`pth_comm`).
    public var name: String?
    /// The process the traffic is for, when the socket was delegated; may equal `pid`.
    public var effectivePID: Int32?
    /// That process's name (`pth_ecomm`).
    public var effectiveName: String?
    /// The interface the packet went through (`en0`, `pdp_ip0`, `utun3` …).
    public var interface: String?

    /// A process with every field given (a test's, or the PKTAP decoder's).
    ///
    /// - Parameters:
    ///   - pid: The process ID, or `nil`.
    ///   - name: The process name, or `nil`.
    ///   - effectivePID: The delegating process's ID, or `nil`.
    ///   - effectiveName: The delegating process's name, or `nil`.
    ///   - interface: The interface name, or `nil`.
    public init(pid: Int32?, name: String?, effectivePID: Int32? = nil, effectiveName: String? = nil, interface: String? = nil) {
        self.pid = pid
        self.name = name
        self.effectivePID = effectivePID
        self.effectiveName = effectiveName
        self.interface = interface
    }

    /// Whether the effective process differs from the owning one (and so is worth showing).
    public var isDelegated: Bool {
        (effectivePID != nil && effectivePID != pid) || (effectiveName != nil && effectiveName != name)
    }
}
