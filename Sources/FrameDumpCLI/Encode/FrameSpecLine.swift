import FrameCodec

/// One line of frame input for `encode` and `connect`: header field values and a body, as a
/// JSON object (JSON Lines; the schema is in docs/cli.md, "encode input").
///
/// ```
/// {"fields":{"cmd":1},"body_hex":"000001937e3ac4e8"}
/// {"fields":{"cmd":3},"body_json":{"id":7,"text":"hi"}}
/// {"fields":{"cmd":3,"ver":2},"body_text":"hello\n"}
/// {}
/// ```
///
/// - `fields`: field name → unsigned integer, or the name of a value the format names
///   (`{"cmd":"msg"}` with h12); fields left out are filled in by ``FrameEncoder`` (the length
///   and checksum computed, a magic set, others 0). Optional.
/// - At most one body key: `body_hex` (hex digits, whitespace allowed), `body_text` (the UTF-8
///   bytes of the string), or `body_json` (any JSON value, written compactly with object keys
///   sorted, numbers and strings as written — use `body_text` to send JSON text exactly as
///   typed). None: an empty body.
///
/// Other keys are refused, so a misspelt key is an error rather than a silently empty body; so
/// is a key given twice.
struct FrameSpecLine: Equatable {
    /// Header field values by name.
    var fields: [String: UInt64]
    /// The body bytes.
    var body: [UInt8]

    /// Why a line is not a frame; the caller adds the place (`<stdin>:3:`).
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private static let bodyKeys = ["body_hex", "body_text", "body_json"]

    /// Parses one line (without its line break).
    ///
    /// - Throws: ``ParseError`` saying what was expected: a JSON object (with the column where
    ///   the text stops being JSON), known keys, integer field values, even-length hex.
    ///
    /// - Parameters:
    ///   - line: the line's bytes.
    ///   - format: the format frames are encoded in, whose value names (`cmd:u8{3=msg}`) a
    ///     field may be given by (`{"fields":{"cmd":"msg"}}`); `nil` allows numbers only.
    static func parse(_ line: ArraySlice<UInt8>, format: FrameFormat? = nil) throws(ParseError) -> FrameSpecLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw ParseError(message: "expected a JSON object (\(error))")
        }
        guard case .object(let members) = value else {
            throw ParseError(message: "expected a JSON object, e.g. {\"fields\":{\"cmd\":1},\"body_hex\":\"00ff\"}")
        }
        let keys = try uniqueKeys(members, of: "the line")
        if let unknown = keys.sorted().first(where: { $0 != "fields" && !bodyKeys.contains($0) }) {
            throw ParseError(message: "unknown key '\(unknown)'; expected fields, body_hex, body_text or body_json")
        }
        let given = bodyKeys.filter(keys.contains)
        guard given.count <= 1 else {
            throw ParseError(message: "expected one body key, found \(given.joined(separator: " and "))")
        }
        return FrameSpecLine(fields: try fields(value["fields"], format: format), body: try body(value, key: given.first))
    }

    /// The keys of an object's members, refusing a key given twice (JSON allows it; which one
    /// counts would be a guess).
    private static func uniqueKeys(_ members: [JSONValue.Member], of place: String) throws(ParseError) -> Set<String> {
        var keys: Set<String> = []
        for member in members where !keys.insert(member.key.value).inserted {
            throw ParseError(message: "expected each key once in \(place), found '\(member.key.value)' twice")
        }
        return keys
    }

    private static func fields(_ value: JSONValue?, format: FrameFormat?) throws(ParseError) -> [String: UInt64] {
        guard let value else { return [:] }
        guard case .object(let members) = value else {
            throw ParseError(message: "expected \"fields\" to be an object of field name → integer")
        }
        _ = try uniqueKeys(members, of: "\"fields\"")
        var fields: [String: UInt64] = [:]
        for member in members {
            let field = format?.fields.first { $0.name == member.key.value }
            if case .string(let name) = member.value, let field, !field.valueNames.isEmpty {
                guard let named = field.value(named: name.value) else {
                    let names = field.valueNames.map(\.name).joined(separator: ", ")
                    throw ParseError(message: "expected field '\(field.name)' to be a non-negative integer or one of its value names (\(names)), found \(compactText(member.value))")
                }
                fields[member.key.value] = named
                continue
            }
            // The number's own text, so integers above 2^53 stay exact; "-0" is refused too.
            guard case .number(let text) = member.value, text.first != "-", let integer = UInt64(text) else {
                throw ParseError(message: "expected field '\(member.key.value)' to be a non-negative integer, found \(compactText(member.value))")
            }
            fields[member.key.value] = integer
        }
        return fields
    }

    private static func body(_ object: JSONValue, key: String?) throws(ParseError) -> [UInt8] {
        switch (key, key.flatMap { object[$0] }) {
        case ("body_hex", .string(let text)?):
            return try hexBytes(text.value)
        case ("body_hex", _):
            throw ParseError(message: "expected \"body_hex\" to be a string")
        case ("body_text", .string(let text)?):
            return Array(text.value.utf8)
        case ("body_text", _):
            throw ParseError(message: "expected \"body_text\" to be a string")
        case ("body_json", let value?):
            return compactBytes(value)
        default:
            return []
        }
    }

    /// The body `"body_json": TEXT` gives, for `encode --body-json TEXT`.
    ///
    /// - Throws: ``ParseError`` when `text` is not one JSON value, saying where.
    static func jsonBody(_ text: String) throws(ParseError) -> [UInt8] {
        do {
            return compactBytes(try JSONParser.parse(Array(text.utf8)[...]))
        } catch {
            throw ParseError(message: "expected a JSON value (\(error))")
        }
    }

    /// The body a `body_json` value gives: written compactly, object keys sorted.
    private static func compactBytes(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        value.append(to: &bytes, layout: .compactSorted)
        return bytes
    }

    private static func compactText(_ value: JSONValue) -> String {
        String(decoding: compactBytes(value), as: UTF8.self)
    }

    /// Hex digits, two a byte; whitespace between them is ignored (`body_hex`, `--body-hex`;
    /// `key` names the key in messages).
    static func hexBytes(_ text: String, key: String = "body_hex") throws(ParseError) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for (index, character) in text.utf8.enumerated() {
            if character == 0x20 || character == 0x09 { continue }
            guard let digit = ByteFormatting.hexDigitValue(character) else {
                throw ParseError(message: "expected a hex digit in \"\(key)\" at character \(index + 1)")
            }
            if let value = high {
                bytes.append(value << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard high == nil else { throw ParseError(message: "expected an even number of hex digits in \"\(key)\"") }
        return bytes
    }
}
