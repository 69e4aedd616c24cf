/// A delimiter format's delimiters, ready for scanning a buffer once, front to back.
struct DelimiterSet: Sendable {
    /// A delimiter match: where it starts and how long it is.
    struct Match {
        var start: Int
        var length: Int
    }

    /// What a scan from a position found.
    enum Scan {
        /// The earliest delimiter (Netty's shortest frame; on a tie, the earliest in the list).
        case found(Match)
        /// No delimiter wholly inside the bytes: none starts before `resume`, and one may start
        /// at `resume` or later once more bytes arrive (a delimiter split across chunks).
        case notFound(resume: Int)
    }

    let delimiters: [[UInt8]]
    /// Whether the payload keeps the delimiter.
    let keeps: Bool
    /// The distinct first bytes of the delimiters, as 8-byte splats for the word-at-a-time
    /// search when there are at most four of them; empty when there are more.
    private let splats: [UInt64]
    /// A 256-entry table of first bytes, for sets with more than four distinct ones.
    private let isFirstByte: [Bool]

    init(_ delimiters: [[UInt8]], keeps: Bool) {
        self.delimiters = delimiters
        self.keeps = keeps
        var firsts: [UInt8] = []
        var table = [Bool](repeating: false, count: 256)
        for delimiter in delimiters where !table[Int(delimiter[0])] {
            table[Int(delimiter[0])] = true
            firsts.append(delimiter[0])
        }
        isFirstByte = table
        splats = firsts.count <= 4 ? firsts.map { 0x0101_0101_0101_0101 &* UInt64($0) } : []
    }

    /// Looks for the earliest delimiter starting at or after `from`, reading bytes up to `end`.
    ///
    /// Each position is examined once per call, and the caller resumes the next call at
    /// ``Scan/notFound(resume:)``, so bytes are examined a bounded number of times in all (at
    /// most once, plus the longest delimiter's length at each chunk end).
    ///
    /// - Parameter examined: incremented by the bytes this call looked at (tests check the
    ///   total stays linear in the input).
    @inline(__always)
    func scan(_ base: UnsafeRawPointer, from: Int, end: Int, examined: inout Int) -> Scan {
        var position = from
        while true {
            let candidate = nextFirstByte(base, from: position, end: end)
            examined &+= candidate &- position
            guard candidate < end else { return .notFound(resume: end) }
            examined &+= 1
            var partial = false
            for delimiter in delimiters where delimiter[0] == base.load(fromByteOffset: candidate, as: UInt8.self) {
                let available = Swift.min(delimiter.count, end &- candidate)
                var matched = 1
                while matched < available, base.load(fromByteOffset: candidate &+ matched, as: UInt8.self) == delimiter[matched] {
                    matched &+= 1
                }
                if matched == delimiter.count, !partial {
                    return .found(Match(start: candidate, length: delimiter.count))
                }
                // An earlier delimiter in the list may still match here: wait for it, so the
                // outcome does not depend on where a chunk ends.
                if matched == available, available < delimiter.count { partial = true }
            }
            if partial { return .notFound(resume: candidate) }
            position = candidate &+ 1
        }
    }

    /// The first position at or after `from` (and before `end`) holding a delimiter's first
    /// byte, or `end`: eight bytes at a time with the "has a zero byte" word trick (as the
    /// decoder's magic search) for up to four distinct first bytes.
    @inline(__always)
    private func nextFirstByte(_ base: UnsafeRawPointer, from: Int, end: Int) -> Int {
        var position = from
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        switch splats.count {
        case 1, 2:
            // One or two first bytes (`\n`; `\n` and `\r`): no loop over the splats per word.
            let first = splats[0], second = splats[splats.count - 1]
            while position &+ 8 <= end {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let hits = zeroBytes(word ^ first) | zeroBytes(word ^ second)
                if hits != 0 { return position &+ (hits.trailingZeroBitCount &>> 3) }
                position &+= 8
            }
        case 3, 4:
            while position &+ 8 <= end {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                var hits: UInt64 = 0
                for splat in splats { hits |= zeroBytes(word ^ splat) }
                if hits != 0 { return position &+ (hits.trailingZeroBitCount &>> 3) }
                position &+= 8
            }
        default:
            break
        }
        while position < end, !isFirstByte[Int(base.load(fromByteOffset: position, as: UInt8.self))] {
            position &+= 1
        }
        return position
    }
}
