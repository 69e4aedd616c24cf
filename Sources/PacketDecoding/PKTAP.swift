/// Apple's PKTAP header (`LINKTYPE_PKTAP`, 258; DLT 149 in files from older Apple tools): what
/// `tcpdump -i pktap` and `rvictl`'s `rvi0` write, one header per packet naming the interface
/// and the process, then the packet of the link type it names.
///
/// Layout from xnu's `bsd/net/pktap.h`; every field is in the capturing host's byte order,
/// little-endian on every Mac and iPhone (as tcpdump's `print-pktap.c` and Wireshark read it).
///
/// Version 1, `struct pktap_header` (108 bytes up to `pth_ecomm`, longer in newer kernels —
/// `pth_length` says how long):
///
/// ```
///  0 pth_length u32    4 pth_type_next u32 (1: a packet)    8 pth_dlt u32 (inner link type)
/// 12 pth_ifname[24]   36 pth_flags u32   40 pth_protocol_family   44 pre  48 post lengths
/// 52 pth_pid i32      56 pth_comm[17]    76 pth_svc   80 iftype u16  82 ifunit u16
/// 84 pth_epid i32     88 pth_ecomm[17]   …
/// ```
///
/// Version 2, `struct pktap_v2_hdr` (40 bytes, then the strings its offsets point at; told
/// from version 1 by `PTH_FLAG_V2_HDR`, 0x80000, in `pth_flags`, which both keep at byte 36):
///
/// ```
///  0 pth_length u8   1 uuid off  2 e_uuid off  3 ifname off  4 comm off  5 e_comm off  (u8 each,
///  6 pth_dlt u16     8 pre  10 post  12 iftype  14 ipproto   16 family u32                from the
/// 20 svc u32  24 flowid u32   28 pth_pid i32   32 pth_e_pid i32   36 pth_flags u32        header's start;
///                                                                                          0: absent)
/// ```
///
/// Names are NUL-terminated within their fields (`pth_comm`: MAXCOMLEN 16 bytes + NUL).
enum PKTAP {
    static let version1Length = 108
    static let version2Length = 40
    private static let version2Flag: UInt32 = 0x0008_0000
    private static let packetRecord: UInt32 = 1

    /// The header's length and the inner link type, or why the packet cannot be followed.
    private enum Header {
        case valid(length: Int, inner: LinkType, version2: Bool)
        case invalid(LinkLayer.Outcome)
    }

    private static func header(_ packet: UnsafeRawBufferPointer) -> Header {
        if packet.count >= version2Length, packet.littleEndian(UInt32.self, at: 36) & version2Flag != 0 {
            let length = Int(packet[0])
            guard length >= version2Length, length <= packet.count else {
                return .invalid(.malformed(.badPKTAPHeaderLength(length), offset: 0))
            }
            return .valid(length: length, inner: LinkType(rawValue: Int(packet.littleEndian(UInt16.self, at: 6))), version2: true)
        }
        guard packet.count >= version1Length else { return .invalid(.malformed(.truncatedHeader(.pktap), offset: 0)) }
        let length = Int(packet.littleEndian(UInt32.self, at: 0))
        guard length >= version1Length, length <= packet.count else {
            return .invalid(.malformed(.badPKTAPHeaderLength(length), offset: 0))
        }
        let record = packet.littleEndian(UInt32.self, at: 4)
        guard record == packetRecord else { return .invalid(.unsupportedLayer(.pktapRecordType(record))) }
        return .valid(length: length, inner: LinkType(rawValue: Int(packet.littleEndian(UInt32.self, at: 8))), version2: false)
    }

    /// Locates the IP header in the packet after the PKTAP header.
    static func decapsulate(_ packet: UnsafeRawBufferPointer) -> LinkLayer.Outcome {
        switch header(packet) {
        case .invalid(let outcome):
            return outcome
        case .valid(let length, let inner, _):
            switch inner.rawValue {
            case 149, 258: return .unsupportedLayer(.nestingTooDeep)
            case _ where !LinkLayer.supports(inner): return .unsupportedLayer(.linkType(inner))
            default: return LinkLayer.decapsulate(packet.slice(length, packet.count), linkType: inner).shifted(by: length)
            }
        }
    }

    /// The interface and process a PKTAP header names.
    ///
    /// - Returns: `nil` when the header is invalid or names no process (pid 0 or -1 and no name).
    static func process(in packet: UnsafeRawBufferPointer) -> PacketProcess? {
        guard case .valid(let length, _, let version2) = header(packet) else { return nil }
        let header = packet.slice(0, length)
        let process: PacketProcess
        if version2 {
            func text(offsetAt index: Int, maximum: Int) -> InlineText? {
                let start = Int(header[index])
                return start == 0 ? nil : string(in: header, at: start, maximum: maximum)
            }
            process = PacketProcess(pid: pid(header.littleEndian(UInt32.self, at: 28)), name: text(offsetAt: 4, maximum: 17),
                                    effectivePID: pid(header.littleEndian(UInt32.self, at: 32)), effectiveName: text(offsetAt: 5, maximum: 17),
                                    interface: text(offsetAt: 3, maximum: 24))
        } else {
            process = PacketProcess(pid: pid(header.littleEndian(UInt32.self, at: 52)), name: string(in: header, at: 56, maximum: 17),
                                    effectivePID: pid(header.littleEndian(UInt32.self, at: 84)), effectiveName: string(in: header, at: 88, maximum: 17),
                                    interface: string(in: header, at: 12, maximum: 24))
        }
        return process.pid == nil && process.name == nil && process.effectivePID == nil && process.effectiveName == nil
            ? nil : process
    }

    /// xnu leaves 0 or -1 where it matched no process.
    private static func pid(_ field: UInt32) -> Int32? {
        let value = Int32(bitPattern: field)
        return value == 0 || value == -1 ? nil : value
    }

    /// The NUL-terminated text at `start` (at most `maximum` bytes, within `header`); `nil` when empty.
    private static func string(in header: UnsafeRawBufferPointer, at start: Int, maximum: Int) -> InlineText? {
        guard start < header.count else { return nil }
        let field = header.slice(start, min(header.count, start + maximum))
        return InlineText(field.slice(0, field.firstIndex(of: 0) ?? field.count))
    }
}
