/// One frame to send, as `encode` reads it from JSON Lines (and `connect` from standard input):
/// header field values by name and the body.
///
/// One JSON object per line (https://jsonlines.org); blank lines are skipped:
///
/// ```
/// {"fields":{"cmd":3,"ver":1},"body_text":"hello"}
/// {"fields":{"cmd":3},"body_hex":"00ff 10"}
/// {"fields":{"cmd":3},"body_json":{"id":7,"to":["bob"]}}
/// {"fields":{"cmd":1}}
/// ```
///
/// - `fields` (optional): field name → a JSON integer 0…2⁶⁴−1, or a string `"0x55AA"` /
///   `"21"`. Fields left out are filled in by `FrameEncoder`: the length from the body, the
///   checksum computed, a magic with its value, anything else 0. A length or checksum given is
///   written as given (to craft bad frames).
/// - At most one body key; none means an empty body:
///   - `body_hex`: hex digits, two per byte, spaces allowed between bytes;
///   - `body_text`: a string, sent as its UTF-8 bytes;
///   - `body_json`: any JSON value, sent as its text exactly as written on the line.
///
/// Any other key is an error (a typo must not silently drop a body). The schema is documented
/// in docs/cli.md, "encode input".
struct FrameSpecLine: Equatable {
    /// Header field values by name; the format's names, checked by the encoder.
    var fields: [String: UInt64]
    /// The body bytes.
    var body: [UInt8]

    /// The keys a line may have.
    static let keys = ["fields", "body_hex", "body_text", "body_json"]

    init(fields: [String: UInt64] = [:], body: [UInt8] = []) {
        self.fields = fields
        self.body = body
    }

    /// Where a line does not fit the schema: the column (in characters, from 1) and what was
    /// expected there.
    struct Error: Swift.Error, Equatable {
        var column: Int
        var expected: String
    }

    /// Reads one line (without its newline).
    ///
    /// - Throws: ``Error`` naming the column: malformed JSON, a non-object, an unknown key, two
    ///   body keys, a field value that is not an unsigned 64-bit integer, bad hex.
    init(parsing line: [UInt8]) throws(Error) {
        func failure(at offset: Int, _ expected: String) -> Error {
            Error(column: String(decoding: line.prefix(offset), as: UTF8.self).count + 1, expected: expected)
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: line)
        } catch let syntax {
            throw failure(at: syntax.offset, syntax.expected)
        }
        guard case .object(let members) = document.value else {
            throw failure(at: document.range.lowerBound, "a JSON object such as {\"fields\":{\"cmd\":1},\"body_text\":\"hi\"}")
        }
        self.init()
        var bodyKey: String?
        for member in members {
            let value = member.value
            if member.key.hasPrefix("body_"), Self.keys.contains(member.key) {
                if let bodyKey {
                    throw failure(at: member.keyOffset, "one body key, but '\(bodyKey)' was given already")
                }
                bodyKey = member.key
            }
            switch member.key {
            case "fields":
                guard case .object(let fieldMembers) = value.value else {
                    throw failure(at: value.range.lowerBound, "an object of field values, e.g. {\"cmd\":3}")
                }
                for field in fieldMembers {
                    guard fields[field.key] == nil else {
                        throw failure(at: field.keyOffset, "each field once, but '\(field.key)' repeats")
                    }
                    fields[field.key] = try Self.fieldValue(field.value) { failure(at: field.value.range.lowerBound, $0) }
                }
            case "body_hex":
                guard case .string(let text) = value.value else { throw failure(at: value.range.lowerBound, "a string of hex digits") }
                do {
                    body = try Self.hexBytes(text)
                } catch let hex {
                    // +1 skips the opening quote; no escapes can precede a hex digit error.
                    throw failure(at: value.range.lowerBound + hex.column, hex.expected)
                }
            case "body_text":
                guard case .string(let text) = value.value else { throw failure(at: value.range.lowerBound, "a string") }
                body = Array(text.utf8)
            case "body_json":
                body = Array(line[value.range])
            default:
                let hint = Suggestion.hint(for: member.key, among: Self.keys)
                throw failure(at: member.keyOffset, "one of the keys \(Self.keys.joined(separator: ", ")), not '\(member.key)'\(hint)")
            }
        }
    }

    /// The value of a field given as a JSON integer or a string.
    private static func fieldValue(_ node: JSONDocument, error: (String) -> Error) throws(Error) -> UInt64 {
        let expected = "an integer 0...18446744073709551615, or a string such as \"0x55AA\""
        switch node.value {
        case .number(let text), .string(let text):
            guard let value = fieldValue(text) else { throw error(expected) }
            return value
        default:
            throw error(expected)
        }
    }

    /// Reads a field value: decimal (`21`) or hexadecimal with `0x` (`0x55AA`), 0…2⁶⁴−1.
    ///
    /// - Returns: the value, or `nil` when `text` is neither form or does not fit in 64 bits.
    static func fieldValue(_ text: String) -> UInt64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            return UInt64(text.dropFirst(2), radix: 16)
        }
        return UInt64(text, radix: 10)
    }

    /// Reads a body written in hex: two digits per byte, any case, with spaces allowed between
    /// bytes (`"55aa 0103"`).
    ///
    /// - Throws: ``Error`` with the column (from 1, within `text`) of the first bad character.
    static func hexBytes(_ text: String) throws(Error) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        var column = 0
        for character in text.unicodeScalars {
            column += 1
            if character == " ", high == nil { continue }
            guard character.isASCII, let digit = HexDigit.value(UInt8(character.value)) else {
                throw Error(column: column, expected: high == nil ? "a hex digit or a space" : "the second hex digit of a byte")
            }
            if let first = high {
                bytes.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard high == nil else { throw Error(column: column + 1, expected: "the second hex digit of a byte") }
        return bytes
    }
}
