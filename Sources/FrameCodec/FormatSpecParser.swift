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
                guard !fields.isEmpty || nextTokenIsDelimiterOption(after: position) else {
                    throw fail(token.lowerBound, "a field like len:u16 before ';'")
                }
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
        if let delimiters = options.delimiters {
            return try delimiterFormat(delimiters, fields: fields, options: options)
        }
        guard !fields.isEmpty else {
            throw fail(firstOptionStart ?? text.count, "a field like len:u16 (or delim=\\n for a delimiter format)")
        }
        if let start = options.keepDelimiterStart {
            throw fail(start, "delim= before keepdelim= (it applies to delimiter formats only)")
        }
        if options.lengthExpression != nil {
            try markComputedLength(in: &fields, options: &options)
        } else {
            try markLengthField(in: &fields, options: options)
        }
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
        var field = HeaderField(name: string(nameRange), width: type.width, byteOrder: type.byteOrder, role: type.role,
                                encoding: type.encoding)
        if let equals {
            guard type.role == .value else {
                let kind = type.role == .opaque ? "an opaque bytesN field" : "a checksum field (its value is computed)"
                throw fail(equals, "no '=' after \(kind)")
            }
            field.expected = try parseExpected(equals + 1..<token.upperBound, bits: field.valueBits)
        }
        if !names.names.isEmpty {
            guard type.role == .value else { throw fail(token.upperBound, "value names only after an integer field like cmd:u8") }
            field.valueNames = try checkedValueNames(names.names, bits: field.valueBits)
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
    private func checkedValueNames(_ entries: [(value: Range<Int>, name: Range<Int>)], bits: Int) throws(FormatSpecError) -> [ValueName] {
        let (limit, fits) = Self.valueLimit(bits: bits)
        let what = "a value from 0 to \(limit) (fits in \(fits)), decimal or 0x hex, before '='"
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
        var encoding: FieldEncoding = .fixed
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
        if let type = try parseVariableType(range) { return type }
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

    /// The largest value `bits` bits hold, and how an error names that width.
    private static func valueLimit(bits: Int) -> (limit: UInt64, fits: String) {
        let limit = bits >= 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
        let fits = bits % 8 == 0 ? "\(bits / 8) byte\(bits == 8 ? "" : "s")" : "\(bits) bit\(bits == 1 ? "" : "s")"
        return (limit, fits)
    }

    /// `value` (a magic) or `low..high`; both bounds must fit in `bits` bits.
    private func parseExpected(_ range: Range<Int>, bits: Int) throws(FormatSpecError) -> ClosedRange<UInt64> {
        let (limit, fits) = Self.valueLimit(bits: bits)
        let what = "a value from 0 to \(limit) (fits in \(fits)), decimal or 0x hex"
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
        // The whole header's length, for `max=`'s message; the first field past the limit, for
        // a header too long for the default max.
        var end = 0
        var overflowed = false
        var firstOver: ParsedField?
        for field in fields {
            let (sum, overflow) = end.addingReportingOverflow(field.field.width)
            if firstOver == nil, overflow || sum > maxFrameLength { firstOver = field }
            if overflow {
                overflowed = true
                break
            }
            end = sum
        }
        guard let firstOver else { return }
        if let maxStart {
            throw fail(maxStart, "a max frame length of at least the header length (\(overflowed ? "too many" : String(end)) bytes)")
        }
        throw fail(firstOver.typeStart, "a header no longer than the max frame length, \(maxFrameLength) bytes")
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
        var countsStart: Int?
        var adjustStart: Int?
        var lengthExpression: LengthExpression?
        var lengthExpressionStart: Int?
        var delimiters: [[UInt8]]?
        var delimiterStart: Int?
        var keepsDelimiter = false
        var keepDelimiterStart: Int?
    }

    private func parseOption(_ token: Range<Int>, equals: Int, into options: inout ParsedOptions) throws(FormatSpecError) {
        let key = lowercased(token.lowerBound..<equals)
        let value = equals + 1..<token.upperBound
        guard options.seen.insert(key).inserted else {
            throw fail(token.lowerBound, "each option once; '\(key)' is already set")
        }
        switch key {
        case "counts":
            options.countsStart = token.lowerBound
            switch lowercased(value) {
            case "body": options.lengthCounts = .body
            case "frame", "all": options.lengthCounts = .wholeFrame
            default: throw fail(value.lowerBound, "'body' or 'frame' after 'counts=' (what the length field measures)")
            }
        case "adjust":
            options.adjustStart = token.lowerBound
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
        case "length":
            options.lengthExpression = try parseLengthExpression(value)
            options.lengthExpressionStart = token.lowerBound
        case "delim":
            options.delimiters = try parseDelimiters(value)
            options.delimiterStart = token.lowerBound
        case "keepdelim":
            switch lowercased(value) {
            case "yes", "true": options.keepsDelimiter = true
            case "no", "false": options.keepsDelimiter = false
            default: throw fail(value.lowerBound, "'yes' or 'no' after 'keepdelim=' (whether the payload keeps the delimiter)")
            }
            options.keepDelimiterStart = token.lowerBound
        default:
            throw fail(token.lowerBound, "an option counts=, adjust=, max=, strip=, lenfield=, length=, delim= or keepdelim=, got '\(key)='")
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

    // MARK: - Varints and bit fields

    /// `varint`, `varintN` (at most N bytes, 1...10) or `bN` (N bits, 1...64); `nil` for
    /// any other type.
    private func parseVariableType(_ range: Range<Int>) throws(FormatSpecError) -> ParsedType? {
        let start = range.lowerBound
        if hasPrefix("varint", in: range) {
            let countRange = start + 6..<range.upperBound
            guard !countRange.isEmpty else {
                return ParsedType(width: FrameFormat.maxVarintWidth, byteOrder: .bigEndian, role: .value, encoding: .varint)
            }
            let what = "a byte limit from 1 to \(FrameFormat.maxVarintWidth) after 'varint', like varint4, or nothing (10 bytes)"
            let count = try parseUnsigned(countRange, limit: UInt64(FrameFormat.maxVarintWidth), decimalOnly: true, what: what)
            guard count >= 1 else { throw fail(countRange.lowerBound, what) }
            return ParsedType(width: Int(count), byteOrder: .bigEndian, role: .value, encoding: .varint)
        }
        if range.count >= 2, lower(text[start]) == UInt8(ascii: "b"), isDigit(text[start + 1]) {
            let what = "a bit count from 1 to 64 after 'b', like b4"
            let count = try parseUnsigned(start + 1..<range.upperBound, limit: 64, decimalOnly: true, what: what)
            guard count >= 1 else { throw fail(start + 1, what) }
            return ParsedType(width: 0, byteOrder: .bigEndian, role: .value, encoding: .bits(Int(count)))
        }
        return nil
    }

    // MARK: - Computed lengths

    /// `length=` terms: fields, each with a multiplier, and a constant.
    private struct LengthExpression {
        struct Term {
            var name: String
            var multiplier: UInt64
            var start: Int
        }

        var terms: [Term] = []
        var constant: Int64 = 0
    }

    /// `term { (+|-) term }`: a term is `NAME`, `NAME*N`, `N*NAME` or a constant `N`; `-` only
    /// before a constant.
    private func parseLengthExpression(_ range: Range<Int>) throws(FormatSpecError) -> LengthExpression {
        var expression = LengthExpression()
        var termStart = range.lowerBound
        var negative = false
        var index = range.lowerBound
        while true {
            let atEnd = index == range.upperBound
            if atEnd || ((text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")) && index > termStart) {
                try addTerm(termStart..<index, negative: negative, to: &expression)
                if atEnd { break }
                negative = text[index] == UInt8(ascii: "-")
                termStart = index + 1
            }
            index += 1
        }
        guard !expression.terms.isEmpty else {
            throw fail(range.lowerBound, "at least one field in 'length=', like length=head_length+body_length")
        }
        return expression
    }

    private func addTerm(_ range: Range<Int>, negative: Bool, to expression: inout LengthExpression) throws(FormatSpecError) {
        let what = "a field name, NAME*N, N*NAME or a number in 'length=', like hlen*4+len"
        guard !range.isEmpty else { throw fail(range.lowerBound, what) }
        let star = firstIndex(of: UInt8(ascii: "*"), in: range)
        if star == nil, !isIdentifier(range) {
            let constant = try parseUnsigned(range, limit: UInt64(Int64.max), decimalOnly: false, what: what)
            let (sum, overflow) = expression.constant.addingReportingOverflow(negative ? -Int64(constant) : Int64(constant))
            guard !overflow else { throw fail(range.lowerBound, "constants in 'length=' whose sum fits an Int64") }
            expression.constant = sum
            return
        }
        guard !negative else { throw fail(range.lowerBound, "'+' before a field in 'length=' (only constants may be subtracted)") }
        var nameRange = range
        var multiplier: UInt64 = 1
        if let star {
            let left = range.lowerBound..<star
            let right = star + 1..<range.upperBound
            let numberRange = isIdentifier(left) ? right : left
            nameRange = isIdentifier(left) ? left : right
            guard isIdentifier(nameRange) else { throw fail(range.lowerBound, what) }
            multiplier = try parseUnsigned(numberRange, limit: UInt64(UInt32.max), decimalOnly: false,
                                           what: "a multiplier from 1 to 4294967295 after '*'")
            guard multiplier >= 1 else { throw fail(numberRange.lowerBound, "a multiplier from 1 to 4294967295 after '*'") }
        }
        expression.terms.append(.init(name: string(nameRange), multiplier: multiplier, start: nameRange.lowerBound))
    }

    /// Gives the length role, and their multipliers, to the fields `length=` names; its
    /// constant joins `adjust`.
    private func markComputedLength(in fields: inout [ParsedField], options: inout ParsedOptions) throws(FormatSpecError) {
        guard let expression = options.lengthExpression else { return }
        if options.lengthFieldNameStart != nil {
            throw fail(options.lengthExpressionStart ?? 0, "either lenfield= or length=, not both")
        }
        for term in expression.terms {
            guard let index = fields.firstIndex(where: { $0.field.name == term.name }) else {
                throw fail(term.start, "the name of a field in this spec ('\(term.name)' is not one)")
            }
            guard fields[index].isInteger else {
                throw fail(term.start, "an integer field in 'length=' ('\(term.name)' is not one)")
            }
            guard fields[index].field.role != .length else {
                throw fail(term.start, "each field once in 'length=' ('\(term.name)' is already in it)")
            }
            fields[index].field.role = .length
            fields[index].field.lengthMultiplier = term.multiplier
        }
        let (adjustment, overflow) = (options.lengthAdjustment ?? 0).addingReportingOverflow(expression.constant)
        guard !overflow else { throw fail(options.lengthExpressionStart ?? 0, "an adjust= plus length= constant that fits an Int64") }
        options.lengthAdjustment = adjustment
    }

    // MARK: - Delimiters

    /// The widest delimiter accepted, in bytes, and the most delimiters: they bound the work
    /// done at each candidate position.
    static let maxDelimiterLength = 64
    static let maxDelimiterCount = 16

    /// `delim=` items separated by `,`: escaped text (`\n \r \t \0 \s \\ \, \xHH`, other
    /// bytes as themselves) or `0x` hex bytes.
    private func parseDelimiters(_ range: Range<Int>) throws(FormatSpecError) -> [[UInt8]] {
        var delimiters: [[UInt8]] = []
        var current: [UInt8] = []
        var itemStart = range.lowerBound
        var index = range.lowerBound
        func finish(_ end: Int) throws(FormatSpecError) {
            if end - itemStart > 2, text[itemStart] == UInt8(ascii: "0"), lower(text[itemStart + 1]) == UInt8(ascii: "x") {
                current = try parseHexBytes(itemStart + 2..<end)
            }
            guard !current.isEmpty else { throw fail(itemStart, "a delimiter like \\n, \\r\\n, ## or 0x0D0A (items separated by ',')") }
            guard current.count <= Self.maxDelimiterLength else {
                throw fail(itemStart, "a delimiter of at most \(Self.maxDelimiterLength) bytes")
            }
            guard delimiters.count < Self.maxDelimiterCount else { throw fail(itemStart, "at most \(Self.maxDelimiterCount) delimiters") }
            delimiters.append(current)
            current = []
        }
        while index < range.upperBound {
            let byte = text[index]
            if byte == UInt8(ascii: ",") {
                try finish(index)
                index += 1
                itemStart = index
                continue
            }
            guard byte == UInt8(ascii: "\\") else {
                current.append(byte)
                index += 1
                continue
            }
            guard index + 1 < range.upperBound else { throw fail(index, "an escape after '\\': n r t 0 s \\ , or xHH") }
            switch text[index + 1] {
            case UInt8(ascii: "n"): current.append(0x0A)
            case UInt8(ascii: "r"): current.append(0x0D)
            case UInt8(ascii: "t"): current.append(0x09)
            case UInt8(ascii: "0"): current.append(0x00)
            case UInt8(ascii: "s"): current.append(0x20)
            case UInt8(ascii: "\\"), UInt8(ascii: ","): current.append(text[index + 1])
            case UInt8(ascii: "x"):
                guard index + 4 <= range.upperBound else { throw fail(index, "two hex digits after '\\x'") }
                current.append(contentsOf: try parseHexBytes(index + 2..<index + 4))
                index += 2
            default:
                throw fail(index, "an escape after '\\': n r t 0 s \\ , or xHH")
            }
            index += 2
        }
        try finish(range.upperBound)
        return delimiters
    }

    /// Pairs of hex digits.
    private func parseHexBytes(_ range: Range<Int>) throws(FormatSpecError) -> [UInt8] {
        guard range.count % 2 == 0 else { throw fail(range.lowerBound, "hex digits in pairs") }
        var bytes: [UInt8] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard let high = digitValue(text[index], radix: 16), let low = digitValue(text[index + 1], radix: 16) else {
                throw fail(index, "hex digits in pairs")
            }
            bytes.append(UInt8(high << 4 | low))
            index += 2
        }
        return bytes
    }

    /// A delimiter format from `delim=`: no fields, and none of the length options.
    private func delimiterFormat(_ delimiters: [[UInt8]], fields: [ParsedField], options: ParsedOptions) throws(FormatSpecError) -> FrameFormat {
        if let first = fields.first {
            throw fail(first.nameStart, "no header fields with delim= (a delimiter format has none)")
        }
        for start in [options.countsStart, options.adjustStart, options.lengthFieldNameStart, options.lengthExpressionStart] {
            if let start { throw fail(start, "no length option with delim= (frames end at a delimiter)") }
        }
        do {
            return try FrameFormat(
                name: Self.trimmed(String(decoding: text, as: UTF8.self)),
                delimiters: delimiters,
                keepsDelimiter: options.keepsDelimiter,
                maxFrameLength: options.maxFrameLength ?? FrameFormat.defaultMaxFrameLength,
                payloadOffset: options.payloadOffset
            )
        } catch {
            throw locate(error, fields: fields, options: options)
        }
    }

    /// Whether the token after `position` is a `delim=` option: a delimiter spec may start with `;`.
    private func nextTokenIsDelimiterOption(after position: Int) -> Bool {
        var next = position
        guard let token = nextToken(from: &next) else { return false }
        return hasPrefix("delim=", in: token)
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
        case .lengthFieldCount:
            return fail(text.count, "a length field: name one integer field 'len' (like len:u16) or add lenfield=NAME")
        case .unalignedBitFields(let index):
            return fail(fields[index].typeStart, "bit fields that fill whole bytes (8, 16, … bits in a row): \(error)")
        case .invalidMultiplier:
            return fail(options.lengthExpressionStart ?? text.count, "a multiplier from 1 to 4294967295: \(error)")
        case .emptyDelimiter:
            return fail(options.delimiterStart ?? text.count, "a delimiter of at least one byte")
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
            // From a spec only one way: names on the integer field that became the length (`len`,
            // or `length=`'s); `checkedValueNames` reports the other cases at their tokens.
            return fail(fields[index].nameStart, "value names only on a value field like cmd:u8{1=ping}: '\(fields[index].field.name)' is the frame's length field")
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
