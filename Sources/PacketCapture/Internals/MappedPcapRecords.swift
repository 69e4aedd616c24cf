import PacketDecoding

/// The records of a classic pcap file read in place from its mapping: each packet's bytes are
/// a pointer into the file, nothing is copied or read with a system call per packet.
///
/// ```
/// file header (24 bytes, checked by libpcap)  record header (16 bytes)                  packet
/// magic ver snaplen linktype …                 ts_sec ts_frac caplen len (file's order)  caplen bytes …
/// ```
///
/// (draft-ietf-opsawg-pcap §4–5.) Only what is plainly well formed is read here: a record whose
/// header and `caplen` bytes are wholly in the file and whose `caplen` is at most the file's
/// snapshot length. Anything else — a truncated record, a `caplen` over the snapshot length
/// (libpcap cuts it, or rejects it past its per-link-type maximum), and the end of the mapping —
/// stops this reader at the record's offset, and libpcap reads on from there
/// (``PcapSource/next()``), so damaged files are reported exactly as libpcap reports them and a
/// file that grew since it was mapped is read to its new end.
///
/// Which files come here: classic pcap, version 2.4 or later (earlier versions may have
/// `caplen` and `len` swapped, which libpcap undoes), the microsecond or nanosecond magic in
/// either byte order (not the modified pcap formats with longer record headers); ``PcapReader``
/// adds its own conditions (no BPF filter; link types libpcap leaves as they are).
struct MappedPcapRecords {
    private let file: FileMapping
    /// Where the next record header starts, in bytes from the start of the file.
    private(set) var offset: Int
    private let swapped: Bool
    /// Nanoseconds per unit of `ts_frac`: 1000 for the microsecond magic, 1 for the nanosecond one.
    private let nanosecondsPerTick: Int64
    /// The largest `caplen` read here: libpcap's snapshot length for the file (`pcap_snapshot`).
    private let snapshot: UInt32

    /// The magic numbers read here, as the first four bytes of the file read little-endian.
    private static let microsecondMagic: UInt32 = 0xA1B2_C3D4
    private static let nanosecondMagic: UInt32 = 0xA1B2_3C4D
    /// The file header's size, where the first record starts.
    static let fileHeaderSize = 24
    private static let recordHeaderSize = 16

    /// Whether this reader reads `file`: a classic pcap file of version 2.4 or later with the
    /// standard microsecond or nanosecond magic, in either byte order.
    static func reads(_ file: FileMapping) -> Bool {
        guard file.count >= fileHeaderSize, let swapped = isSwapped(magic: file.base.loadUnaligned(as: UInt32.self)) else {
            return false
        }
        let major = file.base.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        let minor = file.base.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
        return (swapped ? major.byteSwapped : major) == 2 && (swapped ? minor.byteSwapped : minor) >= 4
    }

    /// Whether a file whose first four bytes (in memory order) are `magic` was written in the
    /// other byte order; `nil` when they are not one of the two magics.
    private static func isSwapped(magic: UInt32) -> Bool? {
        switch UInt32(littleEndian: magic) {
        case microsecondMagic, nanosecondMagic: false
        case microsecondMagic.byteSwapped, nanosecondMagic.byteSwapped: true
        default: nil
        }
    }

    /// Reads the records of `file` after its header; `file` is one this reader ``reads(_:)``.
    ///
    /// - Parameters:
    ///   - file: The mapped capture file.
    ///   - snapshot: libpcap's snapshot length for it (`pcap_snapshot`: the header's, or
    ///     libpcap's maximum for the link type when the header's is 0 or larger).
    init(file: FileMapping, snapshot: Int) {
        let magic = UInt32(littleEndian: file.base.loadUnaligned(as: UInt32.self))
        swapped = Self.isSwapped(magic: file.base.loadUnaligned(as: UInt32.self)) ?? false
        nanosecondsPerTick = magic == Self.microsecondMagic || magic == Self.microsecondMagic.byteSwapped ? 1000 : 1
        self.file = file
        self.snapshot = UInt32(clamping: max(0, snapshot))
        offset = Self.fileHeaderSize
    }

    /// Whether the file is byte-swapped (written on a machine of the other byte order).
    var isSwapped: Bool { swapped }

    /// The next packet, its bytes pointing into the mapping (valid until the next call).
    ///
    /// - Returns: `nil` when the record at ``offset`` is not one this reader takes (the end of
    ///   the mapping, a truncated record, a `caplen` over the snapshot length): libpcap reads
    ///   on from ``offset``.
    @inline(__always)
    mutating func next() -> CapturedPacket? {
        file.advance(to: offset)
        guard file.count - offset >= Self.recordHeaderSize else { return nil }
        let header = file.base + offset
        var seconds = header.loadUnaligned(as: UInt32.self)
        var fraction = header.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        var capturedLength = header.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        var wireLength = header.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
        if swapped {
            seconds = seconds.byteSwapped
            fraction = fraction.byteSwapped
            capturedLength = capturedLength.byteSwapped
            wireLength = wireLength.byteSwapped
        }
        let start = offset + Self.recordHeaderSize
        guard capturedLength <= snapshot, file.count - start >= Int(capturedLength) else { return nil }
        offset = start + Int(capturedLength)
        // As libpcap gives them, so that a file reads the same mapped, piped or filtered:
        // `ts_sec` unsigned (see `PcapHandle.next()`); `ts_frac` signed from a file in the host's
        // byte order (a `bpf_int32` copied into `tv_usec`), unsigned from a byte-swapped one
        // (libpcap's SWAPLONG yields an unsigned value); scaled to nanoseconds in 64 bits. Only
        // fractions of a second or more, which no writer produces, tell the two apart.
        // Wrapping: a hostile timestamp must not trap.
        let ticks = swapped ? Int64(fraction) : Int64(Int32(bitPattern: fraction))
        let nanoseconds = Int64(seconds) &* 1_000_000_000 &+ ticks &* nanosecondsPerTick
        return CapturedPacket(timestamp: Timestamp(nanoseconds: nanoseconds),
                              bytes: UnsafeRawBufferPointer(start: header + Self.recordHeaderSize, count: Int(capturedLength)),
                              originalLength: Int(wireLength))
    }
}
