/// Packet counts of one capture read by ``CaptureReassembly``.
public struct CaptureStatistics: Sendable {
    /// Packets read (after the BPF filter).
    public var packets = 0
    /// TCP segments handed to the reassembler.
    public var segments = 0
    /// IP fragments held for reassembly (each completed datagram also counts as a segment).
    public var fragmentsHeld = 0
    /// Packets of other protocols (UDP, ICMP, ARP …).
    public var notTCP = 0
    /// Packets that could not be decoded.
    public var malformed = 0
    /// Packets skipped because the link type is not supported.
    public var unsupportedPackets = 0
    /// Incomplete IP datagrams given up.
    public var fragmentDrops = 0
    /// The error that ended reading early, if any: the capture was read up to the packet before.
    public var readError: CaptureError?

    public init() {}
}
