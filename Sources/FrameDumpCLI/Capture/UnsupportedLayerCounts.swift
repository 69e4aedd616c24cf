import PacketCapture
import PacketDecoding

/// The packets a capture skipped because a layer in them is not decoded (a link type, an
/// EtherType, a PPP protocol …), per layer, most packets first: what standard error names once
/// at the end, and what `--summary` and `streams` list.
struct UnsupportedLayerCounts {
    /// Each layer and its packets, most first (ties by name).
    let layers: [(layer: UnsupportedLayer, packets: Int)]
    /// All packets skipped for an unsupported layer, including those of layers past the
    /// ``PacketCapture/CaptureStatistics/maximumUnsupportedLayers`` told apart.
    let packets: Int

    /// - Parameters:
    ///   - statistics: The capture's counts.
    ///   - linkType: A link type to leave out (its own warning named it already), or `nil`.
    init(_ statistics: CaptureStatistics, leavingOut linkType: LinkType? = nil) {
        let excluded = linkType.map { UnsupportedLayer.linkType($0) }
        layers = statistics.unsupportedLayers.filter { $0.key != excluded }.map { (layer: $0.key, packets: $0.value) }
            .sorted { ($0.packets, $1.layer.description) > ($1.packets, $0.layer.description) }
        packets = statistics.unsupportedPackets - (excluded.flatMap { statistics.unsupportedLayers[$0] } ?? 0)
    }

    /// `EtherType 0x88B5 (12), PPP protocol 0x002D (3)`.
    var list: String {
        layers.map { "\($0.layer) (\($0.packets))" }.joined(separator: ", ")
    }

    /// Appends `{"EtherType 0x88B5":12,…}`: packets per layer, as a JSON object.
    func appendJSONObject(to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        for (index, entry) in layers.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            JSONString.append(entry.layer.description, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            ByteFormatting.appendDecimal(UInt64(max(0, entry.packets)), to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }
}
