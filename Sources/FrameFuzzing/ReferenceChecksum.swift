import FrameCodec

/// A second, deliberately plain CRC implementation, so the oracle does not grade the
/// decoder's checksums with the decoder's own code.
///
/// Table-driven reflected CRC-32 as in RFC 1952 §8 (zlib's polynomial 0xEDB88320) and
/// RFC 3720 §12.1 (Castagnoli, 0x82F63B78): initial value and final XOR 0xFFFFFFFF.
enum ReferenceChecksum {
    private static let crc32Table = table(polynomial: 0xEDB8_8320)
    private static let crc32cTable = table(polynomial: 0x82F6_3B78)

    private static func table(polynomial: UInt32) -> [UInt32] {
        (0..<256).map { index in
            var value = UInt32(index)
            for _ in 0..<8 {
                value = value & 1 == 1 ? (value >> 1) ^ polynomial : value >> 1
            }
            return value
        }
    }

    /// The checksum of `bytes[range]`, with the bytes in `zeroed` read as zero.
    static func checksum(
        _ algorithm: ChecksumAlgorithm,
        of bytes: [UInt8],
        range: Range<Int>,
        zeroed: Range<Int>
    ) -> UInt32 {
        let table = algorithm == .crc32 ? crc32Table : crc32cTable
        var crc: UInt32 = 0xFFFF_FFFF
        for index in range {
            let byte = zeroed.contains(index) ? 0 : bytes[index]
            crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }
}
