import Foundation

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
/// - `fields`: field name → unsigned integer; fields left out are filled in by ``FrameEncoder``
///   (the length and checksum computed, a magic set, others 0). Optional.
/// - At most one body key: `body_hex` (hex digits, whitespace allowed), `body_text` (the UTF-8
///   bytes of the string), or `body_json` (any JSON value, written compactly with object keys
///   sorted — use `body_text` to send JSON text exactly as typed). None: an empty body.
///
/// Other keys are refused, so a misspelt key is an error rather than a silently empty body.
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
    /// - Throws: ``ParseError`` saying what was expected: a JSON object, known keys, integer
    ///   field values, even-length hex.
    static func parse(_ line: some Collection<UInt8>) throws(ParseError) -> FrameSpecLine {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                throw ParseError(message: "expected a JSON object, e.g. {\"fields\":{\"cmd\":1},\"body_hex\":\"00ff\"}")
            }
            object = parsed
        } catch let error as ParseError {
            throw error
        } catch {
            throw ParseError(message: "expected a JSON object (\(Self.jsonErrorText(error)))")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "fields" && !bodyKeys.contains($0) }) {
            throw ParseError(message: "unknown key '\(unknown)'; expected fields, body_hex, body_text or body_json")
        }
        let given = bodyKeys.filter { object[$0] != nil }
        guard given.count <= 1 else {
            throw ParseError(message: "expected one body key, found \(given.joined(separator: " and "))")
        }
        return FrameSpecLine(fields: try fields(object["fields"]), body: try body(object, key: given.first))
    }

    private static func fields(_ value: Any?) throws(ParseError) -> [String: UInt64] {
        guard let value else { return [:] }
        guard let object = value as? [String: Any] else {
            throw ParseError(message: "expected \"fields\" to be an object of field name → integer")
        }
        var fields: [String: UInt64] = [:]
        for (name, value) in object {
            // The number's own text: exact for integers above 2^53, where a Double is not. JSON
            // true/false also arrive as NSNumber, of Objective-C type "c" (char).
            guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
                  let integer = UInt64(number.stringValue) else {
                throw ParseError(message: "expected field '\(name)' to be a non-negative integer, found \(value)")
            }
            fields[name] = integer
        }
        return fields
    }

    private static func body(_ object: [String: Any], key: String?) throws(ParseError) -> [UInt8] {
        switch key {
        case "body_hex":
            guard let text = object["body_hex"] as? String else { throw ParseError(message: "expected \"body_hex\" to be a string") }
            return try hexBytes(text)
        case "body_text":
            guard let text = object["body_text"] as? String else { throw ParseError(message: "expected \"body_text\" to be a string") }
            return Array(text.utf8)
        case "body_json":
            return try jsonBytes(object["body_json"]!)
        default:
            return []
        }
    }

    /// The body a `body_json` value gives: written compactly, object keys sorted.
    private static func jsonBytes(_ value: Any) throws(ParseError) -> [UInt8] {
        do {
            let data = try JSONSerialization.data(
                withJSONObject: value,
                options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
            )
            return Array(data)
        } catch {
            throw ParseError(message: "cannot write \"body_json\" as JSON (\(jsonErrorText(error)))")
        }
    }

    /// The body `"body_json": TEXT` gives, for `encode --body-json TEXT`.
    ///
    /// - Throws: ``ParseError`` when `text` is not one JSON value.
    static func jsonBody(_ text: String) throws(ParseError) -> [UInt8] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        } catch {
            throw ParseError(message: "expected a JSON value (\(jsonErrorText(error)))")
        }
        return try jsonBytes(value)
    }

    /// Hex digits, two a byte; whitespace between them is ignored (`body_hex`, `--body-hex`).
    static func hexBytes(_ text: String) throws(ParseError) -> [UInt8] {
        var bytes: [UInt8] = []
        var high: UInt8?
        for (index, character) in text.utf8.enumerated() {
            if character == 0x20 || character == 0x09 { continue }
            guard let digit = hexDigit(character) else {
                throw ParseError(message: "expected a hex digit in \"body_hex\" at character \(index + 1)")
            }
            if let value = high {
                bytes.append(value << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard high == nil else { throw ParseError(message: "expected an even number of hex digits in \"body_hex\"") }
        return bytes
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Foundation's message for a JSON error, without the `NSError` wrapping.
    private static func jsonErrorText(_ error: any Error) -> String {
        let nsError = error as NSError
        return (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
    }
}
