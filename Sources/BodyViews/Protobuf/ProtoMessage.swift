/// A body decoded with its schema: each known field's values, merged as protobuf's parsers
/// merge them (https://protobuf.dev/programming-guides/encoding/#last-one-wins): a singular
/// scalar keeps its last value, a singular message merges every occurrence, repeated fields
/// (packed or not) keep all values in order, setting a oneof member clears the others.
/// Unknown fields — numbers the type does not declare, or a wire type that does not fit the
/// declared one — keep their bytes, in wire order.
public struct ProtoMessage: Sendable {
    /// The message's type.
    public let type: ProtoMessageType
    /// Values by field number: one for singular fields, all of them for repeated ones.
    public private(set) var values: [UInt32: [ProtoValue]] = [:]
    /// The unknown fields' bytes (tags and values), in wire order: a message without a schema.
    public private(set) var unknownFields: [UInt8] = []

    /// An empty message of `type`.
    public init(type: ProtoMessageType) {
        self.type = type
    }

    /// The declared fields that are set, in field-number order (protobuf's `ListFields`):
    /// repeated fields with at least one value, fields with presence that occurred, other proto3
    /// scalars not at their default value.
    public var setFields: [(field: ProtoField, values: [ProtoValue])] {
        type.fields.sorted { $0.number < $1.number }.compactMap { field in
            guard let values = values[field.number], !values.isEmpty else { return nil }
            if !field.isRepeated, !field.hasPresence, values.allSatisfy(\.isDefault) { return nil }
            return (field, values)
        }
    }

    /// Decodes `body` as a message of `type`.
    ///
    /// - Parameters:
    ///   - body: the encoded message.
    ///   - typeName: the type's full name (`im.ChatMessage`).
    ///   - schema: where `typeName` and the types it uses are looked up.
    /// - Throws: ``BodyViewError`` for a body that is not a message (as the schema-less view
    ///   reports it), a string field that is not UTF-8, or a type the schema lacks.
    public init(decoding body: UnsafeRawBufferPointer, typeName: String, schema: ProtoSchema) throws(BodyViewError) {
        guard let type = schema.messages[typeName] else {
            throw BodyViewError(offset: 0, reason: "no message type '\(typeName)' in the descriptor set")
        }
        var reader = ProtobufWireReader(body)
        self.init(type: type)
        try decode(&reader, schema: schema, closing: nil, depthLeft: ProtobufRawDecoder.groupDepth)
    }

    private mutating func decode(_ reader: inout ProtobufWireReader, schema: ProtoSchema, closing: UInt32?, depthLeft: Int) throws(BodyViewError) {
        guard depthLeft > 0 else { throw BodyViewError(offset: reader.position, reason: "messages nested too deep") }
        while !reader.isAtEnd {
            let tagStart = reader.position
            let tag = try reader.readTag()
            if tag.wireType == .endGroup {
                guard let closing, closing == tag.number else {
                    throw BodyViewError(offset: tagStart, reason: "group end with no group open")
                }
                return
            }
            guard let field = type.field(numbered: tag.number), let decoded = try Self.read(field, tag.wireType, &reader, schema: schema, depthLeft: depthLeft) else {
                try reader.skipValue(number: tag.number, wireType: tag.wireType, depthLeft: depthLeft)
                unknownFields.append(contentsOf: UnsafeRawBufferPointer(rebasing: reader.bytes[tagStart..<reader.position]))
                continue
            }
            set(field, decoded)
        }
        if let closing { throw BodyViewError(offset: reader.position, reason: "group \(closing) not closed") }
    }

    private mutating func set(_ field: ProtoField, _ decoded: [ProtoValue]) {
        if field.isRepeated {
            values[field.number, default: []].append(contentsOf: decoded)
            return
        }
        guard let last = decoded.last else { return }
        if let oneof = field.oneofIndex {
            for other in type.fields where other.oneofIndex == oneof && other.number != field.number {
                values[other.number] = nil
            }
        }
        if case .message(let incoming) = last, case .message(var existing)? = values[field.number]?.last {
            existing.merge(incoming)
            values[field.number] = [.message(existing)]
        } else {
            values[field.number] = [last]
        }
    }

    /// Merges `other` into this message, as parsing their bytes one after the other would.
    private mutating func merge(_ other: ProtoMessage) {
        for field in other.type.fields {
            guard let incoming = other.values[field.number] else { continue }
            set(field, incoming)
        }
        unknownFields += other.unknownFields
    }

    /// The values one occurrence of `field` carries, or `nil` when its wire type does not fit
    /// the field (then it is an unknown field).
    private static func read(
        _ field: ProtoField, _ wireType: ProtobufWireType, _ reader: inout ProtobufWireReader,
        schema: ProtoSchema, depthLeft: Int
    ) throws(BodyViewError) -> [ProtoValue]? {
        let expected = expectedWireType(of: field.kind)
        if wireType == expected {
            switch field.kind {
            case .message:
                let start = reader.position
                let range = try reader.readLengthDelimited()
                var inner = reader
                inner.position = range.lowerBound
                inner.end = range.upperBound
                guard let type = schema.messages[field.typeName] else {
                    throw BodyViewError(offset: start, reason: "no message type '\(field.typeName)' in the descriptor set")
                }
                var message = ProtoMessage(type: type)
                try message.decode(&inner, schema: schema, closing: nil, depthLeft: depthLeft - 1)
                return [.message(message)]
            case .group:
                guard let type = schema.messages[field.typeName] else {
                    throw BodyViewError(offset: reader.position, reason: "no message type '\(field.typeName)' in the descriptor set")
                }
                var message = ProtoMessage(type: type)
                try message.decode(&reader, schema: schema, closing: field.number, depthLeft: depthLeft - 1)
                return [.message(message)]
            case .string:
                let start = reader.position
                let range = try reader.readLengthDelimited()
                let bytes = UnsafeRawBufferPointer(rebasing: reader.bytes[range])
                guard UTF8Validation.isValid(bytes) else {
                    throw BodyViewError(offset: start, reason: "string field '\(field.name)' that is not UTF-8")
                }
                return [.string(String(decoding: bytes, as: UTF8.self))]
            case .bytes:
                let range = try reader.readLengthDelimited()
                return [.bytes(Array(UnsafeRawBufferPointer(rebasing: reader.bytes[range])))]
            default:
                return try scalar(field.kind, &reader).map { [$0] }
            }
        }
        guard wireType == .len, field.isRepeated, field.isPackable else { return nil }
        // A packed run: values of the field's own wire type back to back.
        let range = try reader.readLengthDelimited()
        var packed = reader
        packed.position = range.lowerBound
        packed.end = range.upperBound
        var values: [ProtoValue] = []
        while !packed.isAtEnd {
            guard let value = try scalar(field.kind, &packed) else { return nil }
            values.append(value)
        }
        return values
    }

    private static func expectedWireType(of kind: ProtoField.Kind) -> ProtobufWireType {
        switch kind {
        case .double, .fixed64, .sfixed64: .i64
        case .float, .fixed32, .sfixed32: .i32
        case .string, .bytes, .message: .len
        case .group: .startGroup
        default: .varint
        }
    }

    /// One number of a packable kind; `nil` for the kinds that are not numbers.
    private static func scalar(_ kind: ProtoField.Kind, _ reader: inout ProtobufWireReader) throws(BodyViewError) -> ProtoValue? {
        switch kind {
        case .double: return .double(Double(bitPattern: try reader.readFixed64()))
        case .float: return .float(Float(bitPattern: try reader.readFixed32()))
        case .fixed64: return .unsigned(try reader.readFixed64())
        case .sfixed64: return .signed(Int64(bitPattern: try reader.readFixed64()))
        case .fixed32: return .unsigned(UInt64(try reader.readFixed32()))
        case .sfixed32: return .signed(Int64(Int32(bitPattern: try reader.readFixed32())))
        case .int64: return .signed(Int64(bitPattern: try reader.readVarint()))
        case .uint64: return .unsigned(try reader.readVarint())
        // int32 and enums are sign-extended to 64 bits on the wire; the low 32 bits are the value.
        case .int32: return .signed(Int64(Int32(truncatingIfNeeded: try reader.readVarint())))
        case .uint32: return .unsigned(UInt64(UInt32(truncatingIfNeeded: try reader.readVarint())))
        case .enumeration: return .enumeration(Int32(truncatingIfNeeded: try reader.readVarint()))
        case .bool: return .bool(try reader.readVarint() != 0)
        case .sint32:
            let raw = UInt32(truncatingIfNeeded: try reader.readVarint())
            return .signed(Int64(Int32(bitPattern: raw >> 1) ^ -Int32(bitPattern: raw & 1)))
        case .sint64:
            let raw = try reader.readVarint()
            return .signed(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
        case .string, .bytes, .message, .group:
            return nil
        }
    }
}

/// One value of a field of a ``ProtoMessage``.
public indirect enum ProtoValue: Sendable {
    /// int32, int64, sint32, sint64, sfixed32, sfixed64.
    case signed(Int64)
    /// uint32, uint64, fixed32, fixed64.
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    case bool(Bool)
    case string(String)
    case bytes([UInt8])
    /// An enum's number; its name is in the schema's ``ProtoEnumType``.
    case enumeration(Int32)
    case message(ProtoMessage)

    /// Whether this is its kind's default (0, false, empty), which proto3 does not show for
    /// fields without presence.
    public var isDefault: Bool {
        switch self {
        case .signed(let value): value == 0
        case .unsigned(let value): value == 0
        case .double(let value): value == 0 && value.sign == .plus
        case .float(let value): value == 0 && value.sign == .plus
        case .bool(let value): !value
        case .string(let value): value.isEmpty
        case .bytes(let value): value.isEmpty
        case .enumeration(let value): value == 0
        case .message: false
        }
    }
}
