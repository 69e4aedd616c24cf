/// Re-indents a JSON document for people, or says it is not JSON.
///
/// A small validating parser (RFC 8259) that copies tokens through unchanged — numbers keep
/// their exact text and objects their key order, unlike a round trip through
/// `JSONSerialization` — and lays them out with two-space indentation:
///
/// ```
/// {"id":7,"to":["bob"],"ok":true}   →   {
///                                          "id": 7,
///                                          "to": [
///                                            "bob"
///                                          ],
///                                          "ok": true
///                                        }
/// ```
///
/// Nesting deeper than ``maxDepth`` is refused (the caller then shows the body another way), so
/// hostile input cannot exhaust the stack.
struct JSONPrettyPrinter {
    /// The deepest nesting of objects and arrays accepted.
    static let maxDepth = 64

    private let input: ArraySlice<UInt8>
    private var position: Int
    private var output: [UInt8] = []

    /// The indented text (no trailing newline), or `nil` when `bytes` is not a single JSON object
    /// or array (surrounding whitespace allowed).
    static func format(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var printer = JSONPrettyPrinter(input: bytes)
        printer.skipWhitespace()
        guard let opening = printer.peek(), opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") else {
            return nil
        }
        guard printer.value(depth: 0) else { return nil }
        printer.skipWhitespace()
        guard printer.position == printer.input.endIndex else { return nil }
        return printer.output
    }

    private init(input: ArraySlice<UInt8>) {
        self.input = input
        position = input.startIndex
    }

    private func peek() -> UInt8? {
        position < input.endIndex ? input[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            position += 1
        }
    }

    private mutating func newline(depth: Int) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func value(depth: Int) -> Bool {
        skipWhitespace()
        guard let byte = peek() else { return false }
        switch byte {
        case UInt8(ascii: "{"): return container(depth: depth, closing: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): return container(depth: depth, closing: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// An object (`keyed`) or an array; the opening bracket is at `position`.
    private mutating func container(depth: Int, closing: UInt8, keyed: Bool) -> Bool {
        guard depth < Self.maxDepth else { return false }
        output.append(input[position])
        position += 1
        skipWhitespace()
        if peek() == closing {
            position += 1
            output.append(closing)
            return true
        }
        while true {
            newline(depth: depth + 1)
            if keyed {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { return false }
                position += 1
                output.append(contentsOf: ": ".utf8)
            }
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
            guard let next = peek() else { return false }
            position += 1
            if next == closing {
                newline(depth: depth)
                output.append(closing)
                return true
            }
            guard next == UInt8(ascii: ",") else { return false }
            output.append(next)
        }
    }

    /// A string, copied verbatim; escapes are checked, control characters refused.
    private mutating func string() -> Bool {
        let start = position
        position += 1
        while let byte = peek() {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                output.append(contentsOf: input[start..<position])
                return true
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { return false }
                position += 1
                if escaped == UInt8(ascii: "u") {
                    guard position + 4 <= input.endIndex, input[position..<position + 4].allSatisfy(\.isHexDigit) else {
                        return false
                    }
                    position += 4
                } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                    return false
                }
            case 0..<0x20:
                return false
            default:
                continue
            }
        }
        return false
    }

    private mutating func literal(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard position + bytes.count <= input.endIndex, input[position..<position + bytes.count].elementsEqual(bytes) else {
            return false
        }
        position += bytes.count
        output.append(contentsOf: bytes)
        return true
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, copied verbatim.
    private mutating func number() -> Bool {
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        if peek() == UInt8(ascii: "0") {
            position += 1
        } else if !digits() {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard digits() else { return false }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard digits() else { return false }
        }
        output.append(contentsOf: input[start..<position])
        return true
    }

    /// One or more decimal digits.
    private mutating func digits() -> Bool {
        let start = position
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
        return position > start
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
