import PacketDecoding

/// A capture — a file, standard input, or a live interface — turned into TCP stream events:
/// the loop from packets to reassembled streams.
///
/// ```
/// PcapSource ────packets──> PacketParser ──segments──> TCPReassembler ──> .stream(ReassemblyEvent)
///  (PcapReader or          (link, IP, TCP;          (per direction:
///   LiveCapture, BPF)       IPv4/IPv6 fragments)      order, dedup, gaps)
///                              │ bad packet ───────────────────────────> .malformedPacket
///                              │ fragments given up ───────────────────> .fragmentsDropped
///                              │ link type not decoded ────────────────> .unsupportedLinkType (once)
///                              └ layer not decoded: counted per layer in CaptureStatistics.unsupportedLayers
/// ```
///
/// **Processes** (PKTAP captures): a connection's process is the one its first packet names,
/// sent as ``CaptureEvent/connectionProcess(connection:process:)`` before it opens. With a
/// ``processSelector``, the events of every other connection are withheld (their packets are
/// still reassembled, so connection numbers stay those of the whole capture).
///
/// One pass, in capture order, nothing kept per packet: memory is what the reassembler holds
/// (open connections and out-of-order bytes, bounded by ``ReassemblyLimits``) and the
/// defragmenter's incomplete datagrams. Feed its `.stream` events to `StreamFraming`'s
/// `FramingEngine.consume(_:at:contexts:_:)` to get frames.
public struct CaptureReassembly {
    /// The packets.
    public let source: PcapSource
    /// The reassembly bounds.
    public var limits: ReassemblyLimits
    /// Which copy of overlapping segment bytes is kept.
    public var overlapPolicy: OverlapPolicy
    /// Keep only the connections of this process (`nil`: every connection).
    public var processSelector: ProcessSelector?

    /// - Parameters:
    ///   - source: The capture to read (its filter set already, if any).
    ///   - limits: The reassembly bounds; finite by default.
    ///   - overlapPolicy: Which copy of overlapping segment bytes is kept; Linux's by default.
    ///   - processSelector: Keep only the connections whose first packet names this process.
    public init(source: PcapSource, limits: ReassemblyLimits = .default, overlapPolicy: OverlapPolicy = .linux,
                processSelector: ProcessSelector? = nil) {
        self.source = source
        self.limits = limits
        self.overlapPolicy = overlapPolicy
        self.processSelector = processSelector
    }

    /// Reads every packet and reassembles its TCP streams, calling `receive` with each event in
    /// capture order, then ends the capture (the reassembler's and defragmenter's leftovers).
    ///
    /// A read error in the middle of the file (truncated, corrupt) ends the reading as if the
    /// capture ended there; it is returned in ``CaptureStatistics/readError``, so the caller can
    /// report it after the output of every good packet.
    ///
    /// - Parameters:
    ///   - reportsLatestCounters: Whether to send ``CaptureEvent/latestCounters(_:)`` at the end
    ///     (a connection listing needs them; a decoder does not, and skips building a summary of
    ///     every tracked connection at once, which at 100,000 connections is its memory peak).
    ///   - packetObserver: Sees every packet read, before it is parsed (to save it, say).
    ///   - packetDone: Called after each packet's events were delivered, before the next read
    ///     (which may block on a live interface): where a live reader flushes its output;
    ///     `false` ends the reading as if the capture ended there.
    ///   - receive: Gets each event and the capture time it happened at: the packet's timestamp,
    ///     or, for what the end of the capture flushes, the last packet's.
    /// - Returns: Packet counts.
    /// - Throws: Whatever `receive`, `packetObserver` or `packetDone` throws.
    public func run(reportsLatestCounters: Bool = false,
                    packetObserver: ((CapturedPacket) throws -> Void)? = nil,
                    packetDone: () throws -> Bool = { true },
                    _ receive: (CaptureEvent, Timestamp) throws -> Void) throws -> CaptureStatistics {
        var statistics = CaptureStatistics()
        let linkType = source.linkType
        var time = Timestamp(nanoseconds: 0)
        if !PacketParser.supports(linkType) { try receive(.unsupportedLinkType(linkType), time) }
        var parser = PacketParser(linkType: linkType)
        var reassembler = TCPReassembler(limits: limits, overlapPolicy: overlapPolicy)
        reassembler.persistentBytes = source.persistentBytes
        var recordedDrops = 0
        let namesProcesses = processSelector != nil || linkType.namesProcesses
        var attribution = ProcessAttribution(selector: processSelector)
        do {
            while let packet = try source.next() {
                statistics.packets += 1
                try packetObserver?(packet)
                time = packet.timestamp
                switch parser.parse(packet.bytes, wireLength: packet.originalLength, timestamp: time) {
                case .segment(let segment) where namesProcesses:
                    statistics.segments += 1
                    try reassembler.process(segment, at: time) { event in
                        try attribution.deliver(event, process: { parser.process(of: packet.bytes) }, at: time, to: receive)
                    }
                case .segment(let segment):
                    statistics.segments += 1
                    try reassembler.process(segment, at: time) { try receive(.stream($0), time) }
                case .fragmentHeld:
                    statistics.fragmentsHeld += 1
                case .notTCP:
                    statistics.notTCP += 1
                case .malformed(let reason, let offset):
                    statistics.malformed += 1
                    try receive(.malformedPacket(number: statistics.packets, reason: reason, offset: offset), time)
                case .unsupportedLinkType:
                    statistics.unsupportedPackets += 1
                case .unsupportedLayer(let layer):
                    statistics.countUnsupported(layer)
                }
                // Checking the counter first keeps the common path free of the array hand-off.
                if parser.defragmentationStatistics.datagramsDropped != recordedDrops {
                    recordedDrops = parser.defragmentationStatistics.datagramsDropped
                    for drop in parser.takeDefragmentationDrops() { try receive(.fragmentsDropped(drop), time) }
                }
                guard try packetDone() else { break }
            }
        } catch let error as CaptureError {
            statistics.readError = error
        }
        parser.finish()
        for drop in parser.takeDefragmentationDrops() { try receive(.fragmentsDropped(drop), time) }
        statistics.fragmentDrops = parser.defragmentationStatistics.datagramsDropped
        if !PacketParser.supports(linkType), statistics.unsupportedPackets > 0 {
            statistics.unsupportedLayers[.linkType(linkType)] = statistics.unsupportedPackets
        }
        if reportsLatestCounters {
            for summary in reassembler.trackedConnections where !attribution.withholds(summary.connection) {
                try receive(.latestCounters(summary), time)
            }
        }
        try reassembler.finish { try attribution.deliver($0, process: { nil }, at: time, to: receive) }
        statistics.connectionsNotSelected = attribution.notSelected
        return statistics
    }
}
