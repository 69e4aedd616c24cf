/// Finds the TLS key logs a pcapng file carries in Decryption Secrets Blocks (pcapng,
/// draft-ietf-opsawg-pcapng §4.7: block type 0x0000000A; secrets type 0x544c534b "TLSK" holds
/// NSS key log text), which libpcap skips.
///
/// ```
/// block:  type u32 | total length u32 | body … | total length u32      (section's byte order)
/// DSB body: secrets type u32 | secrets length u32 | secrets data, padded to 4 bytes
/// ```
///
/// Reads block headers one after the other and skips every other block's body, so memory
/// holds one secrets block at a time whatever the file's size.
public enum PcapngSecrets {
    /// The pcapng block type of a Decryption Secrets Block.
    public static let blockType: UInt32 = 0x0000_000A
    /// The secrets type of a TLS key log.
    public static let tlsKeyLogType: UInt32 = 0x544C_534B
    /// The longest secrets data read.
    public static let maxSecretsLength = 16 << 20

    /// The TLS key logs in the file, in file order.
    ///
    /// - Parameters:
    ///   - read: Reads exactly `count` bytes at the current position; `nil` at end of file or
    ///     on an error.
    ///   - skip: Moves the current position `count` bytes forward; `false` when it cannot.
    /// - Returns: Each DSB's key log text; empty when the file is not pcapng or has none. A file
    ///   that ends or turns malformed part way gives the key logs before that point.
    public static func tlsKeyLogs(read: (_ count: Int) -> [UInt8]?, skip: (_ count: Int) -> Bool) -> [[UInt8]] {
        var logs: [[UInt8]] = []
        var bigEndian = false
        var isFirst = true
        while let header = read(8) {
            defer { isFirst = false }
            // A Section Header Block (0x0A0D0D0A reads the same either way) sets the byte order
            // from its byte-order magic, the first 4 bytes of its body.
            let isSection = header[0] == 0x0A && header[1] == 0x0D && header[2] == 0x0D && header[3] == 0x0A
            var length = 0
            // Not pcapng (a classic pcap): nothing to find.
            if isFirst, !isSection { break }
            if isSection {
                guard let magic = read(4) else { break }
                bigEndian = magic == [0x1A, 0x2B, 0x3C, 0x4D]
                guard bigEndian || magic == [0x4D, 0x3C, 0x2B, 0x1A] else { break }
                length = Int(word(header, 4, bigEndian))
                guard length >= 28, length % 4 == 0, skip(length - 12) else { break }
                continue
            }
            let type = word(header, 0, bigEndian)
            length = Int(word(header, 4, bigEndian))
            guard length >= 12, length % 4 == 0 else { break }
            if type == blockType, length >= 20 {
                guard let kind = read(8) else { break }
                let secretsType = word(kind, 0, bigEndian)
                let secretsLength = Int(word(kind, 4, bigEndian))
                guard secretsLength <= length - 20, secretsLength <= maxSecretsLength else { break }
                if secretsType == tlsKeyLogType {
                    guard let data = read(secretsLength) else { break }
                    logs.append(data)
                    guard skip(length - 20 - secretsLength) else { break }
                } else {
                    guard skip(length - 20) else { break }
                }
            } else {
                guard skip(length - 8) else { break }
            }
        }
        return logs
    }

    private static func word(_ bytes: [UInt8], _ at: Int, _ bigEndian: Bool) -> UInt32 {
        let b = bytes[at..<at + 4].map(UInt32.init)
        return bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }
}
