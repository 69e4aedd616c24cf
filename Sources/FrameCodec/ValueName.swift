/// A name for one value of an integer header field: `1=ping` in `cmd:u8{1=ping,2=pong}`.
///
/// Names are for people and tools reading frames (text output shows `cmd=ping(1)`, JSON Lines
/// adds `"names":{"cmd":"ping"}`, a generated Wireshark dissector shows them as value strings);
/// the decoder never looks at them, so naming values changes no frame boundary.
public struct ValueName: Sendable, Hashable {
    /// The field's value, as the header carries it.
    public var value: UInt64
    /// The name shown for it: a letter or `_`, then letters, digits, `_` or `-`.
    public var name: String

    /// A name for `value`; ``FrameFormat`` checks that it fits its field and is unique there.
    ///
    /// - Parameters:
    ///   - value: the field's value, as read from the header.
    ///   - name: what to show for it.
    public init(value: UInt64, name: String) {
        self.value = value
        self.name = name
    }
}

extension HeaderField {
    /// The name of `value` in ``valueNames``.
    ///
    /// - Parameter value: a value of this field, as read from a header.
    /// - Returns: its name, or `nil` when the field has no name for it.
    public func name(ofValue value: UInt64) -> String? {
        valueNames.first { $0.value == value }?.name
    }

    /// The value ``valueNames`` gives `name`, for encoding frames from names.
    ///
    /// - Parameter name: a value name, matched exactly.
    /// - Returns: its value, or `nil` when no value of this field has that name.
    public func value(named name: String) -> UInt64? {
        valueNames.first { $0.name == name }?.value
    }
}
