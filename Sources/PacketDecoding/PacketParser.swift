/// Decodes captured packets of one link type down to TCP segments.
///
/// One parser per capture (per pcapng interface): it knows the link type and owns the
/// `IPDefragmenter` that buffers IPv4 and IPv6 fragments across packets.
///
/// ```
///  captured frame ──> link layer ──> IPv4 / IPv6 ──> TCP ──> .segment(TCPSegment)
///                     (LinkLayer:     (fragments ──> IPDefragmenter: .fragmentHeld, then
///                      PKTAP, VLAN,    .segment when the datagram completes)
///                      MPLS, PPPoE,       │
///                      PPP, HDLC) <───────┘ IP in IP, GRE, VXLAN (IPTunnel): the payload
///                                           is decoded again, as a packet of its own
/// ```
///
/// Each call returns exactly one `Result`, so a caller can count every packet: segments, held
/// fragments, other protocols, malformed packets (with the reason and byte offset) and packets of
/// a link type the parser does not decode. The common path — an unfragmented packet — allocates
/// nothing and reads each header field once, bounds-checked, with unaligned big-endian loads.
///
/// **Unsupported link types.** Check `PacketParser.supports(_:)` when the capture (or pcapng
/// interface) opens and warn once there; every packet of such a link type then returns
/// `.unsupportedLinkType`, so the skipped packets can still be counted without repeating the warning.
///
/// **Fragments.** Incomplete datagrams dropped by a limit or the timeout are reported through
/// `takeDefragmentationDrops()` and `defragmentationStatistics`; call `finish()` at the end of the
/// capture to report those still incomplete.
///
/// Do not copy a parser: copies share the defragmenter's datagrams in progress.
public struct PacketParser {
    /// What one captured packet turned out to be.
    public enum Result {
        /// A TCP segment. Its `payload` points into the packet buffer passed to `parse` — or, for a
        /// reassembled datagram, into the defragmenter's buffer — and is valid until the next call
        /// to `parse` or `finish` and while the packet buffer lives; copy what must outlive that.
        case segment(TCPSegment)
        /// An IP fragment, buffered until its datagram is complete.
        case fragmentHeld
        /// Not a TCP segment: another EtherType or address family, or another IP protocol.
        case notTCP
        /// The packet cannot be decoded; `offset` is the byte position in the captured packet where
        /// decoding stopped (in the reassembled IP payload, for errors found after reassembly).
        case malformed(MalformedReason, offset: Int)
        /// The parser's link type is not one it decodes (see `PacketParser.supports(_:)`).
        case unsupportedLinkType(LinkType)
        /// A layer inside the packet is not decoded (an EtherType, a PPP protocol, a GRE version,
        /// PKTAP's inner link type …): the TCP it may carry is out of reach.
        case unsupportedLayer(UnsupportedLayer)
    }

    /// The link-layer header type of every packet given to `parse`.
    public let linkType: LinkType
    private var defragmenter: IPDefragmenter

    /// Creates a parser for packets of `linkType`.
    /// - Parameters:
    ///   - linkType: the capture's (or pcapng interface's) link type.
    ///   - defragmentation: limits on fragment reassembly; see `IPDefragmenter.Configuration` for defaults.
    public init(linkType: LinkType, defragmentation: IPDefragmenter.Configuration = IPDefragmenter.Configuration()) {
        self.linkType = linkType
        self.defragmenter = IPDefragmenter(configuration: defragmentation)
    }

    /// Whether packets of `linkType` can be decoded: NULL (0), EN10MB (1), PPP (9), PPP_SERIAL
    /// (50), PPP_ETHER (51), RAW (101, and DLT 12 and 14 as libpcap reports them live), C_HDLC
    /// (104), LOOP (108), LINUX_SLL (113), IPV4 (228), IPV6 (229), PKTAP (258, and DLT 149 as
    /// older Apple tools wrote it) and LINUX_SLL2 (276).
    ///
    /// - Parameter linkType: The source's link type (`pcap_datalink`, or a file's LINKTYPE_).
    /// - Returns: `false` for link types every packet of which would be `.unsupportedLinkType`.
    public static func supports(_ linkType: LinkType) -> Bool {
        LinkLayer.supports(linkType)
    }

    /// Decodes one captured packet.
    ///
    /// - Parameters:
    ///   - packet: the captured bytes (at most the snaplen), starting with the link-layer header.
    ///   - wireLength: the packet's length on the wire (pcap "original length"), in bytes; used to
    ///     tell bytes cut by the snaplen from a header that lies about its length.
    ///   - timestamp: the capture time; fragment timeouts run on it.
    /// - Returns: exactly one `Result` for the packet.
    public mutating func parse(_ packet: UnsafeRawBufferPointer, wireLength: Int, timestamp: Timestamp) -> Result {
        // The layer decoders are `@inline(__always)`: passing their result enums through memory
        // between separate functions made this path 2.5 times slower (measured, release build).
        defragmenter.advance(to: timestamp)
        var link = LinkLayer.decapsulate(packet, linkType: linkType)
        // A tunnel's payload is decoded as a packet of its own (offsets from its start, its IP
        // length as the wire length); `base` is where it starts in the captured packet.
        var (bytes, wire, base, tunnels) = (packet, wireLength, 0, 0)
        while true {
            let network: NetworkLayerOutcome
            switch link {
            case .ipv4(let offset):
                network = IPv4.decode(bytes, at: offset, wireLength: wire, timestamp: timestamp, defragmenter: &defragmenter)
            case .ipv6(let offset):
                network = IPv6.decode(bytes, at: offset, wireLength: wire, timestamp: timestamp, defragmenter: &defragmenter)
            case .notIP:
                return .notTCP
            case .malformed(let reason, let offset):
                return .malformed(reason, offset: base + offset)
            case .unsupported:
                return .unsupportedLinkType(linkType)
            case .unsupportedLayer(let layer):
                return .unsupportedLayer(layer)
            }
            switch network {
            case .tcp(var transport):
                transport.offset += base
                return TCPHeader.decode(transport)
            case .fragmentHeld: return .fragmentHeld
            case .notTCP: return .notTCP
            case .malformed(let reason, let offset): return .malformed(reason, offset: base + offset)
            case .encapsulated(let protocolNumber, let transport):
                tunnels += 1
                guard tunnels <= LinkLayer.maximumNesting else { return .unsupportedLayer(.nestingTooDeep) }
                (bytes, wire, base) = (transport.captured, transport.length, base + transport.offset)
                link = IPTunnel.decapsulate(protocolNumber, payload: bytes, depth: 0)
            }
        }
    }

    /// The interface and process the PKTAP header of `packet` names.
    ///
    /// Built on request, not by `parse`, so that only the packets that need it pay for its
    /// strings (the first of each connection).
    ///
    /// - Parameter packet: A packet of this parser's link type, as given to `parse`.
    /// - Returns: `nil` for other link types, an invalid header, or a header naming no process.
    public func process(of packet: UnsafeRawBufferPointer) -> PacketProcess? {
        linkType.namesProcesses ? PKTAP.process(in: packet) : nil
    }

    /// Ends the capture: drops every incomplete datagram, each reported as an `.endOfCapture` drop.
    public mutating func finish() {
        defragmenter.dropAll(reason: .endOfCapture)
    }

    /// The incomplete datagrams dropped since the last call (timeout, limits, end of capture),
    /// oldest first. At most 1024 wait; further ones are only counted
    /// (`defragmentationStatistics.dropsNotRecorded`).
    ///
    /// - Returns: The drops, oldest first; empty when none happened since the last call.
    public mutating func takeDefragmentationDrops() -> [IPDefragmenter.Drop] {
        defragmenter.takeDrops()
    }

    /// Fragment reassembly totals since the parser was created.
    public var defragmentationStatistics: IPDefragmenter.Statistics { defragmenter.statistics }

    /// Bytes held by incomplete datagrams now.
    public var defragmentationBytesHeld: Int { defragmenter.bytesHeld }
}
