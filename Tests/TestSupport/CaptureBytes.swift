import Foundation

/// Builds capture files byte by byte, so tests know every field libpcap will report.
enum CaptureBytes {
    struct Record {
        var seconds: UInt32
        var fraction: UInt32
        var bytes: [UInt8]
        var originalLength: Int? = nil
    }

    /// A classic pcap file (pcap spec, draft-ietf-opsawg-pcap §4–5).
    static func pcap(linkType: UInt32, nanosecond: Bool = true, bigEndian: Bool = false, snaplen: UInt32 = 65535,
                     records: [Record]) -> [UInt8] {
        var out: [UInt8] = []
        func u32(_ value: UInt32) { out += bigEndian ? value.bigEndianBytes : value.littleEndianBytes }
        func u16(_ value: UInt16) { out += bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)] }
        u32(nanosecond ? 0xA1B2_3C4D : 0xA1B2_C3D4)
        u16(2); u16(4); u32(0); u32(0); u32(snaplen); u32(linkType)
        for record in records {
            u32(record.seconds); u32(record.fraction)
            u32(UInt32(record.bytes.count)); u32(UInt32(record.originalLength ?? record.bytes.count))
            out += record.bytes
        }
        return out
    }

    /// A pcapng file: one section, one interface with `if_tsresol` 9 (nanoseconds), one
    /// Enhanced Packet Block per packet (pcapng spec §4.1, §4.2, §4.3).
    static func pcapng(linkType: UInt16, packets: [(nanoseconds: UInt64, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        func block(_ type: UInt32, _ body: [UInt8]) {
            let length = UInt32(12 + body.count)
            out += type.littleEndianBytes + length.littleEndianBytes + body + length.littleEndianBytes
        }
        block(0x0A0D_0D0A, UInt32(0x1A2B_3C4D).littleEndianBytes + [1, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8))
        // IDB: link type, reserved, snaplen, option if_tsresol (9) = 9, padded; opt_endofopt.
        block(1, [UInt8(linkType & 0xFF), UInt8(linkType >> 8), 0, 0] + UInt32(0).littleEndianBytes
              + [9, 0, 1, 0, 9, 0, 0, 0] + [0, 0, 0, 0])
        for packet in packets {
            let padded = packet.bytes + [UInt8](repeating: 0, count: (4 - packet.bytes.count % 4) % 4)
            block(6, UInt32(0).littleEndianBytes + UInt32(packet.nanoseconds >> 32).littleEndianBytes
                  + UInt32(packet.nanoseconds & 0xFFFF_FFFF).littleEndianBytes
                  + UInt32(packet.bytes.count).littleEndianBytes + UInt32(packet.bytes.count).littleEndianBytes + padded)
        }
        return out
    }

    /// An Ethernet + IPv4 + TCP packet (checksums zero: libpcap and BPF do not check them).
    static func ethernetTCP(sourcePort: UInt16, destinationPort: UInt16, payload: [UInt8]) -> [UInt8] {
        let ethernet: [UInt8] = [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0x08, 0x00]
        let totalLength = UInt16(20 + 20 + payload.count)
        let ip: [UInt8] = [0x45, 0, UInt8(totalLength >> 8), UInt8(totalLength & 0xFF), 0, 0, 0x40, 0, 64, 6, 0, 0,
                           127, 0, 0, 1, 127, 0, 0, 1]
        let tcp: [UInt8] = [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8),
                            UInt8(destinationPort & 0xFF), 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x18, 0xFF, 0xFF, 0, 0, 0, 0]
        return ethernet + ip + tcp + payload
    }

    /// Writes `bytes` to a fresh file in the temporary directory and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".pcap") throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("framedump-capture-\(UUID().uuidString)\(suffix)")
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A path in the temporary directory that does not exist yet.
    static func temporaryPath(suffix: String = ".pcap") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("framedump-capture-\(UUID().uuidString)\(suffix)").path
    }
}

extension UInt32 {
    var littleEndianBytes: [UInt8] { [UInt8(self & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self >> 16 & 0xFF), UInt8(self >> 24)] }
    var bigEndianBytes: [UInt8] { littleEndianBytes.reversed() }
}
