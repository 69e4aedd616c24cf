import PacketCapture

/// Packet counts of one capture read.
struct CaptureStatistics {
    /// Packets read (after the BPF filter).
    var packets = 0
    /// TCP segments handed to the reassembler.
    var segments = 0
    /// IP fragments held for reassembly (each completed datagram also counts as a segment).
    var fragmentsHeld = 0
    /// Packets of other protocols (UDP, ICMP, ARP …).
    var notTCP = 0
    /// Packets that could not be decoded.
    var malformed = 0
    /// Packets skipped because the link type is not supported.
    var unsupportedPackets = 0
    /// Incomplete IP datagrams given up.
    var fragmentDrops = 0
    /// The error that ended reading early, if any.
    var readError: CaptureError?
}
