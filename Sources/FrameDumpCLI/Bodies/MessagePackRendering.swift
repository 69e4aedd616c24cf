import BodyViews
import PacketDecoding

/// A MessagePack value as JSON (the `body` key's `value`) and as text for people.
///
/// JSON: nil, booleans, integers (exact, up to 2⁶⁴−1), floats and UTF-8 strings are
/// themselves; the rest are objects with a `$` key, so they cannot be taken for data:
///
/// ```
/// bin            {"$bin":"0a0b"}
/// ext            {"$ext":5,"hex":"0a0b"}
/// timestamp      {"$timestamp":{"seconds":1714564800,"nanoseconds":123456789}}
/// map, string keys, each once   {"id":7,"to":["bob"]}
/// any other map  {"$map":[[1,"one"],[[2],"two"]]}
/// ```
///
/// Text is the same shape, indented, with `<bin 2 bytes: 0a0b>`, `<ext 5, 2 bytes: 0a0b>`,
/// `<timestamp 2024-05-01T12:00:00.123456789Z>` and maps with non-string keys written with
/// those keys as they are (`1: "one"`).
enum MessagePackRendering {
    static func appendJSON(_ value: MessagePackValue, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .unsigned(let number): output.append(contentsOf: "\(number)".utf8)
        case .negative(let number): output.append(contentsOf: "\(number)".utf8)
        case .float32(let number): BodyJSON.appendNumber(number, to: &output)
        case .float64(let number): BodyJSON.appendNumber(number, to: &output)
        case .string(let text): JSONString.append(text, to: &output)
        case .binary(let bytes):
            output.append(contentsOf: "{\"$bin\":\"".utf8)
            ByteFormatting.appendHex(bytes[...], to: &output)
            output.append(contentsOf: "\"}".utf8)
        case .ext(let type, let bytes):
            output.append(contentsOf: "{\"$ext\":\(type),\"hex\":\"".utf8)
            ByteFormatting.appendHex(bytes[...], to: &output)
            output.append(contentsOf: "\"}".utf8)
        case .timestamp(let seconds, let nanoseconds):
            output.append(contentsOf: "{\"$timestamp\":{\"seconds\":\(seconds),\"nanoseconds\":\(nanoseconds)}}".utf8)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendJSON(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .map(let pairs):
            if let keys = stringKeys(pairs) {
                output.append(UInt8(ascii: "{"))
                for (index, pair) in pairs.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    JSONString.append(keys[index], to: &output)
                    output.append(UInt8(ascii: ":"))
                    appendJSON(pair.value, to: &output)
                }
                output.append(UInt8(ascii: "}"))
            } else {
                output.append(contentsOf: "{\"$map\":[".utf8)
                for (index, pair) in pairs.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    output.append(UInt8(ascii: "["))
                    appendJSON(pair.key, to: &output)
                    output.append(UInt8(ascii: ","))
                    appendJSON(pair.value, to: &output)
                    output.append(UInt8(ascii: "]"))
                }
                output.append(contentsOf: "]}".utf8)
            }
        }
    }

    /// The keys of a map whose keys are all strings, each once; `nil` for any other map.
    private static func stringKeys(_ pairs: [(key: MessagePackValue, value: MessagePackValue)]) -> [String]? {
        var keys: [String] = []
        var seen = Set<String>()
        for pair in pairs {
            guard case .string(let key) = pair.key, seen.insert(key).inserted else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// Appends `value` as indented lines, each starting with `indent` (and 2 spaces a level).
    static func appendText(_ value: MessagePackValue, indent: String, to output: inout [UInt8]) {
        var line = Array(indent.utf8)
        appendText(value, depth: 0, indent: Array(indent.utf8), line: &line, output: &output)
        output.append(contentsOf: line)
        output.append(UInt8(ascii: "\n"))
    }

    /// Writes `value` onto the current `line`; containers end lines and start new ones.
    private static func appendText(_ value: MessagePackValue, depth: Int, indent: [UInt8], line: inout [UInt8], output: inout [UInt8]) {
        func newLine(_ depth: Int) {
            output.append(contentsOf: line)
            output.append(UInt8(ascii: "\n"))
            line = indent + Array(repeating: UInt8(ascii: " "), count: 2 * depth)
        }
        switch value {
        case .binary(let bytes):
            line.append(contentsOf: "<bin \(counted(bytes.count, "byte")): ".utf8)
            ByteFormatting.appendHex(bytes[...], to: &line)
            line.append(UInt8(ascii: ">"))
        case .ext(let type, let bytes):
            line.append(contentsOf: "<ext \(type), \(counted(bytes.count, "byte")): ".utf8)
            ByteFormatting.appendHex(bytes[...], to: &line)
            line.append(UInt8(ascii: ">"))
        case .timestamp(let seconds, let nanoseconds):
            let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (total, overflowAdd) = product.addingReportingOverflow(Int64(nanoseconds))
            if overflow || overflowAdd {
                line.append(contentsOf: "<timestamp \(seconds) s \(nanoseconds) ns>".utf8)
            } else {
                line.append(contentsOf: "<timestamp ".utf8)
                RFC3339Timestamp.append(Timestamp(nanoseconds: total), to: &line)
                line.append(UInt8(ascii: ">"))
            }
        case .array(let values) where !values.isEmpty:
            line.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                newLine(depth + 1)
                appendText(element, depth: depth + 1, indent: indent, line: &line, output: &output)
                if index < values.count - 1 { line.append(UInt8(ascii: ",")) }
            }
            newLine(depth)
            line.append(UInt8(ascii: "]"))
        case .map(let pairs) where !pairs.isEmpty:
            line.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                newLine(depth + 1)
                appendText(pair.key, depth: depth + 1, indent: indent, line: &line, output: &output)
                line.append(contentsOf: ": ".utf8)
                appendText(pair.value, depth: depth + 1, indent: indent, line: &line, output: &output)
                if index < pairs.count - 1 { line.append(UInt8(ascii: ",")) }
            }
            newLine(depth)
            line.append(UInt8(ascii: "}"))
        case .array: line.append(contentsOf: "[]".utf8)
        case .map: line.append(contentsOf: "{}".utf8)
        default:
            appendJSON(value, to: &line)
        }
    }
}
