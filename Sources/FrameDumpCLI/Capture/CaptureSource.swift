import PacketCapture
import PacketDecoding

/// A pcap or pcapng capture — a file, standard input, or a live interface — opened for a
/// command, with its name for messages: the CLI's side of PacketCapture's ``CaptureReassembly``.
///
/// `decode`, `streams` and `capture -i` all read packets through here; the library does the
/// reading and reassembling, this adds the command's error messages and warnings.
struct CaptureSource {
    /// How the input is named in messages: the path, `<stdin>`, or the interface.
    let displayName: String
    private let reader: PcapSource
    /// Shows how much of a capture file ``run`` has read, on a terminal; `nil`: nothing shown.
    var progress: ProgressLine?
    /// `--process`: keep only this process's connections (PKTAP captures); `nil`: all of them.
    var processSelector: ProcessSelector?

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

    /// Memory the packets' bytes may point into that lives as long as the source
    /// (`PcapSource.persistentBytes`: a mapped capture file); `nil`: none.
    var persistentBytes: UnsafeRawBufferPointer? { reader.persistentBytes }

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

    /// Reads every packet and reassembles its TCP streams (``CaptureReassembly/run(reportsLatestCounters:packetObserver:packetDone:_:)``),
    /// calling `receive` with each event in capture order.
    ///
    /// A link type the parser does not decode gets one warning on standard error, naming it; its
    /// packets are counted in ``CaptureStatistics/unsupportedPackets`` and nothing else happens.
    /// Packets skipped for a layer inside them that is not decoded (an EtherType, a PPP protocol
    /// …) are named once, with their counts, in one line at the end; so are the connections
    /// ``processSelector`` left out.
    /// ``progress``, when set, is updated after each packet and erased when the reading ends.
    ///
    /// - Parameters:
    ///   - limits: The reassembly bounds.
    ///   - overlapPolicy: Which copy of overlapping segment bytes is kept (`--overlap-policy`).
    ///   - reportsLatestCounters: Whether to send ``CaptureEvent/latestCounters(_:)`` at the end
    ///     (`streams` lists them; `decode` does not).
    ///   - packetObserver: Sees every packet read, before it is parsed (`capture -w` saves it).
    ///   - packetDone: Called after each packet's events; `false` ends the reading (`capture -c`).
    ///   - receive: Gets each event and its capture time.
    /// - Returns: Packet counts; a read error is in ``CaptureStatistics/readError``.
    /// - Throws: Whatever `receive`, `packetObserver` or `packetDone` throws.
    func run(limits: ReassemblyLimits, overlapPolicy: OverlapPolicy, reportsLatestCounters: Bool = false,
             packetObserver: ((CapturedPacket) throws -> Void)? = nil,
             packetDone: () throws -> Bool = { true },
             _ receive: (CaptureEvent, Timestamp) throws -> Void) throws -> CaptureStatistics {
        defer { progress?.finish() }
        let statistics = try CaptureReassembly(source: reader, limits: limits, overlapPolicy: overlapPolicy,
                                               processSelector: processSelector).run(
            reportsLatestCounters: reportsLatestCounters, packetObserver: packetObserver, packetDone: {
                progress?.tick(bytesRead: (reader as? PcapReader)?.fileOffset)
                return try packetDone()
            }
        ) { event, time in
            if case .unsupportedLinkType(let linkType) = event {
                StandardError.writeLine(
                    "framedump: \(displayName): link type \(linkType) is not supported; its packets are skipped "
                        + "(supported: NULL, EN10MB, PPP, PPP_SERIAL, PPP_ETHER, RAW, C_HDLC, LOOP, LINUX_SLL, LINUX_SLL2, IPV4, IPV6, "
                        + "PKTAP; https://www.tcpdump.org/linktypes.html)")
            }
            try receive(event, time)
        }
        let unsupported = UnsupportedLayerCounts(statistics, leavingOut: reader.linkType)
        if unsupported.packets > 0 {
            StandardError.writeLine("framedump: \(displayName): \(counted(unsupported.packets, "packet")) skipped, their TCP out of reach "
                + "(not supported): \(unsupported.list)")
        }
        if let processSelector {
            StandardError.writeLine("framedump: \(displayName): --process \(processSelector) left out "
                + counted(statistics.connectionsNotSelected, "connection") + " of other processes")
        }
        return statistics
    }
}
