/// An incremental CRC-32 over bytes, in either of the two 32-bit polynomials frame headers use.
///
/// Feed bytes in as many pieces as you like: updating over several buffers gives the same
/// ``value`` as one update over their concatenation. The running ``value`` starts at 0, like
/// zlib's `crc32(0, NULL, 0)`, and `value` after an update over `buf` equals zlib's
/// `crc32(value, buf, len)` for ``ChecksumAlgorithm/crc32``.
///
/// Both algorithms are reflected (least significant bit first), with initial value and final
/// XOR `0xFFFFFFFF`, as catalogued in Greg Cook's "Catalogue of parametrised CRC algorithms":
///
/// | algorithm | polynomial (reflected) | check (`"123456789"`) |
/// |---|---|---|
/// | CRC-32/ISO-HDLC (zlib, Ethernet, PNG) | `0xEDB88320` | `0xCBF43926` |
/// | CRC-32C / CRC-32/ISCSI (RFC 3720 §12.1) | `0x82F63B78` | `0xE3069283` |
///
/// Where the CPU has them, the CRC runs on its own instructions, chosen once per process: on
/// x86-64 carry-less multiplication (PCLMULQDQ, or VPCLMULQDQ on 512-bit registers) folding the
/// data as in Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
/// Instruction", and SSE4.2's `crc32` for CRC-32C; on arm64 built for them, the ARMv8 CRC32
/// instructions. Everywhere else, and for buffers too short for those to pay, it is
/// table-driven (zlib's braided method, slicing-by-16 for short buffers; 24 KiB of tables per
/// algorithm, built once on first use). Every path gives the same value.
public struct CRC32: Sendable, Hashable {
    /// The polynomial this CRC uses.
    public let algorithm: ChecksumAlgorithm
    /// Running value; starts at 0 like zlib's `crc32(0, NULL, 0)`.
    public private(set) var value: UInt32 = 0

    /// Creates a CRC with ``value`` 0, ready for its first update.
    ///
    /// - Parameters:
    ///   - algorithm: the polynomial; ``ChecksumAlgorithm/crc32`` (zlib's) by default.
    public init(_ algorithm: ChecksumAlgorithm = .crc32) { self.algorithm = algorithm }

    /// Folds `bytes` into ``value``.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes of the checksummed data; may be empty.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        value = CRC32.update(value, bytes, algorithm: algorithm)
    }

    /// Folds `bytes` into ``value``; contiguous collections (`[UInt8]`, `ArraySlice<UInt8>`)
    /// take the same fast path as ``update(_:)-(UnsafeRawBufferPointer)``.
    ///
    /// - Parameters:
    ///   - bytes: the next bytes of the checksummed data; may be empty.
    @inlinable
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) != nil {
            return
        }
        // A non-contiguous sequence: fold it through a small stack-sized staging array so the
        // sliced loop still does the work.
        var staging: [UInt8] = []
        staging.reserveCapacity(CRC32.stagingCapacity)
        for byte in bytes {
            staging.append(byte)
            if staging.count == CRC32.stagingCapacity {
                update(staging)
                staging.removeAll(keepingCapacity: true)
            }
        }
        update(staging)
    }

    /// The CRC of `bytes` in one call.
    ///
    /// - Parameters:
    ///   - bytes: the whole checksummed data.
    ///   - algorithm: the polynomial; ``ChecksumAlgorithm/crc32`` by default.
    /// - Returns: the finished CRC, as it is stored in a frame (before any byte-order swap).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, algorithm: ChecksumAlgorithm = .crc32) -> UInt32 {
        update(0, bytes, algorithm: algorithm)
    }

    /// The CRC of `bytes` in one call.
    ///
    /// - Parameters:
    ///   - bytes: the whole checksummed data.
    ///   - algorithm: the polynomial; ``ChecksumAlgorithm/crc32`` by default.
    /// - Returns: the finished CRC, as it is stored in a frame (before any byte-order swap).
    @inlinable
    public static func checksum(_ bytes: some Sequence<UInt8>, algorithm: ChecksumAlgorithm = .crc32) -> UInt32 {
        var crc = CRC32(algorithm)
        crc.update(bytes)
        return crc.value
    }

    @usableFromInline
    static let stagingCapacity = 4096

    /// Continues a finished CRC `crc` over `bytes` (the zlib `crc32(crc, buf, len)` shape).
    @usableFromInline
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer, algorithm: ChecksumAlgorithm) -> UInt32 {
        CRC32Tables.for(algorithm).update(crc, bytes)
    }
}
