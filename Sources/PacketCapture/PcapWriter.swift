import CPcap
import PacketDecoding
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes packets to a pcap file through libpcap (`pcap_dump_open`, `pcap_dump`).
///
/// Two uses:
/// - Saving what a `LiveCapture` (or a `PcapReader`) delivers, as `framedump capture -w FILE`
///   does while it decodes: `init(path:matching:)` takes the source's link type, snaplen and
///   timestamp precision.
/// - Writing synthetic packets, as `framedump encode` does for a made-up TCP conversation:
///   `init(path:linkType:snaplen:)` opens a "dead" handle
///   (`pcap_open_dead_with_tstamp_precision`) with nanosecond precision.
///
/// The file is classic pcap (not pcapng), magic `a1b23c4d` when timestamps are in
/// nanoseconds, `a1b2c3d4` for microseconds, in host byte order (libpcap's choice).
///
///     let writer = try PcapWriter(path: "out.pcap", linkType: .ethernet)
///     try writer.write(CapturedPacket(timestamp: Timestamp(nanoseconds: 1_700_000_000_123_456_789), bytes: frame))
///     try writer.close()
///
/// Not thread-safe. `deinit` closes the file if `close()` was not called (errors at that point
/// are lost; call `close()` to see them).
public final class PcapWriter {
    private var dumper: OpaquePointer?
    /// The handle the dumper was opened on; kept alive because the dumper reads its settings.
    private let handle: PcapHandle
    private let path: String

    /// Creates a file for synthetic packets.
    ///
    /// - Parameters:
    ///   - path: The file to create (truncated if it exists), or `"-"` for standard output.
    ///   - linkType: The link-layer header type every packet starts with.
    ///   - snaplen: The snapshot length recorded in the file header, in bytes; packets longer
    ///     than this are cut to it (their original length is kept). Default 262144.
    /// - Throws: `CaptureError.Kind.writeFailed` with libpcap's message.
    public convenience init(path: String, linkType: LinkType, snaplen: Int = LiveCapture.defaultSnaplen) throws {
        guard let pointer = pcap_open_dead_with_tstamp_precision(
            Int32(clamping: PcapHandle.dataLinkType(for: linkType)), Int32(clamping: snaplen),
            UInt32(PCAP_TSTAMP_PRECISION_NANO))
        else {
            throw CaptureError(.writeFailed, message: "\(path): cannot create a pcap handle for \(linkType)")
        }
        try self.init(path: path, handle: PcapHandle(pointer))
    }

    /// Creates a file for the packets of a live capture, with its link type, snaplen and
    /// timestamp precision (`pcap_dump_open` on the capture's handle).
    ///
    /// - Parameters:
    ///   - path: The file to create, or `"-"` for standard output.
    ///   - capture: The capture whose packets will be written.
    /// - Throws: `CaptureError.Kind.writeFailed` with libpcap's message.
    public convenience init(path: String, matching capture: LiveCapture) throws {
        try self.init(path: path, handle: capture.handle)
    }

    /// Creates a file for packets read from another capture file, with its link type and
    /// snaplen and nanosecond timestamps (e.g. to save the packets a filter kept).
    ///
    /// - Parameters:
    ///   - path: The file to create, or `"-"` for standard output.
    ///   - reader: The reader whose packets will be written.
    /// - Throws: `CaptureError.Kind.writeFailed` with libpcap's message.
    public convenience init(path: String, matching reader: PcapReader) throws {
        try self.init(path: path, handle: reader.handle)
    }

    private init(path: String, handle: PcapHandle) throws {
        guard let dumper = pcap_dump_open(handle.pointer, path) else {
            throw CaptureError(.writeFailed, message: handle.lastError)
        }
        self.dumper = dumper
        self.handle = handle
        self.path = path
    }

    deinit {
        if let dumper { pcap_dump_close(dumper) }
    }

    /// The link type written in the file header.
    public var linkType: LinkType { handle.linkType }

    /// The snaplen written in the file header, in bytes.
    public var snaplen: Int { handle.snaplen }

    /// Appends one packet (`pcap_dump`).
    ///
    /// Bytes beyond `snaplen` are not written; the record keeps `packet.originalLength` (or
    /// the full byte count, whichever is larger) as the length on the wire, exactly as a
    /// capture cut by the snaplen would.
    ///
    /// - Parameter packet: The packet; its timestamp must lie in 1970…2106 (pcap stores
    ///   unsigned 32-bit seconds).
    /// - Throws: `CaptureError.Kind.writeFailed` if the writer is closed, the timestamp does
    ///   not fit, or the stream reports an I/O error.
    public func write(_ packet: CapturedPacket) throws {
        guard let dumper else {
            throw CaptureError(.writeFailed, message: "\(path): write after close")
        }
        let (seconds, nanoseconds) = packet.timestamp.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        guard packet.timestamp.nanoseconds >= 0, seconds <= Int64(UInt32.max) else {
            throw CaptureError(.writeFailed, message:
                "\(path): timestamp \(packet.timestamp.nanoseconds) ns is outside the pcap range (1970…2106)")
        }
        let captured = min(packet.bytes.count, max(snaplen, 0))
        var header = pcap_pkthdr()
        header.ts.tv_sec = Int(seconds)
        header.ts.tv_usec = Int(nanoseconds / handle.nanosecondsPerTick)
        header.caplen = UInt32(captured)
        header.len = UInt32(clamping: max(packet.originalLength, packet.bytes.count))
        // pcap_dump reads `caplen` bytes, so an empty buffer needs some valid address.
        let base = packet.bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        pcap_dump(UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self), &header,
                  base.assumingMemoryBound(to: UInt8.self))
        if ferror(pcap_dump_file(dumper)) != 0 {
            throw CaptureError(.writeFailed, message: "\(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Pushes buffered packets to the file (`pcap_dump_flush`), so a reader of a growing file
    /// or a pipe sees them.
    ///
    /// - Throws: `CaptureError.Kind.writeFailed` on an I/O error or after `close()`.
    public func flush() throws {
        guard let dumper, pcap_dump_flush(dumper) == 0 else {
            throw CaptureError(.writeFailed, message: "\(path): \(dumper == nil ? "flush after close" : String(cString: strerror(errno)))")
        }
    }

    /// Flushes and closes the file (`pcap_dump_flush`, `pcap_dump_close`). Further writes throw;
    /// closing twice does nothing.
    ///
    /// - Throws: `CaptureError.Kind.writeFailed` if the final flush fails (the file is closed anyway).
    public func close() throws {
        guard let dumper else { return }
        self.dumper = nil
        let flushed = pcap_dump_flush(dumper) == 0
        let error = errno
        pcap_dump_close(dumper)
        if !flushed {
            throw CaptureError(.writeFailed, message: "\(path): \(String(cString: strerror(error)))")
        }
    }
}
