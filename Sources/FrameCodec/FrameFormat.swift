/// What the value in the length field measures, before ``FrameFormat/lengthAdjustment`` is added.
///
/// With several length fields (a computed length, ``HeaderField/lengthMultiplier``), "value" is
/// their sum, each field's value times its multiplier.
public enum LengthCounts: Sendable, Hashable {
    /// The body: frame length = header length + value + adjustment.
    case body
    /// The whole frame, header included: frame length = value + adjustment.
    case wholeFrame
}

/// A frame layout described as data: ordered header fields, what the length counts, and limits;
/// or, for text-like protocols, the delimiters that end each frame (``delimiters``).
///
/// Presets (``fefd``, ``h12``, ``u16``, ``u32``, ``tls``) and layouts parsed from a text spec
/// (``FrameFormat/init(spec:)``) are the same type; the decoder has no format-specific branches.
///
/// The max frame length is checked on the whole frame, header included, in bytes: a frame of
/// exactly ``maxFrameLength`` bytes is accepted, one byte more is reported as oversize.
public struct FrameFormat: Sendable, Hashable {
    /// A short name (`"h12"`), or the spec text for a parsed layout.
    public var name: String
    /// Header fields in wire order.
    public var fields: [HeaderField]
    /// What the length field's value measures.
    public var lengthCounts: LengthCounts
    /// Bytes added to the length field's value (Netty's `lengthAdjustment`, tokio-util's
    /// `length_adjustment`); may be negative.
    public var lengthAdjustment: Int64
    /// Largest accepted frame, header included, in bytes (Netty's `maxFrameLength`).
    public var maxFrameLength: Int
    /// Where the payload handed to the user starts, in bytes from the frame start (Netty's
    /// `initialBytesToStrip`, tokio-util's `num_skip`); `nil` means right after the header.
    public var payloadOffset: Int?
    /// For a delimiter format (no header fields): the byte sequences that end a frame, in the
    /// order Netty's `DelimiterBasedFrameDecoder` takes them (of several matches, the one that
    /// gives the shortest frame wins; on a tie, the earlier in this list). Empty for a
    /// length-field format.
    public var delimiters: [[UInt8]]
    /// For a delimiter format: whether the delimiter is part of the payload (Netty's
    /// `stripDelimiter = false`). The frame itself always includes its delimiter, so every byte
    /// stays accounted for; by default the payload stops before it.
    public var keepsDelimiter: Bool

    /// The default ``maxFrameLength``: 16 MiB.
    public static let defaultMaxFrameLength = 16 * 1024 * 1024

    /// Creates a format, checking that it is well formed.
    ///
    /// - Throws: ``FrameFormatError`` when there is not exactly one length field, a width is out
    ///   of range, a name repeats, more than one checksum field is given, or a limit is negative.
    public init(
        name: String,
        fields: [HeaderField],
        lengthCounts: LengthCounts = .body,
        lengthAdjustment: Int64 = 0,
        maxFrameLength: Int = FrameFormat.defaultMaxFrameLength,
        payloadOffset: Int? = nil
    ) throws(FrameFormatError) {
        self.name = name
        self.fields = fields
        self.lengthCounts = lengthCounts
        self.lengthAdjustment = lengthAdjustment
        self.maxFrameLength = maxFrameLength
        self.payloadOffset = payloadOffset
        self.delimiters = []
        self.keepsDelimiter = false
        try validate()
    }

    /// Creates a delimiter format: frames end at one of `delimiters` (Netty's
    /// `DelimiterBasedFrameDecoder`); there are no header fields.
    ///
    /// - Parameters:
    ///   - name: A short name, or the spec text.
    ///   - delimiters: One or more non-empty byte sequences; see ``delimiters``.
    ///   - keepsDelimiter: Whether the payload includes the delimiter (Netty's `stripDelimiter`
    ///     inverted); default `false`.
    ///   - maxFrameLength: The longest frame **without** its delimiter, in bytes (Netty's
    ///     `maxFrameLength`, which does not count the delimiter either); longer frames are
    ///     one `skip` event through the next delimiter.
    ///   - payloadOffset: Where the payload starts, in bytes from the frame start; `nil` for 0.
    /// - Throws: ``FrameFormatError`` when there is no delimiter, one is empty, or a limit is negative.
    public init(
        name: String,
        delimiters: [[UInt8]],
        keepsDelimiter: Bool = false,
        maxFrameLength: Int = FrameFormat.defaultMaxFrameLength,
        payloadOffset: Int? = nil
    ) throws(FrameFormatError) {
        self.name = name
        self.fields = []
        self.lengthCounts = .body
        self.lengthAdjustment = 0
        self.maxFrameLength = maxFrameLength
        self.payloadOffset = payloadOffset
        self.delimiters = delimiters
        self.keepsDelimiter = keepsDelimiter
        guard !delimiters.isEmpty else { throw .lengthFieldCount(0) }
        if let empty = delimiters.firstIndex(where: \.isEmpty) { throw .emptyDelimiter(empty) }
        try validate()
    }

    /// Whether frames end at ``delimiters`` rather than at a length from the header.
    public var isDelimited: Bool { !delimiters.isEmpty }

    /// Whether a field's position depends on the bytes before it (a varint) or a field is not
    /// whole bytes (a bit field): then ``offset(ofField:)`` is not a frame's actual offset, and
    /// ``value(ofField:in:)`` walks the header.
    public var hasVariableLayout: Bool { fields.contains { $0.encoding != .fixed } }

    /// Header length in bytes: the sum of the field widths (bit fields count their bits / 8).
    /// With varint fields this is the longest header, each varint at its widest; a frame's own
    /// header length is ``Frame/headerLength``.
    public var headerLength: Int {
        let bits = fields.reduce(0) { $0 + ($1.bitCount ?? 0) }
        return fields.reduce(0) { $0 + $1.width } + bits / 8
    }

    /// The shortest header in bytes: ``headerLength`` with each varint at one byte.
    public var minimumHeaderLength: Int {
        headerLength - fields.reduce(0) { $0 + ($1.isVarint ? $1.width - 1 : 0) }
    }

    /// Index in ``fields`` of the (first) length field.
    ///
    /// - Precondition: a length-field format (not ``isDelimited``).
    public var lengthFieldIndex: Int { fields.firstIndex { $0.role == .length }! }

    /// Indices in ``fields`` of the length fields: one, or several for a computed length.
    public var lengthFieldIndices: [Int] { fields.indices.filter { fields[$0].role == .length } }

    /// Index in ``fields`` of the checksum field, if the format has one.
    public var checksumFieldIndex: Int? {
        fields.firstIndex {
            if case .checksum = $0.role { return true }
            return false
        }
    }

    /// Index in ``fields`` of the magic: the first integer field whose ``HeaderField/expected``
    /// range holds a single value.
    public var magicFieldIndex: Int? {
        fields.firstIndex { field in
            guard field.role != .opaque, let range = field.expected else { return false }
            return range.lowerBound == range.upperBound
        }
    }

    /// Byte offset of field `index` from the start of the header.
    ///
    /// For a bit field, the offset of the byte holding its first bit. With varint fields before
    /// `index`, each counts at its widest (``hasVariableLayout``): a frame's actual offsets
    /// come from walking its header, as ``value(ofField:in:)`` does.
    ///
    /// - Parameter index: An index into ``fields``; `fields.count` gives the header length.
    /// - Returns: The sum of the widths of the fields before it, in bytes.
    public func offset(ofField index: Int) -> Int {
        let bits = fields[..<index].reduce(0) { $0 + ($1.bitCount ?? 0) }
        return fields[..<index].reduce(0) { $0 + $1.width } + bits / 8
    }

    /// Names only on integer value fields, each value and each name once, values that fit.
    private static func validateValueNames(of field: HeaderField, index: Int) throws(FrameFormatError) {
        guard !field.valueNames.isEmpty else { return }
        guard field.role == .value else { throw .invalidValueName(field: index, "only integer value fields take value names") }
        var values = Set<UInt64>()
        var names = Set<String>()
        for entry in field.valueNames {
            let bits = field.valueBits
            guard entry.value <= field.largestValue else {
                throw .invalidValueName(field: index, "value \(entry.value) does not fit in " + (field.encoding == .fixed ? "\(field.width) byte\(field.width == 1 ? "" : "s")" : "\(bits) bits"))
            }
            guard values.insert(entry.value).inserted else { throw .invalidValueName(field: index, "value \(entry.value) is named twice") }
            guard names.insert(entry.name).inserted else { throw .invalidValueName(field: index, "name '\(entry.name)' is used twice") }
        }
    }
    /// The widest varint: ten 7-bit groups hold a `UInt64`.
    public static let maxVarintWidth = 10

    private func validate() throws(FrameFormatError) {
        var names = Set<String>()
        var lengthFields = 0
        var checksumFields = 0
        var openBits = 0
        for (index, field) in fields.enumerated() {
            guard names.insert(field.name).inserted else {
                throw .duplicateFieldName(field.name)
            }
            if field.bitCount == nil, openBits % 8 != 0 { throw .unalignedBitFields(field: index - 1) }
            switch field.encoding {
            case .fixed:
                break
            case .varint:
                guard field.role == .value || field.role == .length else { throw .invalidWidth(field: index, width: field.width) }
                guard (1...Self.maxVarintWidth).contains(field.width) else { throw .invalidWidth(field: index, width: field.width) }
            case .bits(let count):
                guard field.role == .value || field.role == .length, field.width == 0, (1...64).contains(count) else {
                    throw .invalidWidth(field: index, width: field.width)
                }
                openBits += count
            }
            guard field.lengthMultiplier == 1 || (field.role == .length && (1...UInt64(UInt32.max)).contains(field.lengthMultiplier)) else {
                throw .invalidMultiplier(field: index)
            }
            switch (field.role, field.encoding) {
            case (.opaque, _):
                guard field.width >= 1 else { throw .invalidWidth(field: index, width: field.width) }
            case (.length, .fixed):
                lengthFields += 1
                guard (1...8).contains(field.width) else { throw .invalidWidth(field: index, width: field.width) }
            case (.length, _):
                lengthFields += 1
            case (.checksum, _):
                checksumFields += 1
                guard field.width == 4, field.encoding == .fixed else { throw .invalidWidth(field: index, width: field.width) }
            case (.value, .fixed):
                guard (1...8).contains(field.width) else { throw .invalidWidth(field: index, width: field.width) }
            case (.value, _):
                break
            }
            try Self.validateValueNames(of: field, index: index)
        }
        if openBits % 8 != 0 { throw .unalignedBitFields(field: fields.count - 1) }
        guard lengthFields >= 1 || isDelimited else { throw .lengthFieldCount(lengthFields) }
        guard checksumFields <= 1 else { throw .checksumFieldCount(checksumFields) }
        guard maxFrameLength >= 0 else { throw .negativeLimit("maxFrameLength") }
        if let payloadOffset, payloadOffset < 0 { throw .negativeLimit("payloadOffset") }
    }
}

/// Why a ``FrameFormat`` is not well formed.
public enum FrameFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field width outside 1...8 (4 for checksums, any positive width for opaque fields).
    case invalidWidth(field: Int, width: Int)
    /// Two fields share a name.
    case duplicateFieldName(String)
    /// A format needs a length field (or delimiters); it has none.
    case lengthFieldCount(Int)
    /// A run of bit fields ending at this field does not fill whole bytes.
    case unalignedBitFields(field: Int)
    /// A length multiplier other than 1 on a field that is not a length field, or 0, or above 2³² − 1.
    case invalidMultiplier(field: Int)
    /// Delimiter number `index` (0-based) has no bytes.
    case emptyDelimiter(Int)
    /// A format has at most one checksum field; it has this many.
    case checksumFieldCount(Int)
    /// A limit that must be zero or more is negative.
    case negativeLimit(String)
    /// Field `field`'s ``HeaderField/valueNames`` are not allowed for its kind, repeat a value
    /// or a name, or name a value too wide for the field; the text says which.
    case invalidValueName(field: Int, String)

    /// What is wrong with the layout, naming the field (1-based) or the limit.
    public var description: String {
        switch self {
        case .invalidWidth(let field, let width): "field \(field + 1) has width \(width) bytes, which is not allowed for its kind"
        case .duplicateFieldName(let name): "field name '\(name)' is used twice"
        case .lengthFieldCount: "a format needs a length field or delimiters, found none"
        case .unalignedBitFields(let field): "the bit fields ending at field \(field + 1) do not fill whole bytes"
        case .invalidMultiplier(let field): "field \(field + 1) has a length multiplier, which only a length field may have (1 to 4294967295)"
        case .emptyDelimiter(let index): "delimiter \(index + 1) is empty"
        case .checksumFieldCount(let count): "a format has at most one checksum field, found \(count)"
        case .negativeLimit(let name): "\(name) must not be negative"
        case .invalidValueName(let field, let problem): "field \(field + 1) value names: \(problem)"
        }
    }
}
