import BodyViews

/// A protobuf message without its schema as the JSON Lines `body` value (docs/bodies.md):
///
/// ```
/// {"view":"protobuf","fields":[
///   {"number":1,"wire_type":"VARINT","value":150,"zigzag":75},
///   {"number":2,"wire_type":"LEN","guess":"string","value":"testing"},
///   {"number":3,"wire_type":"LEN","guess":"message","fields":[…]},
///   {"number":4,"wire_type":"I32","value":1069547520,"float":1.5},
///   {"number":5,"wire_type":"LEN","guess":"bytes","hex":"ff00"}]}
/// ```
///
/// `value` is always the unsigned wire value; `signed` is added when its top bit is set (the
/// int64 / sfixed reading); `float`/`double` is the IEEE 754 reading, non-finite values as
/// the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
struct ProtobufRawJSON: ProtobufRawVisitor {
    private(set) var output: [UInt8] = []
    /// Whether the current `fields` array has an element yet, per nesting level.
    private var hasElement: [Bool] = [false]

    init() {
        output.append(contentsOf: "{\"view\":\"protobuf\",\"fields\":[".utf8)
    }

    /// The finished value.
    mutating func finish() -> [UInt8] {
        output.append(contentsOf: "]}".utf8)
        return output
    }

    mutating func varint(_ number: UInt32, _ value: UInt64) {
        open(number, "VARINT")
        output.append(contentsOf: ",\"value\":\(value),\"zigzag\":\(ProtobufRawText.zigzag(value))".utf8)
        if value >= 1 << 63 { output.append(contentsOf: ",\"signed\":\(Int64(bitPattern: value))".utf8) }
        output.append(UInt8(ascii: "}"))
    }

    mutating func fixed64(_ number: UInt32, _ value: UInt64) {
        appendFixed(number, "I64", value, signed: value >= 1 << 63 ? Int64(bitPattern: value) : nil, reading: "double") {
            BodyJSON.appendNumber(Double(bitPattern: value), to: &$0)
        }
    }

    mutating func fixed32(_ number: UInt32, _ value: UInt32) {
        appendFixed(number, "I32", UInt64(value), signed: value >= 1 << 31 ? Int64(Int32(bitPattern: value)) : nil, reading: "float") {
            BodyJSON.appendNumber(Float(bitPattern: value), to: &$0)
        }
    }

    /// A fixed-width field: its unsigned value, the signed one when negative, the IEEE reading.
    private mutating func appendFixed(
        _ number: UInt32, _ wireType: StaticString, _ value: UInt64, signed: Int64?, reading: String,
        _ appendReading: (inout [UInt8]) -> Void
    ) {
        open(number, wireType)
        output.append(contentsOf: ",\"value\":\(value)".utf8)
        if let signed { output.append(contentsOf: ",\"signed\":\(signed)".utf8) }
        output.append(contentsOf: ",\"\(reading)\":".utf8)
        appendReading(&output)
        output.append(UInt8(ascii: "}"))
    }

    mutating func lengthDelimited(_ number: UInt32, _ bytes: UnsafeRawBufferPointer, isUTF8: Bool) {
        open(number, "LEN")
        if isUTF8 {
            output.append(contentsOf: ",\"guess\":\"string\",\"value\":".utf8)
            JSONString.append(String(decoding: bytes, as: UTF8.self), to: &output)
        } else {
            output.append(contentsOf: ",\"guess\":\"bytes\",\"hex\":\"".utf8)
            ByteFormatting.appendHex(bytes, to: &output)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "}"))
    }

    mutating func beginMessage(_ number: UInt32, isGroup: Bool) {
        open(number, isGroup ? "SGROUP" : "LEN")
        output.append(contentsOf: (isGroup ? ",\"fields\":[" : ",\"guess\":\"message\",\"fields\":[").utf8)
        hasElement.append(false)
    }

    mutating func endMessage() {
        hasElement.removeLast()
        output.append(contentsOf: "]}".utf8)
    }

    private mutating func open(_ number: UInt32, _ wireType: StaticString) {
        if hasElement[hasElement.count - 1] { output.append(UInt8(ascii: ",")) }
        hasElement[hasElement.count - 1] = true
        output.append(contentsOf: "{\"number\":\(number),\"wire_type\":\"".utf8)
        output.append(contentsOf: UnsafeRawBufferPointer(start: wireType.utf8Start, count: wireType.utf8CodeUnitCount))
        output.append(UInt8(ascii: "\""))
    }
}
