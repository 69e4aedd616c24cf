import BodyViews

/// A message decoded with its schema in the proto3 JSON mapping
/// (https://protobuf.dev/programming-guides/json/): fields by their JSON name (`senderId`) in
/// declaration order, only the set ones; 64-bit integers as strings, other numbers as numbers,
/// `NaN`/`Infinity`/`-Infinity` as strings; bytes in base64; enums by name (a number the enum
/// does not list as a number); maps as objects keyed by the key's text; repeated fields as
/// arrays. Unknown fields have no place in the mapping and are left out (text shows them).
/// Well-known types (Timestamp, Any, wrappers, …) take their special JSON forms
/// (ProtoJSON-wellKnown.swift).
enum ProtoJSON {
    static func append(_ message: ProtoMessage, schema: ProtoSchema, to output: inout [UInt8]) {
        if appendWellKnown(message, schema: schema, to: &output) { return }
        output.append(UInt8(ascii: "{"))
        let set = message.setFields
        let order = Dictionary(uniqueKeysWithValues: message.type.fields.enumerated().map { ($1.number, $0) })
        for (index, entry) in set.sorted(by: { order[$0.field.number, default: 0] < order[$1.field.number, default: 0] }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONString.append(entry.field.jsonName, to: &output)
            output.append(UInt8(ascii: ":"))
            if entry.field.isRepeated, let entryType = schema.messages[entry.field.typeName], entryType.isMapEntry {
                appendMap(ProtoText.ordered(entry.values, of: entry.field, schema: schema), type: entryType, schema: schema, to: &output)
            } else if entry.field.isRepeated {
                output.append(UInt8(ascii: "["))
                for (position, value) in entry.values.enumerated() {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    appendValue(value, field: entry.field, schema: schema, to: &output)
                }
                output.append(UInt8(ascii: "]"))
            } else if let value = entry.values.last {
                appendValue(value, field: entry.field, schema: schema, to: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func appendMap(_ entries: [ProtoValue], type: ProtoMessageType, schema: ProtoSchema, to output: inout [UInt8]) {
        guard let keyField = type.field(numbered: 1), let valueField = type.field(numbered: 2) else {
            output.append(contentsOf: "{}".utf8)
            return
        }
        output.append(UInt8(ascii: "{"))
        for (index, value) in entries.enumerated() {
            guard case .message(let entry) = value else { continue }
            if index > 0 { output.append(UInt8(ascii: ",")) }
            let key = entry.values[1]?.last ?? ProtoText.defaultValue(keyField, schema: schema)
            switch key {
            case .string(let text): JSONString.append(text, to: &output)
            case .signed(let number): JSONString.append("\(number)", to: &output)
            case .unsigned(let number): JSONString.append("\(number)", to: &output)
            case .bool(let flag): JSONString.append(flag ? "true" : "false", to: &output)
            default: JSONString.append("", to: &output)
            }
            output.append(UInt8(ascii: ":"))
            appendValue(entry.values[2]?.last ?? ProtoText.defaultValue(valueField, schema: schema), field: valueField, schema: schema, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    static func appendValue(_ value: ProtoValue, field: ProtoField, schema: ProtoSchema, to output: inout [UInt8]) {
        let isWide = [.int64, .uint64, .sint64, .fixed64, .sfixed64].contains(field.kind)
        switch value {
        case .signed(let number): output.append(contentsOf: (isWide ? "\"\(number)\"" : "\(number)").utf8)
        case .unsigned(let number): output.append(contentsOf: (isWide ? "\"\(number)\"" : "\(number)").utf8)
        case .double(let number): BodyJSON.appendNumber(number, to: &output)
        case .float(let number): BodyJSON.appendNumber(number, to: &output)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .string(let text): JSONString.append(text, to: &output)
        case .bytes(let bytes):
            output.append(UInt8(ascii: "\""))
            Base64.append(bytes, to: &output)
            output.append(UInt8(ascii: "\""))
        case .enumeration(let number):
            if let name = schema.enums[field.typeName]?.name(of: number) {
                JSONString.append(name, to: &output)
            } else {
                output.append(contentsOf: "\(number)".utf8)
            }
        case .message(let inner): append(inner, schema: schema, to: &output)
        }
    }
}

/// Base64 with padding (RFC 4648 §4), the proto3 JSON form of bytes.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 { group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
            for position in 0..<4 {
                output.append(position <= count ? alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
    }
}
