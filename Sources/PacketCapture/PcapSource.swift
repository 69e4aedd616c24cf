import PacketDecoding

/// A libpcap handle that packets are read from: the reading API that `PcapReader` (capture
/// files, standard input) and `LiveCapture` (network interfaces) share.
///
/// Both deliver packets the same way — `pcap_next_ex`, timestamps in nanoseconds, bytes that
/// stay valid until the next read — so code that only reads packets (parse, reassemble,
/// frame) can take a `PcapSource` and treat a file and an interface alike:
///
///     func dump(_ source: PcapSource) throws {
///         var parser = PacketParser(linkType: source.linkType)
///         try source.forEach { packet in … }
///     }
///
/// Only its two subclasses are created. Not thread-safe: use one source from one thread at a
/// time (`LiveCapture.breakLoop()` excepted). The handle is closed (`pcap_close`) when the
/// source goes away.
public class PcapSource {
    let handle: PcapHandle

    init(handle: PcapHandle) {
        self.handle = handle
    }

    /// The link-layer header type every packet starts with (`pcap_datalink`), as a LINKTYPE_
    /// value: `.ethernet` on Linux loopback and Ethernet, `.linuxSLL` / `.linuxSLL2` on the
    /// `any` interface. libpcap reports one link type per source.
    public final var linkType: LinkType { handle.linkType }

    /// The snapshot length (`pcap_snapshot`), in bytes: no packet holds more. For a file, the
    /// one in its header; for a live capture, the one in effect.
    public final var snaplen: Int { handle.snaplen }

    /// Keeps only packets matching a BPF filter, written as for tcpdump (`pcap-filter(7)`).
    ///
    /// Calls `pcap_compile` (optimized, netmask `PCAP_NETMASK_UNKNOWN`, so `ip broadcast`
    /// is rejected) and `pcap_setfilter`. Applies to packets not yet read; on a live capture
    /// the kernel drops the rest.
    ///
    /// - Parameter expression: The filter, e.g. `"tcp port 7000"`.
    /// - Throws: `CaptureError.Kind.invalidFilter` whose message quotes the expression and
    ///   libpcap's complaint ("syntax error", "unknown host", …).
    public final func setFilter(_ expression: String) throws {
        try handle.setFilter(expression)
    }

    /// Reads the next packet (`pcap_next_ex`); a live capture's read timeouts are waited through.
    ///
    /// - Returns: The packet, whose `bytes` stay valid until the next call; `nil` at the end of
    ///   a capture file, or once a live capture's `breakLoop()` has been called.
    /// - Throws: `CaptureError.Kind.readFailed` with libpcap's message: a truncated or corrupt
    ///   file ("truncated dump file; tried to read 60 captured bytes, only got 20"), an
    ///   interface that went down.
    public final func next() throws -> CapturedPacket? {
        try handle.next()
    }

    /// Calls `body` with every packet, in capture order, until the end of the file, a live
    /// capture's `breakLoop()`, or an error.
    ///
    /// - Parameter body: Called once per packet; `packet.bytes` is valid only during the call.
    /// - Throws: What `body` throws (reading stops), or `CaptureError.Kind.readFailed` after
    ///   the last good packet of a truncated or corrupt file.
    public final func forEach(_ body: (CapturedPacket) throws -> Void) throws {
        while let packet = try handle.next() { try body(packet) }
    }
}
