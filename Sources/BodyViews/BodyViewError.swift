/// Why a body is not what a view expected: what went wrong and at which byte.
///
/// Every decoder in this module throws this type; the CLI shows the body in hex with
/// ``description`` as the one-line reason. Making one allocates nothing for the wire reader's
/// problems (``Problem``), so trying bytes as a message and failing — what the schema-less view
/// does for every string — stays cheap.
public struct BodyViewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, as a value; its text is ``reason``.
    public enum Problem: Sendable, Hashable {
        case truncatedVarint
        case varintTooLong
        /// A wire type 6 or 7.
        case wireType(UInt32)
        case fieldNumberZero
        case truncatedFixed32
        case truncatedFixed64
        /// A length prefix larger than the bytes left.
        case lengthPastEnd(length: UInt64, left: Int)
        case groupEndWithoutStart
        case groupsTooDeep
        case groupNotClosed(UInt32)
        case groupClosedByAnother(open: UInt32, closed: UInt32)
        /// Any other problem, in words.
        case other(String)
    }

    /// Byte offset in the body where the problem was found, 0-based.
    public var offset: Int
    /// What was wrong there.
    public var problem: Problem

    /// An error at `offset` (bytes from the body's start).
    @inlinable
    public init(offset: Int, _ problem: Problem) {
        self.offset = offset
        self.problem = problem
    }

    /// An error at `offset` (bytes from the body's start) saying `reason`.
    public init(offset: Int, reason: String) {
        self.init(offset: offset, .other(reason))
    }

    /// What was wrong, e.g. `"truncated varint"`.
    public var reason: String {
        switch problem {
        case .truncatedVarint: "truncated varint"
        case .varintTooLong: "varint longer than 10 bytes"
        case .wireType(let type): "wire type \(type) (only 0-5 exist)"
        case .fieldNumberZero: "field number 0"
        case .truncatedFixed32: "truncated fixed32"
        case .truncatedFixed64: "truncated fixed64"
        case .lengthPastEnd(let length, let left): "length \(length) past the end (\(left) bytes left)"
        case .groupEndWithoutStart: "group end with no group open"
        case .groupsTooDeep: "groups nested too deep"
        case .groupNotClosed(let number): "group \(number) not closed"
        case .groupClosedByAnother(let open, let closed): "group \(open) closed by the end of group \(closed)"
        case .other(let text): text
        }
    }

    /// `reason at byte N`.
    public var description: String { "\(reason) at byte \(offset)" }
}
