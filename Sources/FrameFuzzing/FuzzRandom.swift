/// A seeded, reproducible random number generator for fuzz cases (SplitMix64).
///
/// Every fuzz case draws all its choices from one of these, seeded with the case seed, so a
/// seed printed with a failure regenerates the same case on any machine. SplitMix64 is
/// Steele, Lea and Flood's generator (OOPSLA 2014, as used by `java.util.SplittableRandom`):
/// small, fast, and good enough for picking test inputs; it is not cryptographic.
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose whole output is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `true` with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        Int.random(in: 0..<denominator, using: &self) < numerator
    }

    /// A random integer in `range`, biased towards the edges: the bounds and their neighbours
    /// come up often, because that is where length and offset arithmetic goes wrong.
    public mutating func edgy(in range: ClosedRange<UInt64>) -> UInt64 {
        switch Int.random(in: 0..<8, using: &self) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        case 2: return range.lowerBound == range.upperBound ? range.lowerBound : range.lowerBound + 1
        case 3: return range.lowerBound == range.upperBound ? range.upperBound : range.upperBound - 1
        default: return UInt64.random(in: range, using: &self)
        }
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(count)
        var word: UInt64 = 0
        for index in 0..<count {
            if index % 8 == 0 { word = next() }
            result.append(UInt8(truncatingIfNeeded: word >> UInt64((index % 8) * 8)))
        }
        return result
    }
}
