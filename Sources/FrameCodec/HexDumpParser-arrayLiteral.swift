/// Byte array literals: C, Swift, Python, `xxd -i`.
///
/// ```
/// uint8_t frame[] = { 0xFE, 0xFD, 0x00, 0xF9 };
/// let frame: [UInt8] = [0xfe, 0xfd, 0x00, 0xf9]
/// 0xfefd00f9                                     one literal alone: read as a byte string
/// ```
///
/// Every `0x` literal is one byte; declarations, punctuation and `//` comments around them are
/// skipped. A bare number or hex word between two byte literals (`0xfe, 254, 0xfd`) is an
/// error rather than a silently dropped byte; one after the last literal (xxd -i's
/// `unsigned int frame_len = 4;`) is not read.
extension HexDumpParser {
    struct ArrayLiteralState {
        /// `0x` literals read so far in this block.
        var literalCount = 0
        /// A bare number after a byte literal: an error if another byte literal follows.
        var pendingBareWord: HexDumpError?
        /// A multi-byte literal: an error if any other literal follows.
        var wideLiteral: HexDumpError?
    }

    /// Whether a line holds `0x` and a hex digit, not inside an identifier.
    func containsHexLiteral(_ line: Range<Int>) -> Bool {
        line.contains { index in
            isHexLiteralStart(at: index, end: line.upperBound)
                && (index == line.lowerBound || !DumpByte.isIdentifier(text[index - 1]))
        }
    }

    /// Whether a later line of the block that starts after `line` holds a `0x` literal: a
    /// declaration such as `let frame: [UInt8] = [` may put its first byte on the next line.
    func blockContainsHexLiteral(after line: Range<Int>) -> Bool {
        var start = line.upperBound
        while start < text.count, text[start] != DumpByte.newline { start += 1 }
        while start < text.count {
            start += 1
            var end = start
            while end < text.count, text[end] != DumpByte.newline { end += 1 }
            let next = start..<end
            guard firstNonSpace(in: next) != nil else { return false }
            if containsHexLiteral(next) { return true }
            start = end
        }
        return false
    }

    private func isHexLiteralStart(at index: Int, end: Int) -> Bool {
        index + 2 < end && text[index] == UInt8(ascii: "0") && text[index + 1] | 0x20 == UInt8(ascii: "x")
            && DumpByte.hexValue(text[index + 2]) != nil
    }

    mutating func readArrayLiteralLine(_ line: Range<Int>, state: ArrayLiteralState) throws(HexDumpError) {
        var state = state
        var index = line.lowerBound
        scan: while index < line.upperBound {
            let byte = text[index]
            if matches("//", at: index, end: line.upperBound) {
                break scan
            }
            if isHexLiteralStart(at: index, end: line.upperBound) {
                try readHexLiteral(at: index, end: line.upperBound, state: &state, next: &index)
            } else if DumpByte.isIdentifier(byte) {
                let wordStart = index
                var allHex = true
                while index < line.upperBound, DumpByte.isIdentifier(text[index]) {
                    allHex = allHex && DumpByte.hexValue(text[index]) != nil
                    index += 1
                }
                if allHex, state.literalCount > 0, state.pendingBareWord == nil {
                    let word = String(decoding: UnsafeBufferPointer(rebasing: text[wordStart..<index]), as: UTF8.self)
                    state.pendingBareWord = fail(wordStart, "a 0x-prefixed byte like 0x\(word.prefix(2)); '\(word)' without 0x is not read")
                }
            } else {
                index += 1
            }
        }
        mode = .arrayLiteral(state)
    }

    private mutating func readHexLiteral(
        at start: Int,
        end: Int,
        state: inout ArrayLiteralState,
        next: inout Int
    ) throws(HexDumpError) {
        let digits = start + 2..<hexRunEnd(from: start + 2, to: end)
        if digits.upperBound < end, DumpByte.isIdentifier(text[digits.upperBound]) {
            throw fail(digits.upperBound, "a hex digit, got '\(character(at: digits.upperBound))'")
        }
        if let bare = state.pendingBareWord { throw bare }
        if let wide = state.wideLiteral { throw wide }
        if digits.count <= 2 {
            var value: UInt8 = 0
            for index in digits { value = value << 4 | (DumpByte.hexValue(text[index]) ?? 0) }
            output.append(value)
        } else {
            guard state.literalCount == 0 else {
                throw fail(start, "one byte per 0x literal, like 0xfe; this one has \(digits.count) hex digits")
            }
            try appendHexGroup(digits)
            state.wideLiteral = fail(start, "one byte per 0x literal: a literal with \(digits.count) hex digits is read as bytes only when it is the block's only literal")
        }
        state.literalCount += 1
        next = digits.upperBound
    }
}
