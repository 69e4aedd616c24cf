/// A 32-bit TCP sequence number compared with serial number arithmetic.
///
/// Sequence numbers wrap modulo 2³², so `<` on the raw `UInt32` is wrong across the wrap:
/// `0xFFFF_FFF0` comes *before* `0x10` in a stream that crossed 2³². RFC 9293 §3.4 compares
/// them modulo 2³², and RFC 1982 §3.2 defines the order: `a` precedes `b` when the forward
/// distance from `a` to `b` is in `1 ..< 2³¹`. Two numbers exactly 2³¹ apart are unordered
/// in RFC 1982; ``distance(to:)`` resolves that case as "behind" (`-2³¹`), which only matters
/// for garbage input since a real window is far smaller than 2³¹ bytes.
public struct SequenceNumber: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The sequence number as carried in the TCP header (host order).
    public var rawValue: UInt32

    /// A sequence number from the value in the TCP header (host order).
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A sequence number from the value in the TCP header (host order); unlabeled for brevity.
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// The signed distance from `self` forward to `other`, in sequence numbers (bytes).
    ///
    /// - Parameter other: The later (or earlier) sequence number.
    /// - Returns: A value in `-2³¹ ..< 2³¹`: positive when `other` is ahead of `self`
    ///   (RFC 1982 §3.2), negative when it is behind, zero when equal.
    public func distance(to other: SequenceNumber) -> Int64 {
        Int64(Int32(bitPattern: other.rawValue &- rawValue))
    }

    /// The sequence number `count` bytes later, wrapping modulo 2³² (RFC 9293 §3.4).
    ///
    /// - Parameter count: Bytes to advance; any width, only the low 32 bits matter.
    /// - Returns: `self + count` modulo 2³².
    public func advanced(by count: UInt64) -> SequenceNumber {
        SequenceNumber(rawValue &+ UInt32(truncatingIfNeeded: count))
    }

    /// Whether `self` comes before `other` in serial number order (RFC 1982 §3.2).
    ///
    /// - Parameter other: The sequence number to compare with.
    /// - Returns: `true` when `other` is 1 to 2³¹ − 1 ahead; `false` when equal or behind.
    public func precedes(_ other: SequenceNumber) -> Bool { distance(to: other) > 0 }

    /// The raw value in decimal.
    public var description: String { String(rawValue) }
}
