import CPcap
import PacketDecoding
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads packets from a pcap or pcapng capture file, a `FILE *` or standard input, through libpcap.
///
/// Timestamps are always delivered in nanoseconds: the file is opened with
/// `PCAP_TSTAMP_PRECISION_NANO`, so libpcap scales microsecond files up and keeps nanosecond
/// files (pcap magic `a1b23c4d`, pcapng `if_tsresol` 9) exact.
///
///     let reader = try PcapReader(path: "conversation.pcap")
///     try reader.setFilter("tcp port 7000")
///     while let packet = try reader.next() {
///         // packet.bytes starts with a reader.linkType header; valid until the next call
///     }
///
/// Errors in the middle of a file (a truncated last record, a corrupt length) are thrown by
/// the `next()` call that meets them, after every good packet before them was returned.
///
/// - Note: libpcap reports one link type per file. A pcapng file whose interfaces have
///   different link types is rejected when the first packet of a differing interface is
///   reached ("an interface has a type … different from the type of the first interface").
///   Split such files first (`editcap -T`, or `tshark -r in -w out -Y frame.interface_id==N`).
///
/// Not thread-safe; use one reader from one thread at a time. `deinit` closes the handle
/// (`pcap_close`), which also closes any `FILE *` the reader was given.
public final class PcapReader: PcapSource {
    /// Opens a capture file by path (libpcap's `pcap_fopen_offline_with_tstamp_precision`,
    /// nanosecond precision).
    ///
    /// A classic pcap file (version 2.4, microsecond or nanosecond magic, either byte order) is
    /// then read in place from a read-only mapping of the file: each packet's bytes point into
    /// the mapping, with no copy and no system call per packet. libpcap reads everything else —
    /// pcapng, standard input, the modified pcap formats, a file once `setFilter(_:)` was
    /// called, byte-swapped Linux cooked captures (whose headers libpcap rewrites) — and it
    /// takes over from the first record of a classic file that is not plainly well formed, so
    /// truncated and damaged files give libpcap's own errors, after the same packets. Streams
    /// libpcap reads get a large stdio buffer, so that its two reads a packet cost no system
    /// call each.
    ///
    /// - Parameter path: A pcap or pcapng file, or `"-"` for standard input (libpcap reads
    ///   `stdin` itself; use `init(prefix:fileDescriptor:)` if bytes were already read from it).
    /// - Throws: `CaptureError.Kind.openFailed` with libpcap's message ("No such file or
    ///   directory", "unknown file format", …).
    public convenience init(path: String) throws {
        try self.init(path: path, mapsClassicPcap: true)
    }

    /// Opens a capture file by path, reading a classic pcap file from its mapping or not.
    ///
    /// - Parameters:
    ///   - path: As for `init(path:)`.
    ///   - mapsClassicPcap: `false` has libpcap read every packet (the tests compare the two).
    /// - Throws: As `init(path:)`.
    package convenience init(path: String, mapsClassicPcap: Bool) throws {
        if path == "-" {
            var errorBuffer = ErrorBuffer()
            guard let pointer = pcap_open_offline_with_tstamp_precision(
                path, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer.storage)
            else {
                throw CaptureError(.openFailed, message: "\(path): \(errorBuffer.message)")
            }
            self.init(handle: PcapHandle(pointer))
            return
        }
        // As `pcap_open_offline` opens it, and with its message on failure.
        guard let file = fopen(path, "rb") else {
            throw CaptureError(.openFailed, message: "\(path): \(String(cString: strerror(errno)))")
        }
        // Only a classic pcap file is mapped; libpcap still opens it, checking its header.
        let mapping = mapsClassicPcap ? FileMapping(descriptor: fileno(file)).flatMap {
            MappedPcapRecords.reads($0) ? $0 : nil
        } : nil
        // glibc sizes a buffer it allocates itself by the file's block size, whatever `setvbuf`
        // asks, so the reader gives its own; it is freed after the stream is closed.
        let buffer = mapping == nil ? UnsafeMutableRawPointer.allocate(byteCount: Self.streamBufferSize, alignment: 64) : nil
        if let buffer { setvbuf(file, buffer.assumingMemoryBound(to: CChar.self), _IOFBF, Self.streamBufferSize) }
        do {
            try self.init(file: file)
        } catch {
            buffer?.deallocate()
            throw error
        }
        handle.streamBuffer = buffer
        guard let mapping, PacketParser.supports(linkType) else { return }
        let records = MappedPcapRecords(file: mapping, snapshot: snaplen)
        if records.isSwapped && (linkType == .linuxSLL || linkType == .linuxSLL2) { return }
        mappedRecords = records
        fileMapping = mapping
    }

    /// Whether the next packets are read from the file's mapping (until a record libpcap must
    /// read, or a filter); `false`: libpcap reads them.
    package var readsFromMapping: Bool { mappedRecords != nil }

    /// The stdio buffer of a stream libpcap reads, in bytes: its two `fread`s a packet (record
    /// header, then data) are served from memory, one `read(2)` per buffer.
    static let streamBufferSize = 1 << 20

    /// Reads a capture from an open stdio stream (`pcap_fopen_offline_with_tstamp_precision`).
    ///
    /// The reader takes ownership of `file`: it is closed with the handle (`pcap_close` calls
    /// `fclose`), also when this initializer throws. The stream must be positioned at the
    /// capture's first byte (the magic number).
    ///
    /// - Parameter file: An open readable stream, e.g. from `fopen`, `fdopen` or `fmemopen`.
    /// - Throws: `CaptureError.Kind.openFailed` with libpcap's message.
    public convenience init(file: UnsafeMutablePointer<FILE>) throws {
        var errorBuffer = ErrorBuffer()
        guard let pointer = pcap_fopen_offline_with_tstamp_precision(
            file, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errorBuffer.storage)
        else {
            fclose(file)
            throw CaptureError(.openFailed, message: errorBuffer.message)
        }
        self.init(handle: PcapHandle(pointer))
    }

    /// Reads a capture whose first bytes the caller has already consumed from a file descriptor.
    ///
    /// This is how `framedump decode -` reads a pipe: the CLI reads the first 4 bytes of
    /// standard input, checks them with `isCaptureFile(prefix:)`, and, if they are a capture
    /// magic, hands them back here. The reader sees `prefix` followed by the rest of
    /// `fileDescriptor`, read on demand with `read(2)` (a live `tcpdump -w -` pipe streams; it
    /// is not buffered whole). It is built on a `fopencookie(3)` stream because a pipe cannot
    /// be rewound and `ungetc` guarantees only one byte of push-back.
    ///
    /// The descriptor stays open when the reader goes away: it belongs to the caller.
    ///
    /// - Parameters:
    ///   - prefix: The bytes already read from the start of the stream, in order (any count,
    ///     including none).
    ///   - fileDescriptor: Where the rest of the stream comes from, e.g. `STDIN_FILENO`.
    /// - Throws: `CaptureError.Kind.openFailed` if the stream cannot be created or libpcap
    ///   does not recognise the data.
    public convenience init(prefix: [UInt8], fileDescriptor: Int32) throws {
        guard let file = PrefixedStream.open(prefix: prefix, fileDescriptor: fileDescriptor) else {
            throw CaptureError(.openFailed, message: "\(PrefixedStream.functionName): \(String(cString: strerror(errno)))")
        }
        try self.init(file: file)
    }

    /// How far libpcap has read into the capture, in bytes from its first byte: after `next()`
    /// returned a packet, the end of that packet's record (the file's size once all are read).
    ///
    /// It is the reader's own position in a mapped classic pcap file, else `ftello(3)` on the
    /// stream libpcap reads (`pcap_file`), so it counts what was consumed, not what stdio
    /// buffered ahead; a reader made with `init(prefix:fileDescriptor:)` counts the bytes its
    /// stream has handed libpcap. With the file's size it tells how much of a capture was read
    /// (`framedump decode`'s progress line).
    ///
    /// - Returns: The offset, or `nil` when `ftello` fails.
    public var fileOffset: Int64? {
        if let records = mappedRecords { return Int64(records.offset) }
        return handle.streamOffset
    }

    /// The pcapng Section Header Block type (pcapng spec §4.1), read big-endian; the same bytes
    /// in either byte order.
    private static let pcapngMagic: UInt32 = 0x0A0D_0D0A

    /// Whether `input`, the whole of an input, is a pcapng Section Header Block type cut after 2
    /// or 3 bytes (`0a 0d`, `0a 0d 0d`). Those bytes are a line feed and carriage returns, which
    /// a text reader takes for blank lines; a pcap magic cut short is not text. One byte, a lone
    /// line feed, is as likely an empty text.
    ///
    /// - Parameter input: Every byte the input holds.
    public static func isCutPcapngMagic<Bytes: Collection<UInt8>>(_ input: Bytes) -> Bool {
        let magic = withUnsafeBytes(of: pcapngMagic.bigEndian) { Array($0) }
        return (2...3).contains(input.count) && input.elementsEqual(magic.prefix(input.count))
    }

    /// Whether `prefix` starts like a capture file libpcap can read.
    ///
    /// Recognises the pcap magics in either byte order — `a1b2c3d4` (microseconds),
    /// `a1b23c4d` (nanoseconds), `a1b2cd34` (Kuznetzov's modified pcap) — and the pcapng
    /// Section Header Block type `0a0d0d0a` (pcapng spec §4.1). Hex dumps, the CLI's other
    /// input, are text and never start with these bytes.
    ///
    /// - Parameter prefix: The first bytes of the input; at least 4 are needed.
    /// - Returns: `true` if the first 4 bytes are one of the magics; `false` otherwise,
    ///   including when fewer than 4 bytes are given.
    public static func isCaptureFile<Bytes: Collection<UInt8>>(prefix: Bytes) -> Bool {
        var magic: UInt32 = 0
        var count = 0
        for byte in prefix.prefix(4) {
            magic = magic << 8 | UInt32(byte)
            count += 1
        }
        guard count == 4 else { return false }
        switch magic {
        case 0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1, 0xA1B2_CD34, 0x34CD_B2A1, pcapngMagic:
            return true
        default:
            return false
        }
    }
}
