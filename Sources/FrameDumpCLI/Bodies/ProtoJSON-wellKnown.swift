import BodyViews

/// The well-known types' own JSON forms in the proto3 JSON mapping
/// (https://protobuf.dev/programming-guides/json/, "Well-known types"), which replace the
/// plain-message form wherever a message of these types appears:
///
/// | type | JSON |
/// |---|---|
/// | `google.protobuf.Timestamp` | `"1972-01-01T10:00:20.021Z"` (RFC 3339, UTC, 0/3/6/9 fraction digits) |
/// | `google.protobuf.Duration` | `"1.500s"`, `"-0.000000001s"` |
/// | `Int32Value` … `BytesValue` (wrappers) | the wrapped value, as that scalar's JSON |
/// | `Struct`, `Value`, `ListValue`, `NullValue` | a plain JSON object, value, array, `null` |
/// | `FieldMask` | `"senderId,part.weight"` (paths in lowerCamelCase, comma-separated) |
/// | `Empty` | `{}` |
/// | `Any` | `{"@type":URL, …the packed message's fields}`, or `{"@type":URL,"value":JSON}` for a packed well-known type |
///
/// A Timestamp or Duration out of the mapping's range (or with nanoseconds that do not fit)
/// is shown as the plain message it is. An `Any` whose type the descriptor set lacks, or whose value does not decode as that type,
/// has no form in the mapping (protobuf's printers refuse it); it is shown as
/// `{"@type":URL,"@value":BASE64}` with the packed bytes, plus `"@error":REASON` when they do
/// not decode.
extension ProtoJSON {
    /// Appends `message` in its well-known type's JSON form.
    ///
    /// - Returns: `false` when `message` is not of a well-known type with a special form
    ///   (nothing appended): the caller writes it as a plain message.
    static func appendWellKnown(_ message: ProtoMessage, schema: ProtoSchema, to output: inout [UInt8]) -> Bool {
        let name = message.type.fullName
        guard name.hasPrefix("google.protobuf.") else { return false }
        switch name.dropFirst("google.protobuf.".count) {
        case "Timestamp":
            // The mapping's range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
            let (seconds, nanoseconds) = (message.integer(1), message.integer(2))
            guard (-62_135_596_800...253_402_300_799).contains(seconds), (0..<1_000_000_000).contains(nanoseconds) else { return false }
            output.append(UInt8(ascii: "\""))
            RFC3339Timestamp.appendProtobuf(seconds: seconds, nanoseconds: nanoseconds, to: &output)
            output.append(UInt8(ascii: "\""))
        case "Duration":
            // The mapping's range is ±10,000 years; seconds and nanos never of opposite signs.
            let (seconds, nanoseconds) = (message.integer(1), message.integer(2))
            guard seconds.magnitude <= 315_576_000_000, nanoseconds.magnitude < 1_000_000_000,
                  seconds == 0 || nanoseconds == 0 || (seconds < 0) == (nanoseconds < 0) else { return false }
            output.append(UInt8(ascii: "\""))
            if seconds < 0 || nanoseconds < 0 { output.append(UInt8(ascii: "-")) }
            output.append(contentsOf: "\(seconds.magnitude)".utf8)
            RFC3339Timestamp.appendFraction(Int64(nanoseconds.magnitude), to: &output)
            output.append(contentsOf: "s\"".utf8)
        case "DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value", "BoolValue", "StringValue", "BytesValue":
            guard let field = message.type.field(numbered: 1) else { return false }
            appendValue(message.values[1]?.last ?? ProtoText.defaultValue(field, schema: schema), field: field, schema: schema, to: &output)
        case "Struct":
            appendStruct(message, schema: schema, to: &output)
        case "ListValue":
            appendList(message, schema: schema, to: &output)
        case "Value":
            appendStructValue(message, schema: schema, to: &output)
        case "FieldMask":
            let paths = (message.values[1] ?? []).compactMap { value -> String? in
                if case .string(let path) = value { return path }
                return nil
            }
            JSONString.append(paths.map(lowerCamelCase).joined(separator: ","), to: &output)
        case "Any":
            appendAny(message, schema: schema, to: &output)
        default:
            return false
        }
        return true
    }

    /// `Struct.fields`, a `map<string, Value>`, as a JSON object.
    private static func appendStruct(_ message: ProtoMessage, schema: ProtoSchema, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        var first = true
        for case .message(let entry) in message.values[1] ?? [] {
            guard case .string(let key)? = entry.values[1]?.last ?? .string("") else { continue }
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONString.append(key, to: &output)
            output.append(UInt8(ascii: ":"))
            if case .message(let value)? = entry.values[2]?.last {
                appendStructValue(value, schema: schema, to: &output)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func appendList(_ message: ProtoMessage, schema: ProtoSchema, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        var first = true
        for case .message(let value) in message.values[1] ?? [] {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            appendStructValue(value, schema: schema, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A `Value`: whichever member of its `kind` oneof is set; none set is `null`.
    private static func appendStructValue(_ message: ProtoMessage, schema: ProtoSchema, to output: inout [UInt8]) {
        for number in UInt32(1)...6 {
            guard let value = message.values[number]?.last else { continue }
            switch value {
            case .enumeration: output.append(contentsOf: "null".utf8)
            case .double(let number): BodyJSON.appendNumber(number, to: &output)
            case .string(let text): JSONString.append(text, to: &output)
            case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
            case .message(let inner) where number == 5: appendStruct(inner, schema: schema, to: &output)
            case .message(let inner): appendList(inner, schema: schema, to: &output)
            default: continue
            }
            return
        }
        output.append(contentsOf: "null".utf8)
    }

    /// `{"@type":URL,…}`: the packed message's fields after `@type`, or its special form under
    /// `value`; the explicit fallback (see the type's summary) when it cannot be read.
    private static func appendAny(_ message: ProtoMessage, schema: ProtoSchema, to output: inout [UInt8]) {
        var url = ""
        if case .string(let text)? = message.values[1]?.last { url = text }
        var packed: [UInt8] = []
        if case .bytes(let bytes)? = message.values[2]?.last { packed = bytes }
        guard !url.isEmpty || !packed.isEmpty else {
            output.append(contentsOf: "{}".utf8)
            return
        }
        output.append(contentsOf: "{\"@type\":".utf8)
        JSONString.append(url, to: &output)
        // The type is the URL's last path segment (type.googleapis.com/im.ChatMessage).
        let typeName = String(url[(url.lastIndex(of: "/").map { url.index(after: $0) } ?? url.startIndex)...])
        let decoded = packed.withUnsafeBytes { bytes in
            Result { () throws(BodyViewError) in try ProtoMessage(decoding: bytes, typeName: typeName, schema: schema) }
        }
        switch decoded {
        case .success(let inner):
            var body: [UInt8] = []
            if appendWellKnown(inner, schema: schema, to: &body) {
                output.append(contentsOf: ",\"value\":".utf8)
                output.append(contentsOf: body)
            } else {
                append(inner, schema: schema, to: &body)
                // The inner object's fields follow "@type" in the same object.
                if body.count > 2 {
                    output.append(UInt8(ascii: ","))
                    output.append(contentsOf: body.dropFirst().dropLast())
                }
            }
        case .failure(let error):
            output.append(contentsOf: ",\"@value\":\"".utf8)
            Base64.append(packed, to: &output)
            output.append(UInt8(ascii: "\""))
            if schema.messages[typeName] != nil {
                output.append(contentsOf: ",\"@error\":".utf8)
                JSONString.append("\(error)", to: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// A field mask path's JSON form: `sender_id.first_name` → `senderId.firstName`.
    private static func lowerCamelCase(_ path: String) -> String {
        var result = ""
        var upperNext = false
        for character in path {
            if character == "_" {
                upperNext = true
            } else {
                result.append(upperNext ? Character(character.uppercased()) : character)
                upperNext = false
            }
        }
        return result
    }
}

extension ProtoMessage {
    /// The last value of the integer field numbered `number`, 0 when unset (a Timestamp's or
    /// Duration's `seconds` and `nanos`).
    fileprivate func integer(_ number: UInt32) -> Int64 {
        switch values[number]?.last {
        case .signed(let value)?: value
        case .unsigned(let value)?: Int64(truncatingIfNeeded: value)
        default: 0
        }
    }
}
