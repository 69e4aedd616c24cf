import PacketCapture
import PacketDecoding

/// Where a ``CaptureSource`` gets its packets: a capture file or standard input
/// (`PcapReader`, for `decode`) or a network interface (`LiveCapture`, for `capture -i`).
///
/// Both are libpcap handles with the same reading shape, so a live capture goes through exactly
/// the parsing, reassembly and framing a capture file does.
protocol PacketSource: AnyObject {
    /// The link-layer header type every packet starts with.
    var linkType: LinkType { get }
    /// Keeps only packets matching a `pcap-filter(7)` expression.
    func setFilter(_ expression: String) throws
    /// The next packet, valid until the following call; `nil` at the end of a file, or once a
    /// live capture is interrupted (`pcap_breakloop`).
    func next() throws -> CapturedPacket?
}

extension PcapReader: PacketSource {}
extension LiveCapture: PacketSource {}
