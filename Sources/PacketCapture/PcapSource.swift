import CPcap
import PacketDecoding
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libpcap handle that packets are read from: the reading API that `PcapReader` (capture
/// files, standard input) and `LiveCapture` (network interfaces) share.
///
/// Both deliver packets the same way — one at a time, timestamps in nanoseconds, bytes that
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
    /// A classic pcap file's records read in place from its mapping (``PcapReader``), until
    /// one that libpcap must read; `nil`: libpcap reads every packet.
    ///
    /// Out of the runtime's exclusivity checks (two a packet were 5 % of the reading thread's
    /// instructions): a source is used from one thread at a time, and `next()`, its one access
    /// while reading, calls nothing that could reach the source again.
    @exclusivity(unchecked) var mappedRecords: MappedPcapRecords?
    /// The mapped capture file, kept for the source's whole life (``persistentBytes``), also
    /// once libpcap has taken over the reading.
    var fileMapping: FileMapping?

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

    /// Memory that stays valid for as long as the source lives, into which packets' bytes may
    /// point: a mapped capture file (``PcapReader``), unchanged unless another process rewrites
    /// the file.
    ///
    /// A packet whose bytes lie inside it — and any slice of them, such as a TCP segment's
    /// payload — may be kept by pointer after the next read instead of copied (the CLI's
    /// read-ahead hands such stream data to its decoding thread that way).
    ///
    /// - Returns: The region; `nil` when every packet's bytes are valid only until the next
    ///   read (libpcap's buffer: pcapng, standard input, live captures).
    public final var persistentBytes: UnsafeRawBufferPointer? {
        fileMapping.map { UnsafeRawBufferPointer(start: $0.base, count: $0.count) }
    }

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
        // libpcap applies the filter as it reads (`pcap_next_ex`), so it reads from here on.
        try handOverToLibpcap()
        try handle.setFilter(expression)
    }

    /// Reads the next packet: from a mapped classic pcap file's records (``PcapReader``), else
    /// with `pcap_next_ex`; a live capture's read timeouts are waited through.
    ///
    /// - Returns: The packet, whose `bytes` stay valid until the next call; `nil` at the end of
    ///   a capture file, or once a live capture's `breakLoop()` has been called.
    /// - Throws: `CaptureError.Kind.readFailed` with libpcap's message: a truncated or corrupt
    ///   file ("truncated dump file; tried to read 60 captured bytes, only got 20"), an
    ///   interface that went down.
    public final func next() throws -> CapturedPacket? {
        if mappedRecords != nil {
            if let packet = mappedRecords!.next() { return packet }
            try handOverToLibpcap()
        }
        return try handle.next()
    }

    /// Calls `body` with every packet, in capture order, until the end of the file, a live
    /// capture's `breakLoop()`, or an error.
    ///
    /// - Parameter body: Called once per packet; `packet.bytes` is valid only during the call.
    /// - Throws: What `body` throws (reading stops), or `CaptureError.Kind.readFailed` after
    ///   the last good packet of a truncated or corrupt file.
    public final func forEach(_ body: (CapturedPacket) throws -> Void) throws {
        while let packet = try next() { try body(packet) }
    }

    /// Stops reading from the mapping: libpcap's stream is moved to the record the mapping
    /// stopped at (`fseeko`), and libpcap reads on from there as if it had read every record
    /// before it.
    ///
    /// - Throws: `CaptureError.Kind.readFailed` if the stream cannot be moved there.
    final func handOverToLibpcap() throws {
        guard let records = mappedRecords else { return }
        mappedRecords = nil
        guard let file = pcap_file(handle.pointer), fseeko(file, off_t(records.offset), SEEK_SET) == 0 else {
            throw CaptureError(.readFailed, message: "cannot seek to offset \(records.offset) of the capture: "
                               + String(cString: strerror(errno)))
        }
    }
}
