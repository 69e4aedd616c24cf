import CCRCFold

/// The look-up tables of one reflected CRC-32 polynomial, and the portable loops that use them.
///
/// ``update(_:_:)`` (CRC32Acceleration.swift) is the entry point: it takes the CPU's CRC
/// instructions where ``CRC32Acceleration`` found them and these loops otherwise. Two
/// table-driven methods share the tables, picked by buffer length:
///
/// - **Braided, 5 lanes of 8-byte words** (Mark Adler's method in zlib 1.2.12+ `crc32.c`), for
///   buffers of 80 bytes or more. Words 0, 5, 10... feed lane 0, words 1, 6, 11... lane 1, and so
///   on; each lane keeps its own 32-bit register, and the braid tables move a byte's contribution
///   forward by the 32 bytes the other lanes own. Five independent dependency chains keep the
///   CPU's load ports busy instead of waiting on one chain's latency. The last block merges the
///   lanes by plain slicing-by-8.
/// - **Slicing-by-16** (Kounavis and Berry, "A Systematic Approach to Building High Performance
///   Software-based CRC Generators", 2005) for short buffers and the tail: 16 bytes per step with
///   16 look-ups.
///
/// Slicing table `k` (0...15) maps a byte to its contribution to the register after `k` more
/// zero bytes; table 0 is the classic byte-at-a-time table (Sarwate, CACM 1988). Braid table
/// `7 - k` maps the byte at position `k` (0...7) of a lane's word to its contribution at that
/// lane's next word, `39 - k` zero bytes later (stored reversed, like the slicing tables, so one
/// `fold` serves both).
///
/// The tables live in memory allocated once per polynomial and never freed (they are as long
/// lived as the process), so the hot loops index a raw pointer: no bounds checks, no array
/// retain/release.
struct CRC32Tables: @unchecked Sendable {
    /// CRC-32/ISO-HDLC (zlib), reflected polynomial `0xEDB88320`.
    static let isoHDLC = CRC32Tables(reflectedPolynomial: 0xEDB8_8320, algorithm: .crc32, foldAlgorithm: Int32(CRCFOLD_CRC32))
    /// CRC-32C (Castagnoli, RFC 3720 §12.1), reflected polynomial `0x82F63B78`.
    static let castagnoli = CRC32Tables(reflectedPolynomial: 0x82F6_3B78, algorithm: .crc32c, foldAlgorithm: Int32(CRCFOLD_CRC32C))

    /// The tables of `algorithm`.
    static func `for`(_ algorithm: ChecksumAlgorithm) -> CRC32Tables {
        switch algorithm {
        case .crc32: isoHDLC
        case .crc32c: castagnoli
        }
    }

    /// Independent lanes of the braided loop.
    private static let lanes = 5
    /// Bytes of one braided block: one 8-byte word per lane.
    private static let blockLength = lanes * 8
    /// Where the braid tables start, after the 16 slicing tables.
    private static let braidBase = 16 * 256

    /// 16 slicing tables then 8 braid tables, 256 entries each; immutable once built.
    private let entries: UnsafeMutablePointer<UInt32>
    /// The polynomial as `CCRCFold` names it (`CRCFOLD_CRC32`, `CRCFOLD_CRC32C`).
    let foldAlgorithm: Int32
    /// ``CRC32Acceleration/minimumLength(_:)`` of this polynomial, kept here for the hot path.
    let accelerationMinimum: Int

    private init(reflectedPolynomial: UInt32, algorithm: ChecksumAlgorithm, foldAlgorithm: Int32) {
        self.foldAlgorithm = foldAlgorithm
        accelerationMinimum = CRC32Acceleration.minimumLength(algorithm)
        entries = .allocate(capacity: 24 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc >> 1) ^ (crc & 1 == 0 ? 0 : reflectedPolynomial)
            }
            entries[byte] = crc
        }
        let table0 = entries
        func appendZeroByte(_ register: UInt32) -> UInt32 {
            (register >> 8) ^ table0[Int(register & 0xFF)]
        }
        for table in 1..<16 {
            for byte in 0..<256 {
                entries[256 * table + byte] = appendZeroByte(entries[256 * (table - 1) + byte])
            }
        }
        for position in 0..<8 {
            for byte in 0..<256 {
                var register = entries[byte]
                for _ in 0..<(CRC32Tables.blockLength - 1 - position) {
                    register = appendZeroByte(register)
                }
                entries[CRC32Tables.braidBase + 256 * (7 - position) + byte] = register
            }
        }
    }

    /// Continues the finished CRC `crc` over `bytes` with the tables alone.
    ///
    /// - Returns: the finished CRC of everything before plus `bytes`.
    @inline(__always)
    func portableUpdate(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard var pointer = bytes.baseAddress else { return crc }
        var remaining = bytes.count
        let t = UnsafePointer(entries)
        var state = ~crc
        if remaining >= 2 * CRC32Tables.blockLength {
            // Every block but the last goes through the lanes; the last merges them.
            var lane0 = state, lane1: UInt32 = 0, lane2: UInt32 = 0, lane3: UInt32 = 0, lane4: UInt32 = 0
            let braid = t + CRC32Tables.braidBase
            repeat {
                let word0 = Self.word(pointer, 0) ^ UInt64(lane0)
                let word1 = Self.word(pointer, 8) ^ UInt64(lane1)
                let word2 = Self.word(pointer, 16) ^ UInt64(lane2)
                let word3 = Self.word(pointer, 24) ^ UInt64(lane3)
                let word4 = Self.word(pointer, 32) ^ UInt64(lane4)
                lane0 = Self.fold(word0, braid)
                lane1 = Self.fold(word1, braid)
                lane2 = Self.fold(word2, braid)
                lane3 = Self.fold(word3, braid)
                lane4 = Self.fold(word4, braid)
                pointer += CRC32Tables.blockLength
                remaining &-= CRC32Tables.blockLength
            } while remaining >= 2 * CRC32Tables.blockLength
            // Each lane's register is due at its word of this block; fold the block in order.
            state = Self.slice8(Self.word(pointer, 0) ^ UInt64(lane0), t)
            state = Self.slice8(Self.word(pointer, 8) ^ UInt64(lane1 ^ state), t)
            state = Self.slice8(Self.word(pointer, 16) ^ UInt64(lane2 ^ state), t)
            state = Self.slice8(Self.word(pointer, 24) ^ UInt64(lane3 ^ state), t)
            state = Self.slice8(Self.word(pointer, 32) ^ UInt64(lane4 ^ state), t)
            pointer += CRC32Tables.blockLength
            remaining &-= CRC32Tables.blockLength
        }
        while remaining >= 16 {
            // Only the first word depends on the previous state: look up the second word's
            // bytes first and XOR as a balanced tree to keep the loop-carried chain short.
            let fromHigh = Self.fold(Self.word(pointer, 8), t)
            let fromLow = Self.fold(Self.word(pointer, 0) ^ UInt64(state), t + 0x800)
            state = fromLow ^ fromHigh
            pointer += 16
            remaining &-= 16
        }
        while remaining > 0 {
            let byte = UInt32(pointer.load(as: UInt8.self))
            state = t[Int(truncatingIfNeeded: (state ^ byte) & 0xFF)] ^ (state &>> 8)
            pointer += 1
            remaining &-= 1
        }
        return ~state
    }

    /// The 8 bytes at `offset`, first byte in the low bits (where a reflected CRC register
    /// expects the stream's first byte) whatever the host byte order.
    @inline(__always)
    private static func word(_ pointer: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Looks up the 8 bytes of `word` in 8 consecutive tables starting at `tables` (first byte
    /// in the last table) and XORs the results as a balanced tree.
    @inline(__always)
    private static func fold(_ word: UInt64, _ tables: UnsafePointer<UInt32>) -> UInt32 {
        @inline(__always) func entry(_ table: Int, _ shift: UInt64) -> UInt32 {
            tables[table &* 256 &+ Int(truncatingIfNeeded: (word &>> shift) & 0xFF)]
        }
        return ((entry(7, 0) ^ entry(6, 8)) ^ (entry(5, 16) ^ entry(4, 24)))
            ^ ((entry(3, 32) ^ entry(2, 40)) ^ (entry(1, 48) ^ entry(0, 56)))
    }

    /// One slicing-by-8 step: the register after the 8 bytes of `word` (register already XORed in).
    @inline(__always)
    private static func slice8(_ word: UInt64, _ t: UnsafePointer<UInt32>) -> UInt32 {
        fold(word, t)
    }
}
