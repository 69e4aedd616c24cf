import FrameFuzzing

/// SplitMix64 (Steele, Lea, Flood 2014): a fast seeded generator, so every run feeds the same
/// bytes and the same chunk boundaries.
typealias SplitMix64 = FuzzRandom

/// A buffer that lives for the whole run, 64-byte aligned so no row is favoured by alignment.
final class AlignedBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    /// `count` pseudo-random bytes from `seed`.
    init(randomCount count: Int, seed: UInt64) {
        bytes = .allocate(byteCount: max(count, 1), alignment: 64)
        var generator = SplitMix64(seed: seed)
        var index = 0
        while index < count {
            var word = generator.next()
            for _ in 0..<min(8, count - index) {
                bytes[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
    }

    /// A copy of `contents`.
    init(_ contents: [UInt8]) {
        bytes = .allocate(byteCount: max(contents.count, 1), alignment: 64)
        contents.withUnsafeBytes { bytes.copyMemory(from: $0) }
    }

    var count: Int { bytes.count }
    var readOnly: UnsafeRawBufferPointer { UnsafeRawBufferPointer(bytes) }

    deinit { bytes.deallocate() }
}

/// Cuts `0..<total` into consecutive chunks of random length in `sizes`, as TCP segments or
/// `read` calls would deliver a stream.
func randomChunks(total: Int, sizes: ClosedRange<Int>, seed: UInt64) -> [Range<Int>] {
    var generator = SplitMix64(seed: seed)
    var chunks: [Range<Int>] = []
    var start = 0
    while start < total {
        let end = min(total, start + Int.random(in: sizes, using: &generator))
        chunks.append(start..<end)
        start = end
    }
    return chunks
}
