/// What the value in the length field measures, before ``FrameFormat/lengthAdjustment`` is added.
public enum LengthCounts: Sendable, Hashable {
    /// The body: frame length = header length + value + adjustment.
    case body
    /// The whole frame, header included: frame length = value + adjustment.
    case wholeFrame
}

/// A frame layout described as data: ordered header fields, what the length counts, and limits.
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
        try validate()
    }

    /// Header length in bytes: the sum of the field widths.
    public var headerLength: Int { fields.reduce(0) { $0 + $1.width } }

    /// Index in ``fields`` of the length field.
    public var lengthFieldIndex: Int { fields.firstIndex { $0.role == .length }! }

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
    /// - Parameter index: An index into ``fields``; `fields.count` gives the header length.
    /// - Returns: The sum of the widths of the fields before it, in bytes.
    public func offset(ofField index: Int) -> Int {
        fields[..<index].reduce(0) { $0 + $1.width }
    }

    /// Names only on integer value fields, each value and each name once, values that fit.
    private static func validateValueNames(of field: HeaderField, index: Int) throws(FrameFormatError) {
        guard !field.valueNames.isEmpty else { return }
        guard field.role == .value else { throw .invalidValueName(field: index, "only integer value fields take value names") }
        var values = Set<UInt64>()
        var names = Set<String>()
        for entry in field.valueNames {
            guard field.width >= 8 || entry.value >> UInt64(8 * field.width) == 0 else {
                throw .invalidValueName(field: index, "value \(entry.value) does not fit in \(field.width) byte\(field.width == 1 ? "" : "s")")
            }
            guard values.insert(entry.value).inserted else { throw .invalidValueName(field: index, "value \(entry.value) is named twice") }
            guard names.insert(entry.name).inserted else { throw .invalidValueName(field: index, "name '\(entry.name)' is used twice") }
        }
    }

    private func validate() throws(FrameFormatError) {
        var names = Set<String>()
        var lengthFields = 0
        var checksumFields = 0
        for (index, field) in fields.enumerated() {
            guard names.insert(field.name).inserted else {
                throw .duplicateFieldName(field.name)
            }
            switch field.role {
            case .opaque:
                guard field.width >= 1 else { throw .invalidWidth(field: index, width: field.width) }
            case .length:
                lengthFields += 1
                guard (1...8).contains(field.width) else { throw .invalidWidth(field: index, width: field.width) }
            case .checksum:
                checksumFields += 1
                guard field.width == 4 else { throw .invalidWidth(field: index, width: field.width) }
            case .value:
                guard (1...8).contains(field.width) else { throw .invalidWidth(field: index, width: field.width) }
            }
            try Self.validateValueNames(of: field, index: index)
        }
        guard lengthFields == 1 else { throw .lengthFieldCount(lengthFields) }
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
    /// A format needs exactly one length field; it has this many.
    case lengthFieldCount(Int)
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
        case .lengthFieldCount(let count): "a format needs exactly one length field, found \(count)"
        case .checksumFieldCount(let count): "a format has at most one checksum field, found \(count)"
        case .negativeLimit(let name): "\(name) must not be negative"
        case .invalidValueName(let field, let problem): "field \(field + 1) value names: \(problem)"
        }
    }
}
