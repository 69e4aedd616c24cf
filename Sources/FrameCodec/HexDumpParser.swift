/// The line scanner behind ``HexDump/parse(_:maxByteCount:)``.
///
/// One pass over the UTF-8 bytes. A block (a run of non-blank lines) takes the form its first
/// line shows; the per-form line readers live in the `HexDumpParser-*.swift` facets.
struct HexDumpParser {
    /// The text being read; valid for the parser's lifetime (a `withUTF8` scope).
    let text: UnsafeBufferPointer<UInt8>
    let maxByteCount: Int
    var output: [UInt8] = []

    /// 1-based number of the line being read.
    var lineNumber = 0
    /// Byte offset of the current line's first byte, for columns.
    var lineStart = 0
    /// How the current block is read.
    var mode = Mode.none

    enum Mode {
        /// Between blocks: the next non-blank line picks the form.
        case none
        case plain
        case offsetDump(OffsetDumpState)
        case nsData(NSDataState)
        case arrayLiteral(ArrayLiteralState)
    }

    init(_ text: UnsafeBufferPointer<UInt8>, maxByteCount: Int) {
        self.text = text
        self.maxByteCount = maxByteCount
        output.reserveCapacity(min(text.count / 2, max(maxByteCount, 0)))
    }

    /// `text` with every non-ASCII Unicode whitespace character (`White_Space`: U+00A0, U+3000,
    /// U+2000…U+200A, …) replaced by one ASCII space, so the line readers, which work on ASCII
    /// bytes, see a separator there. One scalar for one keeps columns (counted in scalars) where
    /// they were; an ASCII-only text is returned as is after one scan.
    static func unicodeSpacesAsASCII(_ text: String) -> String {
        func isUnicodeSpace(_ scalar: Unicode.Scalar) -> Bool { !scalar.isASCII && scalar.properties.isWhitespace }
        guard text.utf8.contains(where: { $0 >= 0x80 }), text.unicodeScalars.contains(where: isUnicodeSpace) else {
            return text
        }
        var spaced = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { spaced.append(isUnicodeSpace(scalar) ? " " : scalar) }
        return String(spaced)
    }

    mutating func run() throws(HexDumpError) -> [UInt8] {
        // A byte order mark (Windows editors save one) is invisible: columns start after it.
        var position = matches("\u{FEFF}", at: 0, end: text.count) ? 3 : 0
        while position < text.count {
            lineNumber += 1
            lineStart = position
            var end = position
            while end < text.count, text[end] != DumpByte.newline { end += 1 }
            var line = position..<end
            if line.upperBound > line.lowerBound, text[line.upperBound - 1] == DumpByte.carriageReturn {
                line = line.lowerBound..<line.upperBound - 1
            }
            try readLine(line)
            position = end + 1
        }
        try endBlock(atLineEnd: text.count)
        return output
    }

    private mutating func readLine(_ line: Range<Int>) throws(HexDumpError) {
        guard let first = firstNonSpace(in: line) else {
            try endBlock(atLineEnd: line.lowerBound)
            return
        }
        let content = first..<line.upperBound
        switch mode {
        case .none:
            try startBlock(content)
        case .plain:
            try readPlainLine(content)
        case .offsetDump(let state):
            try readOffsetDumpLine(content, state: state)
        case .nsData(let state):
            try readNSDataLine(content, state: state)
        case .arrayLiteral(let state):
            try readArrayLiteralLine(content, state: state)
        }
        guard output.count <= maxByteCount else {
            throw fail(line.lowerBound, "at most \(maxByteCount) bytes of output (the dump is longer)")
        }
    }

    /// Picks the form of a block from its first line, then reads that line.
    private mutating func startBlock(_ line: Range<Int>) throws(HexDumpError) {
        if let match = matchOffsetLine(line), match.isDumpStart(text: text, line: line) {
            try beginOffsetDump(line, match: match)
        } else if containsNSDataStart(line) {
            mode = .nsData(NSDataState())
            try readNSDataLine(line, state: NSDataState())
        } else if containsHexLiteral(line) || (!isPlainHex(line) && blockContainsHexLiteral(after: line)) {
            mode = .arrayLiteral(ArrayLiteralState())
            try readArrayLiteralLine(line, state: ArrayLiteralState())
        } else {
            mode = .plain
            try readPlainLine(line)
        }
    }

    /// A blank line or the end of the text: checks that nothing is left open.
    mutating func endBlock(atLineEnd offset: Int) throws(HexDumpError) {
        switch mode {
        case .none, .plain, .arrayLiteral:
            break
        case .offsetDump(let state):
            if let star = state.pendingRepeat {
                throw HexDumpError(line: star, column: 2, expected: "an offset line after '*' (it repeats the line above up to that offset)")
            }
        case .nsData(let state):
            if let open = state.open {
                throw HexDumpError(
                    line: lineNumber, column: column(of: offset),
                    expected: "'\(open.isBraces ? "}" : ">")' closing the NSData description opened on line \(open.line)"
                )
            }
        }
        mode = .none
    }

    // MARK: - Plain hex

    private func isPlainHex(_ line: Range<Int>) -> Bool {
        line.allSatisfy { DumpByte.isSpace(text[$0]) || DumpByte.hexValue(text[$0]) != nil }
    }

    /// Whitespace-separated groups of hex digits, each an even number of digits.
    private mutating func readPlainLine(_ line: Range<Int>) throws(HexDumpError) {
        var index = line.lowerBound
        while index < line.upperBound {
            if DumpByte.isSpace(text[index]) {
                index += 1
                continue
            }
            let group = index
            while index < line.upperBound, DumpByte.hexValue(text[index]) != nil { index += 1 }
            if index < line.upperBound, !DumpByte.isSpace(text[index]) {
                throw fail(index, "a hex digit or a space, got '\(character(at: index))'")
            }
            try appendHexGroup(group..<index)
        }
    }

    // MARK: - Shared helpers

    /// Appends the bytes of a run of hex digits, which must have an even length.
    mutating func appendHexGroup(_ digits: Range<Int>) throws(HexDumpError) {
        guard digits.count % 2 == 0 else {
            let hint = digits.count == 7 && digits.lowerBound == lineStart
                ? " (a 7-digit offset looks like 'hexdump' or 'od' output, which print 16-bit words in host byte order: use hexdump -C or xxd)"
                : ""
            throw fail(digits.lowerBound, "an even number of hex digits, two per byte; this group has \(digits.count)\(hint)")
        }
        var index = digits.lowerBound
        while index < digits.upperBound {
            // Both digits were checked by the caller's scan.
            let high = DumpByte.hexValue(text[index]) ?? 0
            let low = DumpByte.hexValue(text[index + 1]) ?? 0
            output.append(high << 4 | low)
            index += 2
        }
    }

    /// The end of the run of hex digits starting at `index`.
    func hexRunEnd(from index: Int, to end: Int) -> Int {
        var index = index
        while index < end, DumpByte.hexValue(text[index]) != nil { index += 1 }
        return index
    }

    func firstNonSpace(in range: Range<Int>) -> Int? {
        range.first { !DumpByte.isSpace(text[$0]) }
    }

    /// Whether `bytes` (ASCII) occurs at `index`, before `end`.
    func matches(_ bytes: StaticString, at index: Int, end: Int) -> Bool {
        let count = bytes.utf8CodeUnitCount
        guard index >= 0, end - index >= count else { return false }
        return bytes.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { text[index + $0] == pattern[$0] }
        }
    }

    /// The character at `index` for messages; a character that would print as nothing or as a
    /// space (a control byte, a no-break space pasted from a web page, a byte order mark, the
    /// replacement for bytes that are not UTF-8) as its `\u{…}` escape, so the message shows what
    /// is there.
    func character(at index: Int) -> String {
        let byte = text[index]
        if byte == DumpByte.tab { return "\\t" }
        if byte < 0x20 || byte == 0x7F { return "\\u{\(String(byte, radix: 16))}" }
        var end = index + 1
        while end < text.count, end - index < 4, text[end] & 0xC0 == 0x80 { end += 1 }
        let character = String(decoding: UnsafeBufferPointer(rebasing: text[index..<end]), as: UTF8.self)
        guard let scalar = character.unicodeScalars.first, !scalar.isASCII else { return character }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .privateUse, .unassigned, .surrogate:
            return "\\u{\(String(scalar.value, radix: 16))}"
        default:
            return scalar == "\u{FFFD}" ? "\\u{fffd}" : character
        }
    }

    /// 1-based column of byte `offset` on the current line, counted in Unicode scalars.
    func column(of offset: Int) -> Int {
        var scalars = 0
        var index = lineStart
        while index < min(offset, text.count) {
            if text[index] & 0xC0 != 0x80 { scalars += 1 }
            index += 1
        }
        return scalars + 1
    }

    /// An error at byte `offset` of the current line.
    func fail(_ offset: Int, _ expected: String) -> HexDumpError {
        HexDumpError(line: lineNumber, column: column(of: offset), expected: expected)
    }
}

/// Byte constants and classes for the ASCII structure of hex dumps.
enum DumpByte {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == carriageReturn
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Letters, digits and `_`: the characters of a C or Swift identifier.
    static func isIdentifier(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "_")
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    /// The value of a hex digit, or `nil` for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        if isDigit(byte) { return byte - UInt8(ascii: "0") }
        let letter = byte | 0x20
        if letter >= UInt8(ascii: "a"), letter <= UInt8(ascii: "f") { return letter - UInt8(ascii: "a") + 10 }
        return nil
    }
}
