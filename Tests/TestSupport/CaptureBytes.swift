import Foundation

/// Builds capture files byte by byte, so tests know every field libpcap will report. The packets
/// in them come from `PacketBuilder`.
package enum CaptureBytes {
    package struct Record {
        package var seconds: UInt32
        package var fraction: UInt32
        package var bytes: [UInt8]
        package var originalLength: Int?

        package init(seconds: UInt32, fraction: UInt32, bytes: [UInt8], originalLength: Int? = nil) {
            self.seconds = seconds
            self.fraction = fraction
            self.bytes = bytes
            self.originalLength = originalLength
        }
    }

    /// A classic pcap file (pcap spec, draft-ietf-opsawg-pcap §4–5).
    package static func pcap(linkType: UInt32, nanosecond: Bool = true, bigEndian: Bool = false, snaplen: UInt32 = 65535,
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
    package static func pcapng(linkType: UInt16, packets: [(nanoseconds: UInt64, bytes: [UInt8])]) -> [UInt8] {
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

    /// Writes `bytes` to a fresh file in the temporary directory and returns its path.
    package static func temporaryFile(_ bytes: [UInt8], suffix: String = ".pcap") throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("framedump-capture-\(UUID().uuidString)\(suffix)")
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A path in the temporary directory that does not exist yet.
    package static func temporaryPath(suffix: String = ".pcap") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("framedump-capture-\(UUID().uuidString)\(suffix)").path
    }
}

extension UInt32 {
    fileprivate var littleEndianBytes: [UInt8] { [UInt8(self & 0xFF), UInt8(self >> 8 & 0xFF), UInt8(self >> 16 & 0xFF), UInt8(self >> 24)] }
    fileprivate var bigEndianBytes: [UInt8] { littleEndianBytes.reversed() }
}
