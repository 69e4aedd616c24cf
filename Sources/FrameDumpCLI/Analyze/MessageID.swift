/// A message's id as the policy finds it: a number (a header field, a body integer, a JSON
/// number) or a JSON string.
enum MessageID: Hashable, CustomStringConvertible {
    case number(UInt64)
    case text(String)

    var description: String {
        switch self {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }

    /// The id's number, for the reorder check (text ids have no order).
    var number: UInt64? {
        if case .number(let number) = self { return number }
        return nil
    }
}
