/// Offset-prefixed dumps: `xxd`, `hexdump -C` / `hd`, Wireshark's "Copy as Hex Dump" and
/// `tshark -x`.
///
/// ```
/// xxd         00000000: fefd 00f9 7b22 6964  ....{"id          groups, 1 space apart; 2+ spaces end them
/// hexdump -C  00000000  fe fd 00 f9 7b 22 69 64  22 3a  |....{"id":|   bytes, 1-2 spaces apart; '|' ends them
/// Wireshark   0000   fe fd 00 f9 7b 22 69 64   ....{"id   bytes, 1 space apart; 3 spaces end them
/// ```
///
/// The offset column and the gap before the ASCII column delimit the hex area, so ASCII text
/// that happens to look like hex is never read. Offsets must run on without holes; `*` (from
/// `hexdump -C` and `xxd -a`) repeats the line above up to the next offset.
extension HexDumpParser {
    struct OffsetDumpState {
        enum Kind {
            /// `xxd`: the offset ends with `:`.
            case xxd
            /// `hexdump -C`, Wireshark, `tshark -x`: the offset is followed by spaces.
            case columns
        }

        var kind: Kind
        /// The offset the next line must carry.
        var nextOffset: UInt64
        /// Where the previous data line's bytes are in the output, for `*`.
        var lastLine: Range<Int>?
        /// The line number of a `*` still waiting for the offset that ends the repeat.
        var pendingRepeat: Int?
    }

    /// A line that starts with an offset.
    struct OffsetLine {
        var kind: OffsetDumpState.Kind
        var offset: UInt64
        var offsetStart: Int
        /// Where the hex bytes start; `nil` for an offset alone (hexdump's closing line).
        var dataStart: Int?

        /// Whether this line can open a dump. A columns line needs offset 0 or a `|` ASCII
        /// column, so that plain hex such as `fefd  00 f9` is not taken for an offset dump.
        func isDumpStart(text: UnsafeBufferPointer<UInt8>, line: Range<Int>) -> Bool {
            guard dataStart != nil else { return false }
            switch kind {
            case .xxd: return true
            case .columns: return offset == 0 || line.contains { text[$0] == UInt8(ascii: "|") }
            }
        }
    }

    /// Matches 4 to 16 hex digits of offset followed by `:` (xxd), by 2+ spaces and a byte
    /// (hexdump, Wireshark), or by nothing (hexdump's closing offset).
    func matchOffsetLine(_ line: Range<Int>) -> OffsetLine? {
        let start = line.lowerBound
        let end = line.upperBound
        let digitsEnd = hexRunEnd(from: start, to: end)
        guard (4...16).contains(digitsEnd - start) else { return nil }
        var offset: UInt64 = 0
        for index in start..<digitsEnd {
            offset = offset << 4 | UInt64(DumpByte.hexValue(text[index]) ?? 0)
        }
        if digitsEnd < end, text[digitsEnd] == UInt8(ascii: ":") {
            let after = digitsEnd + 1
            guard after < end, text[after] == DumpByte.space,
                  let first = firstNonSpace(in: after..<end), DumpByte.hexValue(text[first]) != nil else { return nil }
            return OffsetLine(kind: .xxd, offset: offset, offsetStart: start, dataStart: first)
        }
        guard let first = firstNonSpace(in: digitsEnd..<end) else {
            return OffsetLine(kind: .columns, offset: offset, offsetStart: start, dataStart: nil)
        }
        guard first - digitsEnd >= 2, first + 2 <= end,
              DumpByte.hexValue(text[first]) != nil, DumpByte.hexValue(text[first + 1]) != nil,
              first + 2 == end || DumpByte.isSpace(text[first + 2]) else { return nil }
        return OffsetLine(kind: .columns, offset: offset, offsetStart: start, dataStart: first)
    }

    mutating func beginOffsetDump(_ line: Range<Int>, match: OffsetLine) throws(HexDumpError) {
        let state = OffsetDumpState(kind: match.kind, nextOffset: match.offset)
        mode = .offsetDump(state)
        try readOffsetDumpLine(line, state: state)
    }

    mutating func readOffsetDumpLine(_ line: Range<Int>, state: OffsetDumpState) throws(HexDumpError) {
        var state = state
        if text[line.lowerBound] == UInt8(ascii: "*"), firstNonSpace(in: line.lowerBound + 1..<line.upperBound) == nil {
            guard state.lastLine != nil else { throw fail(line.lowerBound, "a dump line before '*'") }
            guard state.pendingRepeat == nil else { throw fail(line.lowerBound, "an offset line after '*', not another '*'") }
            state.pendingRepeat = lineNumber
            mode = .offsetDump(state)
            return
        }
        let example = state.kind == .xxd ? "00000010: 7b22 6964" : "0010  7b 22 69 64"
        guard let match = matchOffsetLine(line) else {
            throw fail(line.lowerBound, "the next line of the dump, an offset and hex bytes like '\(example)'")
        }
        let restartsAtZero = match.offset == 0 && state.nextOffset != 0 && state.pendingRepeat == nil
        if match.kind != state.kind || restartsAtZero {
            guard state.pendingRepeat == nil else {
                throw fail(line.lowerBound, "an offset line of the same dump after '*' on line \(state.pendingRepeat ?? 0)")
            }
            guard match.isDumpStart(text: text, line: line) else {
                throw fail(line.lowerBound, "the next line of the dump, an offset and hex bytes like '\(example)'")
            }
            try beginOffsetDump(line, match: match)
            return
        }
        if state.pendingRepeat != nil {
            try expandRepeat(to: match, state: &state)
        }
        guard match.offset == state.nextOffset else {
            throw fail(
                match.offsetStart,
                "offset \(hex(state.nextOffset)), where the line above ends, not \(hex(match.offset)) (a line is missing or cut short)"
            )
        }
        guard let dataStart = match.dataStart else {
            // hexdump's closing line: the total length, already checked against the offsets.
            mode = .none
            return
        }
        let before = output.count
        switch state.kind {
        case .xxd: try readXXDGroups(from: dataStart, end: line.upperBound)
        case .columns: try readColumnBytes(from: dataStart, end: line.upperBound)
        }
        state.lastLine = before..<output.count
        let (next, overflow) = state.nextOffset.addingReportingOverflow(UInt64(output.count - before))
        guard !overflow else { throw fail(match.offsetStart, "an offset that leaves room for the line's bytes") }
        state.nextOffset = next
        mode = .offsetDump(state)
    }

    /// `*`: the line above repeats until `match`'s offset, a whole number of times.
    private mutating func expandRepeat(to match: OffsetLine, state: inout OffsetDumpState) throws(HexDumpError) {
        let line = state.lastLine ?? 0..<0
        let lineLength = UInt64(line.count)
        guard match.offset >= state.nextOffset, lineLength > 0,
              (match.offset - state.nextOffset) % lineLength == 0 else {
            throw fail(
                match.offsetStart,
                "an offset a whole number of \(lineLength)-byte lines after \(hex(state.nextOffset)) ('*' repeats the line above)"
            )
        }
        let repeatedBytes = match.offset - state.nextOffset
        guard repeatedBytes <= UInt64(max(maxByteCount - output.count, 0)) else {
            throw fail(match.offsetStart, "at most \(maxByteCount) bytes of output ('*' repeats \(repeatedBytes) bytes)")
        }
        let bytes = Array(output[line])
        for _ in 0..<(repeatedBytes / lineLength) {
            output.append(contentsOf: bytes)
        }
        state.nextOffset = match.offset
        state.pendingRepeat = nil
    }

    /// xxd: groups of hex digits one space apart; two or more spaces start the ASCII column.
    private mutating func readXXDGroups(from start: Int, end: Int) throws(HexDumpError) {
        var index = start
        while true {
            let groupEnd = hexRunEnd(from: index, to: end)
            if groupEnd < end, !DumpByte.isSpace(text[groupEnd]) {
                throw fail(groupEnd, "a hex digit or a space, got '\(character(at: groupEnd))'")
            }
            try appendHexGroup(index..<groupEnd)
            var next = groupEnd
            while next < end, text[next] == DumpByte.space { next += 1 }
            guard next < end, next - groupEnd == 1, DumpByte.hexValue(text[next]) != nil else { return }
            index = next
        }
    }

    /// hexdump -C, Wireshark: two-digit bytes one or two spaces apart; `|` or three or more
    /// spaces start the ASCII column.
    private mutating func readColumnBytes(from start: Int, end: Int) throws(HexDumpError) {
        var index = start
        while true {
            guard index + 2 <= end, let high = DumpByte.hexValue(text[index]),
                  let low = DumpByte.hexValue(text[index + 1]) else {
                // Point at the character that is not a digit, not at the byte's start.
                let bad = index < end && DumpByte.hexValue(text[index]) != nil ? index + 1 : index
                throw fail(bad, "two hex digits for a byte" + (bad < end ? ", got '\(character(at: bad))'" : ""))
            }
            let after = index + 2
            if after < end, !DumpByte.isSpace(text[after]), text[after] != UInt8(ascii: "|") {
                throw fail(after, "a space after the byte (each byte is two hex digits), got '\(character(at: after))'")
            }
            output.append(high << 4 | low)
            var next = after
            while next < end, text[next] == DumpByte.space { next += 1 }
            let gap = next - after
            // One space apart, the next byte is due: no form starts its ASCII column that close.
            if gap == 1, next < end, DumpByte.hexValue(text[next]) == nil, text[next] != UInt8(ascii: "|") {
                throw fail(next, "two hex digits for a byte, got '\(character(at: next))'")
            }
            guard next < end, (1...2).contains(gap), DumpByte.hexValue(text[next]) != nil else { return }
            index = next
        }
    }

    private func hex(_ value: UInt64) -> String {
        "0x" + String(value, radix: 16)
    }
}
