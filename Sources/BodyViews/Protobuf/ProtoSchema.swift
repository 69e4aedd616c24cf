/// Message and enum types read from a `FileDescriptorSet` (protobuf's descriptor.proto), by
/// full name: what the schema view needs to decode a body as `im.ChatMessage`.
///
/// Made with ``init(descriptorSet:)`` from the bytes `protoc --descriptor_set_out=FILE
/// --include_imports` writes, parsed with this module's own wire reader.
public struct ProtoSchema: Sendable {
    /// Message types by full name without the leading dot (`im.ChatMessage`, `im.ChatMessage.Part`).
    public var messages: [String: ProtoMessageType] = [:]
    /// Enum types by full name without the leading dot.
    public var enums: [String: ProtoEnumType] = [:]

    /// An empty schema; ``init(descriptorSet:)`` reads a real one.
    public init() {}
}

/// One message type of a ``ProtoSchema`` (descriptor.proto's `DescriptorProto`).
public struct ProtoMessageType: Sendable {
    /// The full name, `package.Outer.Inner`.
    public var fullName: String
    /// The fields, in declaration order.
    public var fields: [ProtoField]
    /// Whether this is the synthetic entry type of a `map<K, V>` field (`MessageOptions.map_entry`).
    public var isMapEntry: Bool
    /// Whether the file is `syntax = "proto3"` (fields without presence are not shown at their
    /// default value, as protobuf's own readers do not keep them).
    public var isProto3: Bool

    /// The field numbered `number`.
    ///
    /// - Returns: the field, or `nil` when the type has none of that number (an unknown field).
    public func field(numbered number: UInt32) -> ProtoField? {
        fields.first { $0.number == number }
    }
}

/// One field of a ``ProtoMessageType`` (descriptor.proto's `FieldDescriptorProto`).
public struct ProtoField: Sendable {
    /// `FieldDescriptorProto.Type`, numbered as descriptor.proto numbers them.
    public enum Kind: Int, Sendable {
        case double = 1, float, int64, uint64, int32, fixed64, fixed32, bool, string, group, message, bytes, uint32, enumeration, sfixed32, sfixed64, sint32, sint64
    }

    /// The name as declared (`sender_id`).
    public var name: String
    /// The proto3 JSON name (`senderId`), as protoc records it.
    public var jsonName: String
    /// The field number.
    public var number: UInt32
    public var kind: Kind
    /// Whether the field is `repeated` (maps too).
    public var isRepeated: Bool
    /// For messages, groups and enums: the type's full name without the leading dot.
    public var typeName: String
    /// Whether the field tracks presence: messages, proto2 fields, oneof members and proto3
    /// `optional` fields; a proto3 scalar without it is shown only when not at its default.
    public var hasPresence: Bool
    /// The index of the oneof the field belongs to (`oneof_index`; a proto3 `optional` field's
    /// synthetic oneof too), or `nil`: setting one member clears the others.
    public var oneofIndex: Int?

    /// Whether values of this kind travel as varints, fixed32 or fixed64 (and so may be packed).
    public var isPackable: Bool {
        switch kind {
        case .string, .bytes, .message, .group: false
        default: true
        }
    }
}

/// One enum type of a ``ProtoSchema`` (descriptor.proto's `EnumDescriptorProto`).
public struct ProtoEnumType: Sendable {
    public var fullName: String
    /// Names and numbers, in declaration order.
    public var values: [(name: String, number: Int32)]

    /// The first value named for `number`.
    ///
    /// - Returns: its name, or `nil` for a number the enum does not list (kept as a number).
    public func name(of number: Int32) -> String? {
        values.first { $0.number == number }?.name
    }
}
