import PacketDecoding

/// One packet as libpcap delivered it: capture time, the captured bytes and the length on the wire.
///
/// `bytes` points into libpcap's buffer (the `u_char *` from `pcap_next_ex`) or into a mapped
/// capture file: count on it only until the next call to `next()` on the same reader or
/// capture, or until that reader or capture is deinitialized, unless it lies in the source's
/// `persistentBytes`. Nothing is copied per packet; copy what must outlive it.
///
/// The bytes start with the link-layer header given by the source's `linkType`.
public struct CapturedPacket {
    /// When the packet was captured, in nanoseconds since the Unix epoch (UTC). Sources with
    /// microsecond resolution (classic pcap files, live captures without nanosecond support)
    /// have the last three digits zero.
    public var timestamp: Timestamp
    /// The captured bytes (`caplen` of them), starting with the link-layer header.
    public var bytes: UnsafeRawBufferPointer
    /// The packet's length on the wire (`len`), in bytes. Larger than `bytes.count` when the
    /// snaplen cut the packet.
    public var originalLength: Int

    /// Creates a packet description; `bytes` must stay valid for as long as the value is used.
    ///
    /// - Parameters:
    ///   - timestamp: Capture time, nanoseconds since the Unix epoch.
    ///   - bytes: The captured bytes, link-layer header first.
    ///   - originalLength: Length on the wire in bytes; `nil` means `bytes.count` (nothing cut).
    public init(timestamp: Timestamp, bytes: UnsafeRawBufferPointer, originalLength: Int? = nil) {
        self.timestamp = timestamp
        self.bytes = bytes
        self.originalLength = originalLength ?? bytes.count
    }

    /// Whether the snaplen cut the packet (fewer bytes captured than were on the wire).
    public var isTruncated: Bool { bytes.count < originalLength }
}
