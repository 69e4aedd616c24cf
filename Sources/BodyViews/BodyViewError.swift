/// Why a body is not what a view expected: what went wrong and at which byte.
///
/// Every decoder in this module throws this type; the CLI shows the body in hex with
/// ``description`` as the one-line reason.
public struct BodyViewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset in the body where the problem was found, 0-based.
    public var offset: Int
    /// What was wrong there, e.g. `"truncated varint"`.
    public var reason: String

    /// An error at `offset` (bytes from the body's start) saying `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `reason at byte N`.
    public var description: String { "\(reason) at byte \(offset)" }
}
