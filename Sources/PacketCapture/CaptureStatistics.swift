import PacketDecoding

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
    /// Packets skipped because the link type, or a layer inside them, is not decoded: the TCP
    /// they may carry was out of reach.
    public var unsupportedPackets = 0
    /// Those packets per layer (``PacketDecoding/UnsupportedLayer``; the link type as
    /// `.linkType`). At most ``maximumUnsupportedLayers`` layers are told apart; packets of
    /// further ones are only in ``unsupportedPackets``.
    public var unsupportedLayers: [UnsupportedLayer: Int] = [:]
    /// Connections left out because their first packet did not name the selected process
    /// (``CaptureReassembly/processSelector``).
    public var connectionsNotSelected = 0
    /// Incomplete IP datagrams given up.
    public var fragmentDrops = 0
    /// The error that ended reading early, if any: the capture was read up to the packet before.
    public var readError: CaptureError?

    /// The distinct layers ``unsupportedLayers`` counts.
    public static let maximumUnsupportedLayers = 64

    public init() {}

    /// Counts one packet skipped for `layer`.
    mutating func countUnsupported(_ layer: UnsupportedLayer, packets: Int = 1) {
        unsupportedPackets += packets
        if unsupportedLayers[layer] != nil || unsupportedLayers.count < Self.maximumUnsupportedLayers {
            unsupportedLayers[layer, default: 0] += packets
        }
    }
}
