import PacketCapture
import PacketDecoding

/// A pcap or pcapng capture — a file, standard input, or a live interface — turned into TCP
/// stream events.
///
/// ```
/// PcapSource ────packets──> PacketParser ──segments──> TCPReassembler ──> .stream(ReassemblyEvent)
///  (PcapReader or          (link, IP, TCP;          (per direction:
///   LiveCapture, BPF)       IPv4/IPv6 fragments)      order, dedup, gaps)
///                              │ bad packet ───────────────────────────> .malformedPacket
///                              └ fragments given up ───────────────────> .fragmentsDropped
/// ```
///
/// One pass, in capture order, nothing kept per packet: memory is what the reassembler holds
/// (open connections and out-of-order bytes, bounded by ``ReassemblyLimits``) and the
/// defragmenter's incomplete datagrams. `decode`, `streams` and `capture -i` all read packets
/// through here.
struct CaptureSource {
    /// How the input is named in messages: the path, `<stdin>`, or the interface.
    let displayName: String
    private let reader: PcapSource
    /// Shows how much of a capture file ``run`` has read, on a terminal; `nil`: nothing shown.
    var progress: ProgressLine?

    /// Opens a capture whose first bytes were already read to tell it from a hex dump.
    ///
    /// - Parameters:
    ///   - path: A file path, or `-` for standard input.
    ///   - opened: For an input that cannot be reopened (standard input, a pipe), the bytes
    ///     already read (they are replayed) and the descriptor the rest comes from; for a
    ///     regular file, nothing (libpcap reopens it from the start).
    /// - Throws: ``CommandFailure`` (exit 2) with libpcap's message when the capture cannot be opened.
    init(path: String, opened: InputKind.Opened) throws(CommandFailure) {
        displayName = path == "-" ? "<stdin>" : path
        do {
            if let stream = opened.stream {
                reader = try PcapReader(prefix: opened.prefix, fileDescriptor: stream)
            } else {
                reader = try PcapReader(path: path)
            }
        } catch {
            // libpcap's open messages start with the path already ("x.pcap: No such file or directory").
            let reason = "\(error)"
            let detail = reason.hasPrefix("\(path): ") ? String(reason.dropFirst(path.count + 2)) : reason
            throw CommandFailure(message: "framedump: cannot read capture \(displayName): \(detail)", status: .badInput)
        }
    }

    /// Reads the packets of a live capture (`capture -i`), named by its interface.
    init(live capture: LiveCapture) {
        displayName = capture.interfaceName
        reader = capture
    }

    /// Keeps only the packets matching a tcpdump filter expression (`pcap-filter(7)`).
    ///
    /// - Throws: ``CommandFailure`` (exit 1, a usage error) with libpcap's message.
    func setFilter(_ expression: String) throws(CommandFailure) {
        do {
            try reader.setFilter(expression)
        } catch {
            throw CommandFailure(message: "framedump: \(error)", status: .usage)
        }
    }

    /// Reads every packet and reassembles its TCP streams, calling `receive` with each event in
    /// capture order, then ends the capture (the reassembler's and defragmenter's leftovers).
    ///
    /// A link type the parser does not decode gets one warning on standard error, naming it; its
    /// packets are counted in ``CaptureStatistics/unsupportedPackets`` and nothing else happens.
    /// A read error in the middle of the file (truncated, corrupt) ends the reading as if the
    /// capture ended there; it is returned in ``CaptureStatistics/readError`` so the caller can
    /// report it after the output of every good packet. ``progress``, when set, is updated after
    /// each packet and erased when the reading ends.
    ///
    /// - Parameters:
    ///   - limits: The reassembly bounds.
    ///   - reportsLatestCounters: Whether to send ``CaptureEvent/latestCounters(_:)`` at the end
    ///     (`streams` lists them; `decode` does not, and skips building a summary of every
    ///     tracked connection at once, which at 100,000 connections was the peak of its memory).
    ///   - packetObserver: Sees every packet read, before it is parsed (`capture -w` saves it).
    ///   - packetDone: Called after each packet's events were delivered, before the next read
    ///     (which may block on a live interface): where `capture` flushes its output; `false`
    ///     ends the reading as if the capture ended there (`capture -c` after its last frame).
    ///   - receive: Gets each event and the capture time it happened at: the packet's timestamp,
    ///     or, for what the end of the capture flushes, the last packet's. A `data` event's bytes
    ///     are valid only during the call.
    /// - Returns: Packet counts.
    /// - Throws: Whatever `receive` throws.
    func run(limits: ReassemblyLimits, reportsLatestCounters: Bool = false,
             packetObserver: ((CapturedPacket) throws -> Void)? = nil,
             packetDone: () throws -> Bool = { true },
             _ receive: (CaptureEvent, Timestamp) throws -> Void) throws -> CaptureStatistics {
        var statistics = CaptureStatistics()
        let linkType = reader.linkType
        let supported = PacketParser.supports(linkType)
        if !supported {
            StandardError.writeLine(
                "framedump: \(displayName): link type \(linkType) is not supported; its packets are skipped "
                    + "(supported: NULL, EN10MB, RAW, LOOP, LINUX_SLL, LINUX_SLL2, IPV4, IPV6; https://www.tcpdump.org/linktypes.html)")
        }
        var parser = PacketParser(linkType: linkType)
        var reassembler = TCPReassembler(limits: limits)
        var time = Timestamp(nanoseconds: 0)
        var recordedDrops = 0
        defer { progress?.finish() }
        do {
            while let packet = try reader.next() {
                statistics.packets += 1
                try packetObserver?(packet)
                time = packet.timestamp
                switch parser.parse(packet.bytes, wireLength: packet.originalLength, timestamp: time) {
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
                }
                // Checking the counter first keeps the common path free of the array hand-off.
                if parser.defragmentationStatistics.datagramsDropped != recordedDrops {
                    recordedDrops = parser.defragmentationStatistics.datagramsDropped
                    for drop in parser.takeDefragmentationDrops() { try receive(.fragmentsDropped(drop), time) }
                }
                progress?.tick(bytesRead: (reader as? PcapReader)?.fileOffset)
                guard try packetDone() else { break }
            }
        } catch let error as CaptureError {
            statistics.readError = error
        }
        parser.finish()
        for drop in parser.takeDefragmentationDrops() { try receive(.fragmentsDropped(drop), time) }
        statistics.fragmentDrops = parser.defragmentationStatistics.datagramsDropped
        if reportsLatestCounters {
            for summary in reassembler.trackedConnections { try receive(.latestCounters(summary), time) }
        }
        try reassembler.finish { try receive(.stream($0), time) }
        return statistics
    }
}
