/// How a frame body is shown to people: the most readable form it allows.
enum BodyPresentation: Equatable {
    /// A JSON object or array, re-indented (no trailing newline).
    case json([UInt8])
    /// UTF-8 text with no control characters but tab and line breaks, as lines.
    case text([Substring])
    /// Anything else: shown as a hex+ASCII dump.
    case binary

    /// Chooses JSON, then text, then binary.
    ///
    /// Text allows tab, line feed and carriage return before line feed (CRLF lines); any other
    /// C0 or C1 control or DEL would move the cursor or colour the terminal, so such bodies are
    /// shown in hex. One line break at the end is not shown as an empty line.
    init(_ body: ArraySlice<UInt8>) {
        if let pretty = JSONPrettyPrinter.format(body) {
            self = .json(pretty)
            return
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            self = .binary
            return
        }
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if previous == "\r", scalar != "\n" {
                self = .binary
                return
            }
            previous = scalar
            let value = scalar.value
            if value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || (0x7F...0x9F).contains(value) {
                self = .binary
                return
            }
        }
        if previous == "\r" {
            self = .binary
            return
        }
        // Split on scalars: as a Character, "\r\n" is one grapheme and never equals "\n".
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            Substring(line.last == "\r" ? line.dropLast() : line)
        }
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        self = .text(lines)
    }
}
