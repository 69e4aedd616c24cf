/// Why pasted hex text could not be read: where, and what was expected there.
public struct HexDumpError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number in the text.
    public var line: Int
    /// 1-based column in that line, counted in Unicode scalars.
    public var column: Int
    /// What was expected there, e.g. `"a hex digit"`.
    public var expected: String

    /// Creates an error at `line` and `column` (both 1-based) saying what was `expected`.
    public init(line: Int, column: Int, expected: String) {
        self.line = line
        self.column = column
        self.expected = expected
    }

    /// `line L, column C: expected …`.
    public var description: String { "line \(line), column \(column): expected \(expected)" }
}

/// Reads the hex dumps people paste into a terminal or a bug report.
public enum HexDump {
    /// The default ``parse(_:maxByteCount:)`` limit: 256 MiB.
    ///
    /// Only a `*` repeat line can make the output larger than half the input; the limit keeps a
    /// pasted `*` followed by a huge offset from exhausting memory.
    public static let defaultMaxByteCount = 256 * 1024 * 1024

    /// Parses pasted hex into bytes.
    ///
    /// Each block of non-blank lines is read in the form its first line shows:
    ///
    /// | form | example |
    /// |---|---|
    /// | plain hex, any spacing, any case | `fefd00f9`, `fe fd 00 f9`, `FEFD 00F9` |
    /// | `xxd` (any `-g`/`-c`, `-a`'s `*` lines) | `00000000: fefd 00f9 7b22  ....{"` |
    /// | `hexdump -C` / `hd` (with `*` lines and the final offset) | `00000000  fe fd 00 f9  7b 22  \|....{"\|` |
    /// | Wireshark "Copy as Hex (+ ASCII) Dump", `tshark -x` | `0000   fe fd 00 f9 7b 22   ....{"` |
    /// | NSData description (`NSLog`, `po`) | `<fefd00f9 7b226964>` |
    /// | newer NSData description | `{length = 4, bytes = 0xfefd00f9}` |
    /// | C / Swift / Python array literals, `xxd -i` | `[0xfe, 0xfd]`, `uint8_t m[] = { 0xFE, 0xFD };` |
    ///
    /// In offset-prefixed dumps (xxd, hexdump, Wireshark) the offset column and the ASCII column
    /// are skipped by position — the hex area ends at the gap before the ASCII column (two
    /// spaces for xxd, three for Wireshark, `|` for hexdump) — so ASCII text that looks like hex
    /// is never read as bytes. Each line's offset must continue the previous line's; `*` repeats
    /// the line above until the next offset. A line whose offset is 0 starts a new dump.
    ///
    /// Text before `<` or `{length` on a line (an `NSLog` prefix) and text around an array
    /// literal (`uint8_t m[] =`, `;`, `// comments`) is ignored; a decimal number between two
    /// `0x` bytes is an error, not silently dropped. A lone `0xfefd00f9` is read as 4 bytes.
    ///
    /// Dumps separated by blank lines form **one continuous stream**: the bytes are concatenated
    /// in order, each dump's offsets counted from its own first line.
    ///
    /// Not read: `hexdump` without `-C` and `od -x`, which print 16-bit words in host byte order,
    /// and `xxd -e` (little-endian groups); elided NSData descriptions (`...`) are an error.
    ///
    /// A leading byte order mark is skipped (columns are counted after it). Unicode whitespace
    /// (the `White_Space` property: a no-break space pasted from a web page, an ideographic
    /// space from a CJK input method) separates digits as a space does. In messages, a
    /// character that prints as nothing — a zero-width space, a control byte — is shown as its
    /// escape, e.g. `got '\u{200b}'`.
    ///
    /// Runs in time linear in the text plus the output.
    ///
    /// - Parameters:
    ///   - text: The pasted text; empty or all-whitespace text gives no bytes.
    ///   - maxByteCount: Largest output accepted, in bytes.
    /// - Returns: The bytes, in order.
    /// - Throws: ``HexDumpError`` with the 1-based line and column of the first problem and
    ///   what was expected there (a hex digit, an even digit count, the next offset, ...).
    public static func parse(
        _ text: some StringProtocol,
        maxByteCount: Int = defaultMaxByteCount
    ) throws(HexDumpError) -> [UInt8] {
        var string = HexDumpParser.unicodeSpacesAsASCII(String(text))
        let result = string.withUTF8 { utf8 in
            Result { () throws(HexDumpError) -> [UInt8] in
                var parser = HexDumpParser(utf8, maxByteCount: maxByteCount)
                return try parser.run()
            }
        }
        return try result.get()
    }
}
