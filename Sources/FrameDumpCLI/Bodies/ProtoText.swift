import BodyViews

/// A message decoded with its schema as text: what `protoc --decode=TYPE` prints (protobuf text
/// format). Set fields in field-number order, `name: value` a line, messages as `name { … }`,
/// enums by name (a number the enum does not list as the number), map entries sorted by key
/// with `key:` and `value:`, strings and bytes quoted as the schema-less view quotes them;
/// unknown fields last, as ``ProtobufRawText`` shows them.
enum ProtoText {
    static func append(_ message: ProtoMessage, schema: ProtoSchema, indent: String, to output: inout [UInt8]) {
        append(message, schema: schema, indent: indent, depth: 0, to: &output)
    }

    private static func append(_ message: ProtoMessage, schema: ProtoSchema, indent: String, depth: Int, to output: inout [UInt8]) {
        let prefix = indent + String(repeating: "  ", count: depth)
        for (field, values) in message.setFields {
            for value in ordered(values, of: field, schema: schema) {
                // Groups are shown under their type's name, as protoc shows them.
                let name = field.kind == .group ? String(field.typeName.split(separator: ".").last ?? "") : field.name
                if case .message(let inner) = value {
                    output.append(contentsOf: "\(prefix)\(name) {\n".utf8)
                    if inner.type.isMapEntry {
                        appendMapEntry(inner, schema: schema, indent: indent, depth: depth + 1, to: &output)
                    } else {
                        append(inner, schema: schema, indent: indent, depth: depth + 1, to: &output)
                    }
                    output.append(contentsOf: "\(prefix)}\n".utf8)
                } else {
                    output.append(contentsOf: "\(prefix)\(name): ".utf8)
                    appendScalar(value, field: field, schema: schema, to: &output)
                    output.append(UInt8(ascii: "\n"))
                }
            }
        }
        guard !message.unknownFields.isEmpty else { return }
        var raw = ProtobufRawText(indent: prefix)
        message.unknownFields.withUnsafeBytes { bytes in
            // These bytes were read as fields already, so they decode again.
            try? ProtobufRawDecoder.decode(bytes, into: &raw)
        }
        output.append(contentsOf: raw.output)
    }

    /// A map field's entries by key, the last of equal keys kept (as a map holds them), sorted
    /// as protoc prints them; other fields' values as they came.
    static func ordered(_ values: [ProtoValue], of field: ProtoField, schema: ProtoSchema) -> [ProtoValue] {
        guard field.isRepeated, schema.messages[field.typeName]?.isMapEntry == true else { return values }
        var byKey: [MapKey: Int] = [:]
        var kept: [(key: MapKey, value: ProtoValue)] = []
        for value in values {
            guard case .message(let entry) = value else { continue }
            let key = MapKey(entry.values[1]?.last)
            if let index = byKey[key] {
                kept[index].value = value
            } else {
                byKey[key] = kept.count
                kept.append((key, value))
            }
        }
        return kept.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Both fields of a map entry, even at their default values (protoc prints them).
    private static func appendMapEntry(_ entry: ProtoMessage, schema: ProtoSchema, indent: String, depth: Int, to output: inout [UInt8]) {
        let prefix = indent + String(repeating: "  ", count: depth)
        for field in entry.type.fields.sorted(by: { $0.number < $1.number }) {
            let value = entry.values[field.number]?.last ?? defaultValue(field, schema: schema)
            if case .message(let inner) = value {
                output.append(contentsOf: "\(prefix)\(field.name) {\n".utf8)
                append(inner, schema: schema, indent: indent, depth: depth + 1, to: &output)
                output.append(contentsOf: "\(prefix)}\n".utf8)
            } else {
                output.append(contentsOf: "\(prefix)\(field.name): ".utf8)
                appendScalar(value, field: field, schema: schema, to: &output)
                output.append(UInt8(ascii: "\n"))
            }
        }
    }

    /// The value an absent field reads as.
    static func defaultValue(_ field: ProtoField, schema: ProtoSchema) -> ProtoValue {
        switch field.kind {
        case .double: .double(0)
        case .float: .float(0)
        case .int64, .int32, .sint32, .sint64, .sfixed32, .sfixed64: .signed(0)
        case .uint64, .uint32, .fixed32, .fixed64: .unsigned(0)
        case .bool: .bool(false)
        case .string: .string("")
        case .bytes: .bytes([])
        case .enumeration: .enumeration(0)
        case .message, .group: schema.messages[field.typeName].map { .message(ProtoMessage(type: $0)) } ?? .bytes([])
        }
    }

    private static func appendScalar(_ value: ProtoValue, field: ProtoField, schema: ProtoSchema, to output: inout [UInt8]) {
        switch value {
        case .signed(let number): output.append(contentsOf: "\(number)".utf8)
        case .unsigned(let number): output.append(contentsOf: "\(number)".utf8)
        case .double(let number): output.append(contentsOf: "\(number)".utf8)
        case .float(let number): output.append(contentsOf: "\(number)".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .string(let text):
            Array(text.utf8).withUnsafeBytes { ProtobufRawText.appendQuoted($0, keepingUTF8: true, to: &output) }
        case .bytes(let bytes):
            bytes.withUnsafeBytes { ProtobufRawText.appendQuoted($0, keepingUTF8: false, to: &output) }
        case .enumeration(let number):
            output.append(contentsOf: (schema.enums[field.typeName]?.name(of: number) ?? "\(number)").utf8)
        case .message:
            break
        }
    }
}

/// A map key's value, ordered as protobuf orders map keys: numbers by value, strings by bytes,
/// `false` before `true`.
struct MapKey: Hashable, Comparable {
    private let signed: Int64?
    private let unsigned: UInt64?
    private let text: [UInt8]

    init(_ value: ProtoValue?) {
        switch value {
        case .signed(let number)?: (signed, unsigned, text) = (number, nil, [])
        case .unsigned(let number)?: (signed, unsigned, text) = (nil, number, [])
        case .bool(let flag)?: (signed, unsigned, text) = (nil, flag ? 1 : 0, [])
        case .string(let string)?: (signed, unsigned, text) = (nil, nil, Array(string.utf8))
        default: (signed, unsigned, text) = (nil, 0, [])
        }
    }

    static func < (lhs: MapKey, rhs: MapKey) -> Bool {
        if let left = lhs.signed, let right = rhs.signed { return left < right }
        if let left = lhs.unsigned, let right = rhs.unsigned { return left < right }
        return lhs.text.lexicographicallyPrecedes(rhs.text)
    }
}
