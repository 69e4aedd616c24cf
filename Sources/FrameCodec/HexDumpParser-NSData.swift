/// NSData descriptions, as `NSLog("%@", data)` and `po data as NSData` print them.
///
/// ```
/// <fefd00f9 7b226964 223a312c>                         classic: 4-byte groups in angle brackets
/// {length = 12, bytes = 0xfefd00f9 7b226964 223a312c}  newer Foundation
/// {length = 253, bytes = 0xfefd00f9 7b226964 ... 227d }  the same, elided: an error
/// ```
///
/// A description may span lines. Text before it on a line (an `NSLog` timestamp and process)
/// and after it is skipped; a line outside a description must contain one.
extension HexDumpParser {
    struct NSDataState {
        struct Open {
            /// `true` for `{length = ...}`, `false` for `<...>`.
            var isBraces: Bool
            /// The length a `{length = N, ...}` description declares.
            var declaredLength: UInt64
            /// The output count when the description opened.
            var outputStart: Int
            var line: Int
        }

        var open: Open?
    }

    /// Whether a line holds the start of an NSData description.
    func containsNSDataStart(_ line: Range<Int>) -> Bool {
        line.contains { descriptionStart(at: $0, end: line.upperBound) != nil }
    }

    mutating func readNSDataLine(_ line: Range<Int>, state: NSDataState) throws(HexDumpError) {
        var state = state
        var index = line.lowerBound
        var sawDescription = state.open != nil
        while index < line.upperBound {
            guard let open = state.open else {
                if let start = descriptionStart(at: index, end: line.upperBound) {
                    state.open = try openDescription(at: start, end: line.upperBound, index: &index)
                    sawDescription = true
                } else {
                    index += 1
                }
                continue
            }
            let byte = text[index]
            if DumpByte.isSpace(byte) {
                index += 1
            } else if byte == UInt8(ascii: open.isBraces ? "}" : ">") {
                try close(open, at: index)
                state.open = nil
                index += 1
            } else if isEllipsis(at: index, end: line.upperBound) {
                throw fail(index, "a complete dump, but this NSData description is elided at '...' (Foundation shortens long data: print every byte, e.g. with data.map { String(format: \"%02x\", $0) }.joined())")
            } else {
                let groupEnd = hexRunEnd(from: index, to: line.upperBound)
                guard groupEnd > index else {
                    throw fail(index, "a hex digit or '\(open.isBraces ? "}" : ">")', got '\(character(at: index))'")
                }
                if groupEnd < line.upperBound, !DumpByte.isSpace(text[groupEnd]),
                   text[groupEnd] != UInt8(ascii: open.isBraces ? "}" : ">") {
                    throw fail(groupEnd, "a hex digit, a space or '\(open.isBraces ? "}" : ">")', got '\(character(at: groupEnd))'")
                }
                try appendHexGroup(index..<groupEnd)
                index = groupEnd
            }
        }
        guard sawDescription else {
            throw fail(line.lowerBound, "an NSData description like <fefd00f9> or {length = 4, bytes = 0xfefd00f9}, as on the lines above")
        }
        mode = .nsData(state)
    }

    /// `...`, or the `…` character (U+2026), which Foundation puts where it elides bytes.
    private func isEllipsis(at index: Int, end: Int) -> Bool {
        matches("...", at: index, end: end)
            || (end - index >= 3 && text[index] == 0xE2 && text[index + 1] == 0x80 && text[index + 2] == 0xA6)
    }

    /// `index` if a description starts there: `<` then hex digits up to a space, `>` or the end
    /// of the line (`<CFData 0x...>` is not one), or `{length`.
    private func descriptionStart(at index: Int, end: Int) -> Int? {
        switch text[index] {
        case UInt8(ascii: "<"):
            let digitsEnd = hexRunEnd(from: index + 1, to: end)
            if digitsEnd == end { return digitsEnd > index + 1 ? index : nil }
            let next = text[digitsEnd]
            let closes = next == UInt8(ascii: ">") || (digitsEnd > index + 1 && DumpByte.isSpace(next))
            return closes ? index : nil
        case UInt8(ascii: "{"):
            return matches("{length", at: index, end: end) ? index : nil
        default:
            return nil
        }
    }

    /// Reads `<` or `{length = N, [capacity = M, ]bytes = 0x` and leaves `index` after it.
    private func openDescription(at start: Int, end: Int, index: inout Int) throws(HexDumpError) -> NSDataState.Open {
        if text[start] == UInt8(ascii: "<") {
            index = start + 1
            return NSDataState.Open(isBraces: false, declaredLength: 0, outputStart: output.count, line: lineNumber)
        }
        index = start + 7  // "{length"
        while index < end, text[index] == DumpByte.space || text[index] == UInt8(ascii: "=") { index += 1 }
        var length: UInt64 = 0
        let digitsStart = index
        while index < end, DumpByte.isDigit(text[index]) {
            let (shifted, overflowMultiply) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(UInt64(text[index] - UInt8(ascii: "0")))
            guard !overflowMultiply, !overflowAdd else { throw fail(digitsStart, "a byte count after 'length ='") }
            length = sum
            index += 1
        }
        guard index > digitsStart else { throw fail(index, "a byte count after 'length ='") }
        while index < end, !matches("bytes = 0x", at: index, end: end) {
            guard text[index] != UInt8(ascii: "}") else { break }
            index += 1
        }
        guard matches("bytes = 0x", at: index, end: end) else {
            throw fail(index, "'bytes = 0x' and the hex bytes after the length")
        }
        index += 10  // "bytes = 0x"
        return NSDataState.Open(isBraces: true, declaredLength: length, outputStart: output.count, line: lineNumber)
    }

    /// Checks a `{length = N, ...}` description held N bytes.
    private func close(_ open: NSDataState.Open, at index: Int) throws(HexDumpError) {
        guard open.isBraces else { return }
        let count = UInt64(output.count - open.outputStart)
        guard count == open.declaredLength else {
            throw fail(index, "\(open.declaredLength) bytes before '}', as 'length =' says; found \(count)")
        }
    }
}
