import CPcap
import PacketDecoding
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owner of one `pcap_t`: the operations that offline and live handles share.
///
/// `PcapReader` and `LiveCapture` each hold one; it closes the handle (`pcap_close`) when the
/// last reference goes. Not thread-safe: libpcap handles are used from one thread at a time
/// (only `pcap_breakloop` may be called concurrently, see `LiveCapture.Interrupter`).
final class PcapHandle {
    let pointer: OpaquePointer
    /// Nanoseconds per unit of `pcap_pkthdr.ts.tv_usec`: 1 with nanosecond precision, 1000 with
    /// microsecond precision.
    private(set) var nanosecondsPerTick: Int64 = 1000

    /// The stdio buffer of the stream libpcap reads, when the reader gave one (`setvbuf`):
    /// freed once `pcap_close` has closed the stream.
    var streamBuffer: UnsafeMutableRawPointer?

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        refreshPrecision()
    }

    deinit {
        pcap_close(pointer)
        streamBuffer?.deallocate()
    }

    /// Re-reads the timestamp precision (`pcap_get_tstamp_precision`); needed after
    /// `pcap_activate`, which may settle on a different one than requested.
    func refreshPrecision() {
        nanosecondsPerTick = pcap_get_tstamp_precision(pointer) == Int32(PCAP_TSTAMP_PRECISION_NANO) ? 1 : 1000
    }

    /// The link type (`pcap_datalink`), as a LINKTYPE_ value.
    ///
    /// libpcap hands out DLT_ values, which equal the LINKTYPE_ values written in files except
    /// for raw IP: a LINKTYPE_RAW (101) file reads back as the platform's `DLT_RAW` (12 on
    /// Linux, 14 on OpenBSD). Mapping back gives callers one value per link type.
    var linkType: LinkType {
        let dataLinkType = pcap_datalink(pointer)
        return dataLinkType == DLT_RAW ? .raw : LinkType(rawValue: Int(dataLinkType))
    }

    /// The DLT_ value libpcap expects for a LINKTYPE_ value (`pcap_open_dead` takes DLT_ values
    /// and rejects LINKTYPE_RAW, 101, below its 1:1 range).
    static func dataLinkType(for linkType: LinkType) -> Int {
        linkType == .raw ? Int(DLT_RAW) : linkType.rawValue
    }

    /// The snapshot length (`pcap_snapshot`), in bytes.
    var snaplen: Int { Int(pcap_snapshot(pointer)) }

    /// How far libpcap has consumed the stream of an offline handle, in bytes from its first
    /// byte: `ftello(3)` on `pcap_file`, which counts what was read, not what stdio buffered
    /// ahead. `nil` for a live handle (no stream) or when `ftello` fails.
    var streamOffset: Int64? {
        guard let file = pcap_file(pointer) else { return nil }
        let offset = ftello(file)
        return offset >= 0 ? Int64(offset) : nil
    }

    /// libpcap's last error message for this handle (`pcap_geterr`).
    var lastError: String { String(cString: pcap_geterr(pointer)) }

    /// Compiles `expression` (`pcap_compile`, optimized, netmask `PCAP_NETMASK_UNKNOWN`) and
    /// installs it (`pcap_setfilter`).
    func setFilter(_ expression: String) throws {
        var program = bpf_program()
        guard pcap_compile(pointer, &program, expression, 1, PCAP_NETMASK_UNKNOWN) == 0 else {
            throw CaptureError(.invalidFilter, message: "invalid filter '\(expression)': \(lastError)")
        }
        defer { pcap_freecode(&program) }
        guard pcap_setfilter(pointer, &program) == 0 else {
            throw CaptureError(.invalidFilter, message: "cannot set filter '\(expression)': \(lastError)")
        }
    }

    /// The next packet (`pcap_next_ex`), or `nil` at the end of a file or after
    /// `pcap_breakloop`. Live read timeouts (return value 0) are waited through.
    func next() throws -> CapturedPacket? {
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        while true {
            switch pcap_next_ex(pointer, &header, &data) {
            case 1:
                guard let header, let data else { continue }
                var seconds = Int64(header.pointee.ts.tv_sec)
                // The pcap format stores unsigned 32-bit seconds but libpcap reads them as
                // `bpf_int32`, so times after 2038-01-19 arrive negative; the clock and
                // pcapng never produce negative values, so undo the sign extension.
                if seconds < 0 { seconds = Int64(UInt32(truncatingIfNeeded: seconds)) }
                let fraction = Int64(header.pointee.ts.tv_usec)
                // Wrapping arithmetic: a hostile pcapng timestamp must not trap.
                let nanoseconds = seconds &* 1_000_000_000 &+ fraction &* nanosecondsPerTick
                return CapturedPacket(
                    timestamp: Timestamp(nanoseconds: nanoseconds),
                    bytes: UnsafeRawBufferPointer(start: data, count: Int(header.pointee.caplen)),
                    originalLength: Int(header.pointee.len))
            case 0:
                continue
            case PCAP_ERROR_BREAK:
                return nil
            default:
                throw CaptureError(.readFailed, message: lastError, offset: streamOffset)
            }
        }
    }
}
