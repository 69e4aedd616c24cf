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

@Suite struct CRC32Tests {
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

    @Test(arguments: propertySeeds)
    func incrementalOverRandomSplitsMatchesTheDefinition(seed: UInt64) {
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
}
