/// A JSON value (RFC 8259) as it was written: object members in document order, numbers as
/// their text, strings decoded and as written.
///
/// Unlike a round trip through `Double` and dictionaries, nothing is lost: `18446744073709551615`
/// stays exact, `1.50e+3` keeps its spelling, and duplicate keys and key order survive, so a
/// value can be written back as it was sent (``JSONPrettyPrinter``) or read exactly
/// (`FrameSpecLine`'s field values).
///
/// ```
/// {"id":7,"to":["bob"]}   →   .object([id: .number("7"), to: .array([.string("bob")])])
/// ```
///
/// Parse one with ``JSONParser/parse(_:)``; write one with ``append(to:layout:)``.
indirect enum JSONValue: Equatable {
    /// An object's members, in document order; duplicate keys are kept.
    case object([Member])
    case array([JSONValue])
    case string(Text)
    /// A number's exact text, e.g. `-0.5e10` (RFC 8259 §6 syntax).
    case number(String)
    case bool(Bool)
    case null

    /// One `"key": value` of an object.
    struct Member: Equatable {
        var key: Text
        var value: JSONValue
    }

    /// A string: its decoded value and the literal it was read from.
    ///
    /// Two texts are equal when their values are: `"\u0041"` equals `"A"`.
    struct Text: Equatable {
        /// The decoded string (escapes resolved).
        var value: String
        /// The literal as written, quotes and escapes included, e.g. `"a\/b"`.
        var literal: ArraySlice<UInt8>

        static func == (lhs: Text, rhs: Text) -> Bool {
            lhs.value == rhs.value
        }
    }

    /// The deepest nesting of objects and arrays ``JSONParser`` accepts, so that hostile input
    /// cannot exhaust the stack of the recursive parser and writers.
    static let maxDepth = 64

    /// The value of the object member named `key` (the last one when the key is repeated, as a
    /// dictionary would keep), or `nil` when there is none or this is not an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key.value == key })?.value
    }
}
