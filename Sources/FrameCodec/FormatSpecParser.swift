/// The lexer and parser behind ``FrameFormat/init(spec:)``.
///
/// Works on the spec's UTF-8 bytes in one pass: tokens are runs of non-whitespace, and `;` is a
/// token of its own. Every failure is a ``FormatSpecError`` whose column is counted in Unicode
/// scalars, so it lines up with what a terminal shows.
struct FormatSpecParser {
    private let text: [UInt8]

    /// The widest opaque field accepted, in bytes: Netty's `lengthFieldOffset` is a Java `int`.
    static let maxOpaqueWidth = Int(Int32.max)

    init(_ spec: String) {
        text = Array(spec.utf8)
    }

    /// `text` without leading and trailing ASCII whitespace.
    static func trimmed(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    mutating func parse() throws(FormatSpecError) -> FrameFormat {
        var fields: [ParsedField] = []
        var options = ParsedOptions()
        var inOptions = false
        var sawSemicolon = false
        var firstOptionStart: Int?
        var position = 0
        while let token = nextToken(from: &position) {
            if text[token.lowerBound] == semicolon {
                guard !fields.isEmpty else { throw fail(token.lowerBound, "a field like len:u16 before ';'") }
                guard !sawSemicolon, !inOptions else {
                    throw fail(token.lowerBound, "an option like max=1M (';' comes once, between the fields and the options)")
                }
                sawSemicolon = true
                inOptions = true
                continue
            }
            let colon = firstIndex(of: UInt8(ascii: ":"), in: token)
            let equals = firstIndex(of: UInt8(ascii: "="), in: token)
            if let colon, equals.map({ colon < $0 }) ?? true {
                guard !inOptions else {
                    throw fail(token.lowerBound, "an option like max=1M here: fields go before options")
                }
                fields.append(try parseField(token, colon: colon))
            } else if let equals {
                inOptions = true
                firstOptionStart = firstOptionStart ?? token.lowerBound
                try parseOption(token, equals: equals, into: &options)
            } else if inOptions {
                throw fail(token.lowerBound, "an option like max=1M, got '\(string(token))'")
            } else {
                throw fail(token.upperBound, "':' and a type after the field name, like \(string(token)):u16")
            }
        }
        guard !fields.isEmpty else {
            throw fail(firstOptionStart ?? text.count, "a field like len:u16")
        }
        try markLengthField(in: &fields, options: options)
        let maxFrameLength = options.maxFrameLength ?? FrameFormat.defaultMaxFrameLength
        try checkHeaderFits(fields, maxFrameLength: maxFrameLength, maxStart: options.maxStart)
        do {
            return try FrameFormat(
                name: Self.trimmed(String(decoding: text, as: UTF8.self)),
                fields: fields.map(\.field),
                lengthCounts: options.lengthCounts ?? .body,
                lengthAdjustment: options.lengthAdjustment ?? 0,
                maxFrameLength: maxFrameLength,
                payloadOffset: options.payloadOffset
            )
        } catch {
            throw locate(error, fields: fields, options: options)
        }
    }

    // MARK: - Fields

    /// One parsed field and where its parts start in the text, for error positions.
    private struct ParsedField {
        var field: HeaderField
        var nameStart: Int
        var typeStart: Int
        /// `true` for `uN` fields: only those can be the length field or carry an expected value.
        var isInteger: Bool
    }

    private func parseField(_ wholeToken: Range<Int>, colon: Int) throws(FormatSpecError) -> ParsedField {
        let names = try parseValueNames(in: wholeToken, after: colon)
        let token = wholeToken.lowerBound..<names.fieldEnd
        let nameRange = token.lowerBound..<colon
        guard isIdentifier(nameRange) else {
            throw fail(token.lowerBound, "a field name (a letter or '_', then letters, digits or '_') before ':'")
        }
        let equals = firstIndex(of: UInt8(ascii: "="), in: colon + 1..<token.upperBound)
        let typeRange = colon + 1..<(equals ?? token.upperBound)
        let type = try parseType(typeRange)
        var field = HeaderField(name: string(nameRange), width: type.width, byteOrder: type.byteOrder, role: type.role)
        if let equals {
            guard type.role == .value else {
                let kind = type.role == .opaque ? "an opaque bytesN field" : "a checksum field (its value is computed)"
                throw fail(equals, "no '=' after \(kind)")
            }
            field.expected = try parseExpected(equals + 1..<token.upperBound, width: type.width)
        }
        if !names.names.isEmpty {
            guard type.role == .value else { throw fail(token.upperBound, "value names only after an integer field like cmd:u8") }
            field.valueNames = try checkedValueNames(names.names, width: type.width)
        }
        return ParsedField(field: field, nameStart: token.lowerBound, typeStart: typeRange.lowerBound, isInteger: type.role == .value)
    }

    // MARK: - Value names

    /// A field's optional `{VALUE=NAME,…}` suffix (`cmd:u8{1=ping,2=pong}`), which ends the
    /// field's token: where the field before it ends, and each entry with its text position.
    private func parseValueNames(
        in token: Range<Int>,
        after colon: Int
    ) throws(FormatSpecError) -> (fieldEnd: Int, names: [(value: Range<Int>, name: Range<Int>)]) {
        guard let open = firstIndex(of: UInt8(ascii: "{"), in: colon + 1..<token.upperBound) else {
            return (token.upperBound, [])
        }
        guard text[token.upperBound - 1] == UInt8(ascii: "}") else {
            throw fail(token.upperBound, "'}' closing the value names, with no spaces inside {…}, like cmd:u8{1=ping,2=pong}")
        }
        var entries: [(value: Range<Int>, name: Range<Int>)] = []
        var start = open + 1
        let close = token.upperBound - 1
        while start <= close {
            let end = firstIndex(of: UInt8(ascii: ","), in: start..<close) ?? close
            guard let equals = firstIndex(of: UInt8(ascii: "="), in: start..<end) else {
                throw fail(start, "a value name like 1=ping (the value, '=', the name)")
            }
            let name = equals + 1..<end
            guard isIdentifier(name, extra: UInt8(ascii: "-")) else {
                throw fail(name.lowerBound, "a value name (a letter or '_', then letters, digits, '_' or '-') after '='")
            }
            entries.append((start..<equals, name))
            start = end + 1
        }
        return (open, entries)
    }

    /// The parsed entries as ``ValueName``s: each value fits the field, values and names unique.
    private func checkedValueNames(_ entries: [(value: Range<Int>, name: Range<Int>)], width: Int) throws(FormatSpecError) -> [ValueName] {
        let limit = width >= 8 ? UInt64.max : (UInt64(1) << (8 * width)) - 1
        let what = "a value from 0 to \(limit) (fits in \(width) byte\(width == 1 ? "" : "s")), decimal or 0x hex, before '='"
        var names: [ValueName] = []
        for entry in entries {
            let value = try parseUnsigned(entry.value, limit: limit, decimalOnly: false, what: what)
            let name = string(entry.name)
            guard !names.contains(where: { $0.value == value }) else {
                throw fail(entry.value.lowerBound, "each value named once (\(value) already has a name)")
            }
            guard !names.contains(where: { $0.name == name }) else {
                throw fail(entry.name.lowerBound, "each name used once ('\(name)' already names a value)")
            }
            names.append(ValueName(value: value, name: name))
        }
        return names
    }

    private struct ParsedType {
        var width: Int
        var byteOrder: ByteOrder
        var role: HeaderField.Role
    }

    private func parseType(_ range: Range<Int>) throws(FormatSpecError) -> ParsedType {
        let start = range.lowerBound
        if hasPrefix("crc32", in: range) {
            var index = start + 5
            var algorithm = ChecksumAlgorithm.crc32
            if index < range.upperBound, lower(text[index]) == UInt8(ascii: "c") {
                algorithm = .crc32c
                index += 1
            }
            let byteOrder = parseByteOrderSuffix(at: &index, end: range.upperBound)
            var coverage = ChecksumCoverage.body
            if index < range.upperBound {
                guard text[index] == UInt8(ascii: "/") else {
                    throw fail(index, "'be', 'le', '/body' or '/frame' after '\(string(start..<index))'")
                }
                switch lowercased(index + 1..<range.upperBound) {
                case "body": coverage = .body
                case "frame", "all": coverage = .headerAndBody
                default: throw fail(index + 1, "'body' or 'frame' after '/' (what the checksum covers)")
                }
            }
            return ParsedType(width: 4, byteOrder: byteOrder, role: .checksum(algorithm, coverage))
        }
        if hasPrefix("bytes", in: range) {
            let countRange = start + 5..<range.upperBound
            let what = "a byte count from 1 to \(Self.maxOpaqueWidth) after 'bytes', like bytes3"
            let count = try parseUnsigned(countRange, limit: UInt64(Self.maxOpaqueWidth), decimalOnly: true, what: what)
            guard count >= 1 else { throw fail(countRange.lowerBound, what) }
            return ParsedType(width: Int(count), byteOrder: .bigEndian, role: .opaque)
        }
        if hasPrefix("u", in: range) {
            var index = start + 1
            while index < range.upperBound, isDigit(text[index]) { index += 1 }
            let what = "a bit width after 'u': u8, u16, u24, u32, u40, u48, u56 or u64"
            let bits = try parseUnsigned(start + 1..<index, limit: 64, decimalOnly: true, what: what)
            guard bits >= 8, bits % 8 == 0 else { throw fail(start + 1, what) }
            let byteOrder = parseByteOrderSuffix(at: &index, end: range.upperBound)
            guard index == range.upperBound else {
                throw fail(index, "'be' or 'le' after '\(string(start..<index))', or the end of the field")
            }
            return ParsedType(width: Int(bits / 8), byteOrder: byteOrder, role: .value)
        }
        throw fail(start, "a width like u16 or u32be after ':' (or bytesN, crc32, crc32c)")
    }

    /// Reads an optional `be`/`le` at `index`, advancing past it; big-endian when absent.
    private func parseByteOrderSuffix(at index: inout Int, end: Int) -> ByteOrder {
        guard index + 2 <= end else { return .bigEndian }
        switch lowercased(index..<index + 2) {
        case "be":
            index += 2
            return .bigEndian
        case "le":
            index += 2
            return .littleEndian
        default:
            return .bigEndian
        }
    }

    /// `value` (a magic) or `low..high`; both bounds must fit in `width` bytes.
    private func parseExpected(_ range: Range<Int>, width: Int) throws(FormatSpecError) -> ClosedRange<UInt64> {
        let limit = width >= 8 ? UInt64.max : (UInt64(1) << (8 * width)) - 1
        let what = "a value from 0 to \(limit) (fits in \(width) byte\(width == 1 ? "" : "s")), decimal or 0x hex"
        var dots: Int?
        for index in range.dropLast() where text[index] == UInt8(ascii: ".") && text[index + 1] == UInt8(ascii: ".") {
            dots = index
            break
        }
        guard let dots else {
            let value = try parseUnsigned(range, limit: limit, decimalOnly: false, what: what)
            return value...value
        }
        let low = try parseUnsigned(range.lowerBound..<dots, limit: limit, decimalOnly: false, what: what)
        let high = try parseUnsigned(dots + 2..<range.upperBound, limit: limit, decimalOnly: false, what: what)
        guard low <= high else { throw fail(dots + 2, "an upper bound of at least the lower bound \(low)") }
        return low...high
    }

    /// Gives the length role to the field named `len` (or `lenfield=`), which must be an integer.
    private func markLengthField(in fields: inout [ParsedField], options: ParsedOptions) throws(FormatSpecError) {
        let name = options.lengthFieldName ?? "len"
        guard let index = fields.firstIndex(where: { $0.field.name == name }) else {
            if let start = options.lengthFieldNameStart {
                throw fail(start, "the name of a field in this spec ('\(name)' is not one)")
            }
            return  // FrameFormat reports the missing length field; `locate` places it.
        }
        guard fields[index].isInteger else {
            throw fail(fields[index].typeStart, "an integer type like u16 for the length field '\(name)'")
        }
        fields[index].field.role = .length
    }

    /// Netty's rule: the header up to the length field must fit in the max frame length.
    private func checkHeaderFits(_ fields: [ParsedField], maxFrameLength: Int, maxStart: Int?) throws(FormatSpecError) {
        var end = 0
        for field in fields {
            let (sum, overflow) = end.addingReportingOverflow(field.field.width)
            guard !overflow, sum <= maxFrameLength else {
                if let maxStart {
                    throw fail(maxStart, "a max frame length of at least the header length (\(overflow ? "too many" : String(sum)) bytes)")
                }
                throw fail(field.typeStart, "a header no longer than the max frame length, \(maxFrameLength) bytes")
            }
            end = sum
        }
    }

    // MARK: - Options

    private struct ParsedOptions {
        var lengthCounts: LengthCounts?
        var lengthAdjustment: Int64?
        var maxFrameLength: Int?
        var payloadOffset: Int?
        var lengthFieldName: String?
        var seen: Set<String> = []
        var maxStart: Int?
        var stripStart: Int?
        var lengthFieldNameStart: Int?
    }

    private func parseOption(_ token: Range<Int>, equals: Int, into options: inout ParsedOptions) throws(FormatSpecError) {
        let key = lowercased(token.lowerBound..<equals)
        let value = equals + 1..<token.upperBound
        guard options.seen.insert(key).inserted else {
            throw fail(token.lowerBound, "each option once; '\(key)' is already set")
        }
        switch key {
        case "counts":
            switch lowercased(value) {
            case "body": options.lengthCounts = .body
            case "frame", "all": options.lengthCounts = .wholeFrame
            default: throw fail(value.lowerBound, "'body' or 'frame' after 'counts=' (what the length field measures)")
            }
        case "adjust":
            options.lengthAdjustment = try parseSigned(value)
        case "max":
            options.maxStart = value.lowerBound
            options.maxFrameLength = try parseSize(value)
        case "strip":
            options.stripStart = value.lowerBound
            let what = "a byte count after 'strip=', decimal or 0x hex"
            options.payloadOffset = Int(try parseUnsigned(value, limit: UInt64(Int.max), decimalOnly: false, what: what))
        case "lenfield":
            guard isIdentifier(value) else { throw fail(value.lowerBound, "a field name after 'lenfield='") }
            options.lengthFieldName = string(value)
            options.lengthFieldNameStart = value.lowerBound
        default:
            throw fail(token.lowerBound, "an option counts=, adjust=, max=, strip= or lenfield=, got '\(key)='")
        }
    }

    /// `[+|-]N`, an `Int64`.
    private func parseSigned(_ range: Range<Int>) throws(FormatSpecError) -> Int64 {
        var digits = range
        let negative = !range.isEmpty && text[range.lowerBound] == UInt8(ascii: "-")
        if !range.isEmpty, negative || text[range.lowerBound] == UInt8(ascii: "+") {
            digits = range.lowerBound + 1..<range.upperBound
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        let what = "a whole number of bytes after 'adjust=', from \(Int64.min) to \(Int64.max), like -2 or 4"
        let magnitude = try parseUnsigned(digits, limit: limit, decimalOnly: false, what: what)
        return negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
    }

    /// `N`, `NK`, `NM` or `NG` (binary multiples: K = 1024), an `Int` in bytes.
    private func parseSize(_ range: Range<Int>) throws(FormatSpecError) -> Int {
        var digits = range
        var multiplier: UInt64 = 1
        if let last = range.last {
            switch lower(text[last]) {
            case UInt8(ascii: "k"): multiplier = 1 << 10
            case UInt8(ascii: "m"): multiplier = 1 << 20
            case UInt8(ascii: "g"): multiplier = 1 << 30
            default: break
            }
            if multiplier != 1 { digits = range.lowerBound..<last }
        }
        let what = "a byte count after 'max=', like 65536, 64K or 16M (K = 1024)"
        let count = try parseUnsigned(digits, limit: UInt64(Int.max), decimalOnly: multiplier != 1, what: what)
        let (bytes, overflow) = count.multipliedReportingOverflow(by: multiplier)
        guard !overflow, bytes <= UInt64(Int.max) else { throw fail(range.lowerBound, what) }
        return Int(bytes)
    }

    // MARK: - Numbers

    /// A decimal or `0x` hex number no larger than `limit`; any other text throws `what`.
    private func parseUnsigned(
        _ range: Range<Int>,
        limit: UInt64,
        decimalOnly: Bool,
        what: String
    ) throws(FormatSpecError) -> UInt64 {
        guard !range.isEmpty else { throw fail(range.lowerBound, what) }
        var index = range.lowerBound
        var radix: UInt64 = 10
        if !decimalOnly, range.count > 2, text[index] == UInt8(ascii: "0"), lower(text[index + 1]) == UInt8(ascii: "x") {
            radix = 16
            index += 2
        }
        var value: UInt64 = 0
        while index < range.upperBound {
            guard let digit = digitValue(text[index], radix: radix) else { throw fail(index, what) }
            let (shifted, overflowMultiply) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(digit)
            guard !overflowMultiply, !overflowAdd, sum <= limit else { throw fail(range.lowerBound, what) }
            value = sum
            index += 1
        }
        return value
    }

    private func digitValue(_ byte: UInt8, radix: UInt64) -> UInt64? {
        if isDigit(byte) { return UInt64(byte - UInt8(ascii: "0")) }
        let letter = lower(byte)
        if radix == 16, letter >= UInt8(ascii: "a"), letter <= UInt8(ascii: "f") {
            return UInt64(letter - UInt8(ascii: "a") + 10)
        }
        return nil
    }

    // MARK: - Errors

    /// Turns a ``FrameFormatError`` into a ``FormatSpecError`` at the token that caused it.
    private func locate(_ error: FrameFormatError, fields: [ParsedField], options: ParsedOptions) -> FormatSpecError {
        switch error {
        case .invalidWidth(let index, _):
            return fail(fields[index].typeStart, "a width this kind of field allows: \(error)")
        case .duplicateFieldName(let name):
            let repeated = fields.indices.filter { fields[$0].field.name == name }.dropFirst().first ?? 0
            return fail(fields[repeated].nameStart, "a field name not used before ('\(name)' is already a field)")
        case .lengthFieldCount(let count) where count == 0:
            return fail(text.count, "a length field: name one integer field 'len' (like len:u16) or add lenfield=NAME")
        case .lengthFieldCount:
            let second = fields.indices.filter { fields[$0].field.role == .length }.dropFirst().first ?? 0
            return fail(fields[second].nameStart, "only one length field")
        case .checksumFieldCount:
            let second = fields.indices.filter {
                if case .checksum = fields[$0].field.role { return true }
                return false
            }.dropFirst().first ?? 0
            return fail(fields[second].typeStart, "at most one checksum field (crc32 or crc32c)")
        case .negativeLimit(let name):
            let start = name == "payloadOffset" ? options.stripStart : options.maxStart
            return fail(start ?? text.count, "a limit of zero or more: \(error)")
        case .invalidValueName(let index, _):
            // Not reached from a spec (`checkedValueNames` reports these at their token first),
            // but the error type is the format's, so the switch names it.
            return fail(fields[index].nameStart, "value names this field allows: \(error)")
        }
    }

    /// An error at byte offset `offset`, with the column counted in Unicode scalars.
    private func fail(_ offset: Int, _ expected: String) -> FormatSpecError {
        let end = min(max(offset, 0), text.count)
        let scalars = text[..<end].reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return FormatSpecError(column: scalars + 1, expected: expected)
    }

    // MARK: - Lexing

    private let semicolon = UInt8(ascii: ";")

    /// The next token at or after `position`: a run of non-whitespace, or a lone `;`.
    private func nextToken(from position: inout Int) -> Range<Int>? {
        while position < text.count, Self.isSpace(text[position]) { position += 1 }
        guard position < text.count else { return nil }
        let start = position
        if text[position] == semicolon {
            position += 1
        } else {
            while position < text.count, !Self.isSpace(text[position]), text[position] != semicolon { position += 1 }
        }
        return start..<position
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// A letter or `_`, then letters, digits, `_` (or `extra`).
    private func isIdentifier(_ range: Range<Int>, extra: UInt8 = UInt8(ascii: "_")) -> Bool {
        guard let first = range.first else { return false }
        let head = lower(text[first])
        guard head == UInt8(ascii: "_") || (head >= UInt8(ascii: "a") && head <= UInt8(ascii: "z")) else { return false }
        return range.dropFirst().allSatisfy { index in
            let byte = lower(text[index])
            return byte == UInt8(ascii: "_") || byte == extra || isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        }
    }

    private func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        range.first { text[$0] == byte }
    }

    private func hasPrefix(_ prefix: String, in range: Range<Int>) -> Bool {
        let bytes = Array(prefix.utf8)
        guard range.count >= bytes.count else { return false }
        return bytes.indices.allSatisfy { lower(text[range.lowerBound + $0]) == bytes[$0] }
    }

    private func lowercased(_ range: Range<Int>) -> String {
        String(decoding: text[range].map(lower), as: UTF8.self)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: text[range], as: UTF8.self)
    }
}
