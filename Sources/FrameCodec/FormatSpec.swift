/// Why a text spec does not describe a frame format: where, and what was expected there.
///
/// Returned by ``FrameFormat/init(spec:)`` and ``FrameFormat/init(nameOrSpec:)`` for every
/// problem, from a bad character to a layout ``FrameFormat`` rejects (a repeated field name, no
/// length field): the column points at the offending token.
public struct FormatSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based column in the spec text where the problem is, counted in Unicode scalars.
    public var column: Int
    /// What was expected there, e.g. `"a width like u16 or u32be after ':'"`.
    public var expected: String

    /// Creates an error at `column` (1-based, in Unicode scalars) saying what was `expected`.
    public init(column: Int, expected: String) {
        self.column = column
        self.expected = expected
    }

    /// `column N: expected …`.
    public var description: String { "column \(column): expected \(expected)" }
}

extension FrameFormat {
    /// Parses a text spec into a format.
    ///
    /// A spec lists header fields in wire order, then options, e.g.
    /// `magic:u16=0x55AA ver:u8 cmd:u8 len:u32be crc:crc32be` or
    /// `hdr1:u8 len:u16 hdr2:u8 ; strip=3`. The grammar is in docs/formats.md; in short:
    ///
    /// - field: `name:type[=value|=low..high]`; types `u8 u16 u24 u32 u40 u48 u56 u64` with an
    ///   optional `be`/`le` suffix (big-endian by default), `bytesN` (N opaque bytes),
    ///   `crc32`/`crc32c` with optional `be`/`le` and `/body` (default) or `/frame`.
    /// - also `varint`/`varintN` (unsigned LEB128 of at most 10 / N bytes) and `bN` (N bits;
    ///   bit fields in a row fill whole bytes).
    /// - the field named `len` is the length field (or the one `lenfield=NAME` names), or
    ///   `length=a+b*4+2` sums several fields, each with a multiplier, and a constant.
    /// - options: `counts=body|frame`, `adjust=N` (may be negative), `max=N[K|M|G]`,
    ///   `strip=N`, `lenfield=NAME`, `length=SUM`; an optional `;` separates them from the fields.
    /// - a spec of `delim=\n,\r\n` (escaped text or `0x` bytes), `keepdelim=yes|no`, `max=` and
    ///   `strip=`, with no fields, is a delimiter format (Netty's `DelimiterBasedFrameDecoder`).
    ///
    /// Numbers are decimal or `0x` hex; every value is range-checked against its field, and all
    /// arithmetic is checked, so any input either parses or throws.
    ///
    /// The resulting ``name`` is the spec text without surrounding whitespace.
    ///
    /// - Parameter spec: The spec text.
    /// - Throws: ``FormatSpecError`` with the 1-based column of the offending token and what
    ///   was expected there.
    public init(spec: String) throws(FormatSpecError) {
        var parser = FormatSpecParser(spec)
        self = try parser.parse()
    }

    /// A preset name (`fefd`, `h12`, `u16`, `u32`, `tls`, `varint`, `lines`, `mqtt`, any letter case) or a text spec.
    ///
    /// - Parameter nameOrSpec: What a user typed after `--format`.
    /// - Throws: ``FormatSpecError`` when the text is neither a preset name nor a valid spec; a
    ///   single bare word that is not a preset gets an error listing the preset names.
    public init(nameOrSpec: String) throws(FormatSpecError) {
        let trimmed = FormatSpecParser.trimmed(nameOrSpec)
        if let preset = FrameFormat.preset(named: trimmed.lowercased()) {
            self = preset
            return
        }
        let isBareWord = !trimmed.isEmpty
            && !trimmed.utf8.contains { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: " ") }
        if isBareWord {
            let names = FrameFormat.presets.map(\.name).joined(separator: ", ")
            let offset = nameOrSpec.unicodeScalars.prefix { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.count
            throw FormatSpecError(
                column: offset + 1,
                expected: "a preset name (\(names)) or a spec like len:u16, got '\(trimmed)'"
            )
        }
        try self.init(spec: nameOrSpec)
    }
}
