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
    /// The process the traffic is for, when the socket was delegated; may equal `pid`.
    public var effectivePID: Int32?
    // Names held inline: a capture event that carries a process copies no strings.
    private var storedName: InlineText?
    private var storedEffectiveName: InlineText?
    private var storedInterface: InlineText?

    /// The process name (`pth_comm`).
    public var name: String? {
        get { storedName?.string }
        set { storedName = InlineText(newValue) }
    }

    /// That effective process's name (`pth_ecomm`).
    public var effectiveName: String? {
        get { storedEffectiveName?.string }
        set { storedEffectiveName = InlineText(newValue) }
    }

    /// The interface the packet went through (`en0`, `pdp_ip0`, `utun3` …; at most 24 bytes).
    public var interface: String? {
        get { storedInterface?.string }
        set { storedInterface = InlineText(newValue) }
    }

    /// A process with every field given (a test's); names longer than 24 bytes are cut.
    ///
    /// - Parameters:
    ///   - pid: The process ID, or `nil`.
    ///   - name: The process name, or `nil`.
    ///   - effectivePID: The delegating process's ID, or `nil`.
    ///   - effectiveName: The delegating process's name, or `nil`.
    ///   - interface: The interface name, or `nil`.
    public init(pid: Int32?, name: String?, effectivePID: Int32? = nil, effectiveName: String? = nil, interface: String? = nil) {
        self.pid = pid
        self.effectivePID = effectivePID
        storedName = InlineText(name)
        storedEffectiveName = InlineText(effectiveName)
        storedInterface = InlineText(interface)
    }

    /// The PKTAP decoder's: names as the header's bytes (`nil`: left out).
    init(pid: Int32?, name: InlineText?, effectivePID: Int32?, effectiveName: InlineText?, interface: InlineText?) {
        self.pid = pid
        self.effectivePID = effectivePID
        storedName = name
        storedEffectiveName = effectiveName
        storedInterface = interface
    }

    /// Whether the effective process differs from the owning one (and so is worth showing).
    public var isDelegated: Bool {
        (effectivePID != nil && effectivePID != pid)
            || (storedEffectiveName != nil && storedEffectiveName != storedName)
    }
}
