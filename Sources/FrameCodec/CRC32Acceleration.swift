import CCRCFold

/// The instructions a CRC runs on: the portable tables, or a CPU's carry-less multiply and CRC
/// instructions through the `CCRCFold` C target.
///
/// `CCRCFold` is our own small C target of compiler intrinsics (no library, no libc calls),
/// because the standard library cannot reach these instructions. On x86-64 CPUID picks, once per
/// process, PCLMULQDQ folding (Intel, "Fast CRC Computation for Generic Polynomials Using
/// PCLMULQDQ Instruction", 2009) with SSE4.2's `crc32` for short CRC-32C, or the same folding on
/// 256-bit registers where VPCLMULQDQ and AVX2 are present, on 512-bit ones with AVX-512; on
/// arm64 built for CPUs with the ARMv8 CRC32 instructions (every Apple silicon Mac) those run;
/// everything else, and buffers shorter than ``minimumLength(_:)``, takes the tables.
///
/// Package access: the tests switch ``selected`` (process-wide, atomic) to run the public API on
/// each path, and the benchmark times the portable path beside the selected one; neither is
/// FrameCodec's public API.
package enum CRC32Acceleration: Int32, CaseIterable, Sendable {
    /// The table-driven Swift loops of ``CRC32Tables``.
    case portable
    /// x86-64 PCLMULQDQ folding on 128-bit registers, SSE4.2 `crc32` for short CRC-32C.
    case pclmul
    /// x86-64 VPCLMULQDQ folding on 256-bit registers (AVX2 without AVX-512) for long buffers.
    case vpclmul256
    /// x86-64 VPCLMULQDQ folding on 512-bit registers (AVX-512F) for long buffers.
    case vpclmul512
    /// The ARMv8 CRC32 instructions.
    case armv8

    /// Buffers shorter than this take the tables whatever the CPU. CRC-32 folds only from 64
    /// bytes: below that the fold's chain of dependent multiplies (tail, 128 → 64 → 32 bits)
    /// takes longer than slicing-by-16; CRC-32C's `crc32` instruction wins from 8 bytes
    /// (the crossover rows in docs/performance.md, "CRC").
    package static func minimumLength(_ algorithm: ChecksumAlgorithm) -> Int {
        switch algorithm {
        case .crc32: 64
        case .crc32c: 8
        }
    }

    /// The paths this CPU runs, ``portable`` first.
    package static var supported: [CRC32Acceleration] {
        allCases.filter { crcfold_supports($0.rawValue) != 0 }
    }

    /// The path CRCs of ``minimumLength(_:)`` bytes or more take: the best one the CPU supports
    /// unless a test chose another.
    package static var selected: CRC32Acceleration {
        get { CRC32Acceleration(rawValue: crcfold_path()) ?? .portable }
        set { precondition(crcfold_select(newValue.rawValue) != 0, "\(newValue) does not run on this CPU") }
    }

    /// Continues the finished CRC `crc` over `bytes` on this path, whatever ``selected`` is.
    ///
    /// - Parameters:
    ///   - crc: the finished CRC so far (0 to start).
    ///   - bytes: any length, any alignment.
    ///   - algorithm: the polynomial.
    /// - Returns: the finished CRC of everything before plus `bytes`.
    package func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer, algorithm: ChecksumAlgorithm) -> UInt32 {
        let tables = CRC32Tables.for(algorithm)
        guard self != .portable else { return tables.portableUpdate(crc, bytes) }
        precondition(crcfold_supports(rawValue) != 0, "\(self) does not run on this CPU")
        return crcfold_update(rawValue, tables.foldAlgorithm, crc, bytes.baseAddress, bytes.count)
    }
}

extension CRC32Tables {
    /// Continues the finished CRC `crc` over `bytes` on the ``CRC32Acceleration/selected`` path.
    ///
    /// - Returns: the finished CRC of everything before plus `bytes`.
    @inline(__always)
    func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if bytes.count >= accelerationMinimum {
            let path = crcfold_path()
            if path != CRC32Acceleration.portable.rawValue {
                return crcfold_update(path, foldAlgorithm, crc, bytes.baseAddress, bytes.count)
            }
        }
        return portableUpdate(crc, bytes)
    }
}
