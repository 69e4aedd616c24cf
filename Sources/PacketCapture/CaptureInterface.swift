import CPcap

/// A network interface libpcap can capture on, as listed by `framedump capture -D`.
public struct CaptureInterface: Sendable, Hashable {
    /// The name to pass to `LiveCapture(interface:)`, e.g. `"lo"`, `"eth0"`, `"any"`.
    public var name: String
    /// libpcap's human-readable description, if it has one (e.g. "Pseudo-device that captures
    /// on all interfaces").
    public var description: String?
    /// `PCAP_IF_LOOPBACK`.
    public var isLoopback: Bool
    /// `PCAP_IF_UP`: administratively up.
    public var isUp: Bool
    /// `PCAP_IF_RUNNING`: operationally up (link present).
    public var isRunning: Bool
}

extension LiveCapture {
    /// Lists the interfaces available for capture (`pcap_findalldevs`), in libpcap's order
    /// (up and running interfaces first, loopback after them).
    ///
    /// Without capture permission the list can be shorter (interfaces libpcap cannot open
    /// are left out on some platforms), but it is not an error.
    ///
    /// - Returns: The interfaces; possibly empty.
    /// - Throws: `CaptureError.Kind.queryFailed` with libpcap's message.
    public static func interfaces() throws -> [CaptureInterface] {
        var errorBuffer = ErrorBuffer()
        var list: UnsafeMutablePointer<pcap_if_t>?
        guard pcap_findalldevs(&list, &errorBuffer.storage) == 0 else {
            throw CaptureError(.queryFailed, message: errorBuffer.message)
        }
        defer { pcap_freealldevs(list) }
        var interfaces: [CaptureInterface] = []
        var node = list
        while let current = node {
            let flags = current.pointee.flags
            interfaces.append(CaptureInterface(
                name: String(cString: current.pointee.name),
                description: current.pointee.description.map { String(cString: $0) },
                isLoopback: flags & UInt32(PCAP_IF_LOOPBACK) != 0,
                isUp: flags & UInt32(PCAP_IF_UP) != 0,
                isRunning: flags & UInt32(PCAP_IF_RUNNING) != 0))
            node = current.pointee.next
        }
        return interfaces
    }
}
