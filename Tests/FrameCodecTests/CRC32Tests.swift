import CCRCFold
import Foundation
import TestSupport
import Testing
@testable import FrameCodec

/// Bit-at-a-time reflected CRC-32: the definition, slow and obviously right.
private func referenceCRC(_ bytes: some Sequence<UInt8>, _ algorithm: ChecksumAlgorithm) -> UInt32 {
    let polynomial: UInt32 = algorithm == .crc32 ? 0xEDB8_8320 : 0x82F6_3B78
    var register: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        register ^= UInt32(byte)
        for _ in 0..<8 {
            register = (register >> 1) ^ (register & 1 == 0 ? 0 : polynomial)
        }
    }
    return ~register
}

/// The bitwise CRC of every prefix of `bytes`: element `n` is the CRC of the first `n` bytes.
private func referencePrefixCRCs(_ bytes: some Collection<UInt8>, _ algorithm: ChecksumAlgorithm) -> [UInt32] {
    let polynomial: UInt32 = algorithm == .crc32 ? 0xEDB8_8320 : 0x82F6_3B78
    var register: UInt32 = 0xFFFF_FFFF
    var prefixes = [~register]
    for byte in bytes {
        register ^= UInt32(byte)
        for _ in 0..<8 {
            register = (register >> 1) ^ (register & 1 == 0 ? 0 : polynomial)
        }
        prefixes.append(~register)
    }
    return prefixes
}

/// Polynomials over GF(2) as bit sets, highest degree in the highest bit: what the folding
/// constants are defined from.
private enum GF2 {
    /// P(x) with its x^32 term, from the reflected 32-bit form.
    static func polynomial(_ algorithm: ChecksumAlgorithm) -> UInt64 {
        let reflected: UInt32 = algorithm == .crc32 ? 0xEDB8_8320 : 0x82F6_3B78
        return 1 << 32 | UInt64(reflected.bitReversed)
    }

    /// x^exponent mod P(x), by repeated multiplication by x.
    static func power(_ exponent: Int, modulo p: UInt64) -> UInt64 {
        var remainder: UInt64 = 1
        for _ in 0..<exponent {
            remainder <<= 1
            if remainder >> 32 != 0 { remainder ^= p }
        }
        return remainder
    }

    /// ⌊x^64 / P(x)⌋, by long division.
    static func quotientOfX64(by p: UInt64) -> UInt64 {
        var quotient: UInt64 = 0
        var remainder = (high: UInt64(1), low: UInt64(0))  // x^64 as 65 bits
        for degree in stride(from: 64, through: 32, by: -1) {
            let bit = degree == 64 ? remainder.high & 1 : remainder.low >> UInt64(degree) & 1
            guard bit != 0 else { continue }
            quotient |= 1 << UInt64(degree - 32)
            if degree == 64 { remainder.high = 0 }
            remainder.low ^= p << UInt64(degree - 32)
        }
        return quotient
    }

    /// The carry-less product of two polynomials of degree ≤ 32, as 65 bits.
    static func multiply(_ a: UInt64, _ b: UInt64) -> (high: UInt64, low: UInt64) {
        var product = (high: UInt64(0), low: UInt64(0))
        for bit in 0..<33 where b >> UInt64(bit) & 1 != 0 {
            product.low ^= a << UInt64(bit)
            if bit > 0 { product.high ^= a >> UInt64(64 - bit) }
        }
        return product
    }

    /// The lowest `bits` bits of `value`, in reverse order.
    static func reflect(_ value: UInt64, bits: Int) -> UInt64 {
        value.bitReversed >> UInt64(64 - bits)
    }
}

private extension UInt32 {
    var bitReversed: UInt32 {
        var value = self, result: UInt32 = 0
        for _ in 0..<32 {
            result = result << 1 | value & 1
            value >>= 1
        }
        return result
    }
}

private extension UInt64 {
    var bitReversed: UInt64 {
        UInt64(UInt32(truncatingIfNeeded: self).bitReversed) << 32 | UInt64(UInt32(truncatingIfNeeded: self >> 32).bitReversed)
    }
}

/// The paths this CPU runs, each with both algorithms.
private let pathsAndAlgorithms = CRC32Acceleration.supported.flatMap { path in
    ChecksumAlgorithm.allCases.map { (path, $0) }
}

/// Serialized: some tests switch the process-wide ``CRC32Acceleration/selected`` path (other
/// suites' CRCs stay right whichever path they run on).
@Suite(.serialized) struct CRC32Tests {
    @Test(arguments: [
        ("", ChecksumAlgorithm.crc32, UInt32(0)),
        ("", .crc32c, 0),
        ("a", .crc32, 0xE8B7_BE43),
        ("a", .crc32c, 0xC1D0_4330),
        ("123456789", .crc32, 0xCBF4_3926),
        ("123456789", .crc32c, 0xE306_9283),
        ("The quick brown fox jumps over the lazy dog", .crc32, 0x414F_A339),
        ("The quick brown fox jumps over the lazy dog", .crc32c, 0x2262_0404),
    ])
    func knownVectors(text: String, algorithm: ChecksumAlgorithm, expected: UInt32) {
        #expect(CRC32.checksum(Array(text.utf8), algorithm: algorithm) == expected)
        #expect(CRC32.checksum(text.utf8, algorithm: algorithm) == expected)
        let viaRaw = Array(text.utf8).withUnsafeBytes { CRC32.checksum($0, algorithm: algorithm) }
        #expect(viaRaw == expected)
    }

    @Test func oneMebibyteOfZeros() {
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        // zlib's crc32(0, zeros, 1 MiB), and the bitwise definition for CRC-32C (Python, once).
        #expect(CRC32.checksum(zeros) == 0xA738_EA1C)
        #expect(CRC32.checksum(zeros, algorithm: .crc32c) == 0x1429_8C12)
    }

    @Test func freshValueIsZeroLikeZlib() {
        #expect(CRC32().value == 0)
        #expect(CRC32(.crc32c).value == 0)
        var crc = CRC32()
        crc.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(crc.value == 0)
    }

    @Test func nonContiguousSequencesTakeTheSamePath() {
        let bytes = (0..<10_000).lazy.map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(CRC32.checksum(bytes) == referenceCRC(bytes, .crc32))
        #expect(CRC32.checksum(bytes, algorithm: .crc32c) == referenceCRC(bytes, .crc32c))
    }

    /// Every length through the short, sliced and braided paths and their boundaries, at every
    /// alignment of the first byte.
    @Test(arguments: ChecksumAlgorithm.allCases)
    func everyLengthAndAlignmentMatchesTheDefinition(algorithm: ChecksumAlgorithm) {
        var random = FuzzRandom(seed: 7)
        let data = random.bytes(300)
        for start in 0..<8 {
            for end in start...data.count {
                let slice = data[start..<end]
                #expect(CRC32.checksum(slice, algorithm: algorithm) == referenceCRC(slice, algorithm),
                        "bytes \(start)..<\(end)")
            }
        }
    }

    @Test(arguments: propertySeeds, CRC32Acceleration.supported)
    func incrementalOverRandomSplitsMatchesTheDefinition(seed: UInt64, path: CRC32Acceleration) {
        let best = CRC32Acceleration.selected
        CRC32Acceleration.selected = path
        defer { CRC32Acceleration.selected = best }
        var random = FuzzRandom(seed: seed)
        for _ in 0..<40 {
            let length = Int.random(in: 0...5000, using: &random)
            let data = random.bytes(length)
            let algorithm = ChecksumAlgorithm.allCases.randomElement(using: &random)!
            let expected = referenceCRC(data, algorithm)
            #expect(CRC32.checksum(data, algorithm: algorithm) == expected, "seed \(seed), length \(length)")
            var crc = CRC32(algorithm)
            var position = 0
            while position < length {
                let next = Int.random(in: position...length, using: &random)
                data[position..<next].withUnsafeBytes { crc.update($0) }
                position = next
            }
            #expect(crc.value == expected, "seed \(seed), length \(length)")
        }
    }

    /// Each path on its own (not through ``CRC32Acceleration/selected``), every length from 0 to
    /// 4096 bytes, starting at an alignment that cycles through 0...63.
    @Test(arguments: pathsAndAlgorithms)
    func everyLengthOnEachPathMatchesTheDefinition(path: CRC32Acceleration, algorithm: ChecksumAlgorithm) {
        var random = FuzzRandom(seed: 16)
        let data = random.bytes(4096 + 64)
        let references = (0..<64).map { referencePrefixCRCs(data[$0..<$0 + 4096], algorithm) }
        data.withUnsafeBytes { bytes in
            for length in 0...4096 {
                let start = length % 64
                let crc = path.update(0, UnsafeRawBufferPointer(rebasing: bytes[start..<start + length]), algorithm: algorithm)
                #expect(crc == references[start][length], "\(path), \(algorithm), bytes \(start)..<\(start + length)")
            }
        }
    }

    /// Each path, every alignment 0...63 at every length through the block boundaries of the
    /// fold loops (16, 64 and 256 bytes) and the short-buffer thresholds, continuing a CRC.
    @Test(arguments: pathsAndAlgorithms)
    func everyAlignmentOnEachPathMatchesTheDefinition(path: CRC32Acceleration, algorithm: ChecksumAlgorithm) {
        var random = FuzzRandom(seed: 63)
        let data = random.bytes(600 + 64)
        let prefix = data[0..<5]
        let prefixCRC = referenceCRC(prefix, algorithm)
        data.withUnsafeBytes { bytes in
            for start in 0..<64 {
                let references = referencePrefixCRCs(data[0..<5] + data[start..<start + 600], algorithm)
                for length in 0...600 {
                    let crc = path.update(prefixCRC, UnsafeRawBufferPointer(rebasing: bytes[start..<start + length]), algorithm: algorithm)
                    #expect(crc == references[5 + length], "\(path), \(algorithm), bytes \(start)..<\(start + length)")
                }
            }
        }
    }

    /// ``CRC32/Running`` on each path, forced: every length 0...4096 (the start cycling through
    /// alignments 0...63) cut at random points into 1...20 updates, empty and 1-byte ones among
    /// them, finished after every update (finishing does not end the state) and checked against
    /// the bitwise CRC of the bytes so far. Begins from a finished CRC of 5 bytes half the time,
    /// as the decoder's running checksum begins from its header's. Every third length runs
    /// the state that does not fold (each update finishing the CRC).
    @Test(arguments: pathsAndAlgorithms)
    func runningStateOverRandomSplitsMatchesTheDefinition(path: CRC32Acceleration, algorithm: ChecksumAlgorithm) {
        let best = CRC32Acceleration.selected
        CRC32Acceleration.selected = path
        defer { CRC32Acceleration.selected = best }
        var random = FuzzRandom(seed: 0x5EED_0000 | UInt64(path.rawValue))
        let data = random.bytes(4096 + 64)
        let prefix = random.bytes(5)
        let tables = CRC32Tables.for(algorithm)
        let plain = (0..<64).map { referencePrefixCRCs(data[$0..<$0 + 4096], algorithm) }
        let continued = (0..<64).map { referencePrefixCRCs(prefix + data[$0..<$0 + 4096], algorithm) }
        data.withUnsafeBytes { bytes in
            for length in 0...4096 {
                let start = length % 64
                let continuing = length % 2 == 1
                var cuts = (1..<Int.random(in: 1...20, using: &random)).map { _ in Int.random(in: 0...length, using: &random) }
                if length > 0 {
                    let single = Int.random(in: 0..<length, using: &random)
                    cuts += [single, single + 1]
                }
                cuts.sort()
                var running = CRC32.Running(tables, continuing: continuing ? referenceCRC(prefix, algorithm) : 0, folding: length % 3 != 0)
                var position = 0
                for cut in cuts + [length] {
                    running.update(UnsafeRawBufferPointer(rebasing: bytes[start + position..<start + cut]))
                    position = cut
                    let expected = continuing ? continued[start][5 + position] : plain[start][position]
                    #expect(running.finish() == expected, "\(path), \(algorithm), bytes \(start)..<\(start + position) of \(length), cuts \(cuts)")
                }
            }
        }
        #expect(CRC32Acceleration.selected == path)
    }

    /// The public API on every path, forced in turn, the portable one included; and switching
    /// back leaves the best path selected.
    @Test func publicAPITakesTheSelectedPath() {
        let best = CRC32Acceleration.selected
        #expect(best == CRC32Acceleration.supported.last)
        defer { CRC32Acceleration.selected = best }
        var random = FuzzRandom(seed: 5)
        let data = random.bytes(70_000)
        for path in CRC32Acceleration.supported {
            CRC32Acceleration.selected = path
            #expect(CRC32Acceleration.selected == path)
            for algorithm in ChecksumAlgorithm.allCases {
                for length in [0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1448, 65_536 + 13] {
                    #expect(CRC32.checksum(data[3..<3 + length], algorithm: algorithm) == referenceCRC(data[3..<3 + length], algorithm),
                            "\(path), \(algorithm), length \(length)")
                }
            }
        }
    }

    #if arch(x86_64) && os(Linux)
    /// CPUID's verdict agrees with the kernel's view of the CPU (`/proc/cpuinfo` flags), so the
    /// fast paths are not silently off where they could run.
    @Test func supportedPathsMatchTheCPUFlags() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flagsLine = try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
        let flags = Set(flagsLine.split(separator: " ").map(String.init))
        var expected: [CRC32Acceleration] = [.portable]
        if flags.isSuperset(of: ["pclmulqdq", "ssse3", "sse4_1", "sse4_2"]) {
            expected.append(.pclmul)
            if flags.isSuperset(of: ["avx", "avx2", "vpclmulqdq"]) { expected.append(.vpclmul256) }
            if flags.isSuperset(of: ["avx512f", "vpclmulqdq"]) { expected.append(.vpclmul512) }
        }
        #expect(CRC32Acceleration.supported == expected)
    }
    #endif

    /// Every folding constant in CCRCFold against its definition (CCRCFold.h): x^e mod P(x)
    /// reflected, ⌊x^64 / P(x)⌋ and P(x) reflected in 33 bits.
    @Test(arguments: ChecksumAlgorithm.allCases)
    func foldingConstantsAreTheirDefinitions(algorithm: ChecksumAlgorithm) {
        let constants = crcfold_constants_of(CRC32Tables.for(algorithm).foldAlgorithm).pointee
        let p = GF2.polynomial(algorithm)
        let stored: [(exponent: Int, value: UInt64)] = [
            (2079, constants.x2079), (2015, constants.x2015), (543, constants.x543), (479, constants.x479),
            (159, constants.x159), (95, constants.x95), (63, constants.x63),
        ]
        for (exponent, value) in stored {
            #expect(value == GF2.reflect(GF2.power(exponent, modulo: p), bits: 32), "x^\(exponent) mod P, \(algorithm)")
        }
        #expect(constants.mu == GF2.reflect(GF2.quotientOfX64(by: p), bits: 33))
        #expect(constants.poly == GF2.reflect(p, bits: 33))
        // The division checked by multiplying back: µ·P = x^64 + (x^64 mod P).
        let product = GF2.multiply(GF2.quotientOfX64(by: p), p)
        #expect(product.high == 1 && product.low >> 32 == 0 && product.low == GF2.power(64, modulo: p))
    }
}
