/// The byte order of a multi-byte header field.
public enum ByteOrder: Sendable, Hashable {
    /// Most significant byte first ("network byte order", RFC 1700).
    case bigEndian
    /// Least significant byte first.
    case littleEndian
}

/// A checksum algorithm a frame header can carry.
public enum ChecksumAlgorithm: Sendable, Hashable, CaseIterable {
    /// CRC-32/ISO-HDLC: the zlib, Ethernet and PNG CRC (`"123456789"` → `0xCBF43926`).
    case crc32
    /// CRC-32C (Castagnoli, RFC 3720 §12.1): iSCSI, SCTP, ext4 (`"123456789"` → `0xE3069283`).
    case crc32c
}

/// Which bytes a checksum field covers.
public enum ChecksumCoverage: Sendable, Hashable {
    /// The body only.
    case body
    /// The whole frame, header and body, with the checksum field's own bytes read as zero.
    case headerAndBody
}

/// How a header field's integer is laid out on the wire.
public enum FieldEncoding: Sendable, Hashable {
    /// ``HeaderField/width`` bytes in ``HeaderField/byteOrder``.
    case fixed
    /// An unsigned LEB128 varint (protobuf's base-128, MQTT's Variable Byte Integer): seven
    /// bits per byte, least significant group first, the high bit set on every byte but the
    /// last; 1 to ``HeaderField/width`` bytes (at most 10, a `UInt64`). Non-minimal encodings
    /// (`80 00` for 0) are accepted, as protobuf and Netty accept them; a varint still unfinished
    /// after `width` bytes, or one whose value does not fit 64 bits, is malformed.
    case varint
    /// `count` bits (1...64) of a bit-packed group: consecutive bit fields are packed most
    /// significant bit first (MQTT's fixed header, IPv4's version and IHL) and a group fills
    /// whole bytes. ``HeaderField/width`` is 0 for a bit field; ``HeaderField/byteOrder`` is unused.
    case bits(Int)
}

/// One field of a frame header.
///
/// Fields are laid out back to back in ``FrameFormat/fields`` order; a field's offset in the
/// header is the sum of the widths before it — with ``FieldEncoding/varint`` fields, of the
/// bytes each earlier varint actually took, so the fields after a varint shift with it.
public struct HeaderField: Sendable, Hashable {
    /// What the decoder does with a field.
    public enum Role: Sendable, Hashable {
        /// An integer reported to the user (`ver`, `cmd`, a sequence number...).
        case value
        /// The length field: see ``FrameFormat/lengthCounts`` and ``FrameFormat/lengthAdjustment``.
        case length
        /// A checksum over the bytes ``ChecksumCoverage`` names, computed with the algorithm given.
        case checksum(ChecksumAlgorithm, ChecksumCoverage)
        /// Bytes that are part of the header but carry no integer (any width, 1 byte or more);
        /// lets a spec express Netty's `lengthFieldOffset` over unnamed bytes.
        case opaque
    }

    /// The field's name, as shown in output (`fields` in JSON Lines).
    public var name: String
    /// Width in bytes: 1...8 for integer fields, any positive width for ``Role/opaque``; for a
    /// varint the most bytes it may take (1...10); 0 for a bit field.
    public var width: Int
    /// Byte order of the integer; ignored for 1-byte and opaque fields.
    public var byteOrder: ByteOrder
    /// What the field is for.
    public var role: Role
    /// Values a valid header must have in this field, or `nil` for any value.
    ///
    /// A single value (`0x55AA...0x55AA`) makes the field a *magic*: the decoder resyncs by
    /// scanning for its bytes. A wider range (the TLS content type 20...24) is checked but
    /// resync then advances one byte at a time.
    public var expected: ClosedRange<UInt64>?
    /// Names for some of the field's values, in the order the spec gives them (`{1=ping,2=pong}`);
    /// empty for none. Only ``Role/value`` fields carry names; see ``ValueName``.
    public var valueNames: [ValueName]
    /// How the integer is laid out: fixed width (the default), varint or a bit field.
    public var encoding: FieldEncoding
    /// For a length field: the bytes one unit of its value stands for (IPv4's IHL counts
    /// 4-byte words: 4); 1 by default. The declared length is the sum over the format's length
    /// fields of value × multiplier (see ``FrameFormat/lengthCounts``).
    public var lengthMultiplier: UInt64

    /// A header field; `FrameFormat.init` checks it against the rest of the layout.
    ///
    /// - Parameters:
    ///   - name: Shown in output; unique within a format.
    ///   - width: Width in bytes: 1...8 for integers, any positive width for `.opaque`.
    ///   - byteOrder: Byte order of the integer; default big-endian (network order).
    ///   - role: What the field is for; default `.value`.
    ///   - expected: Values a valid header must have here, or `nil` (the default) for any.
    ///   - valueNames: Names for some of its values (only for `.value` fields); none by default.
    ///   - encoding: Fixed width (the default), a varint of at most `width` bytes, or a bit
    ///     field (then `width` is 0).
    ///   - lengthMultiplier: For a length field, the bytes one unit of its value counts; 1 by default.
    public init(
        name: String,
        width: Int,
        byteOrder: ByteOrder = .bigEndian,
        role: Role = .value,
        expected: ClosedRange<UInt64>? = nil,
        valueNames: [ValueName] = [],
        encoding: FieldEncoding = .fixed,
        lengthMultiplier: UInt64 = 1
    ) {
        self.name = name
        self.width = width
        self.byteOrder = byteOrder
        self.role = role
        self.expected = expected
        self.valueNames = valueNames
        self.encoding = encoding
        self.lengthMultiplier = lengthMultiplier
    }

    /// Bits this field takes in a bit-packed group, or `nil` for a byte-aligned field.
    public var bitCount: Int? {
        if case .bits(let count) = encoding { return count }
        return nil
    }

    /// Whether the field is a ``FieldEncoding/varint``.
    public var isVarint: Bool { encoding == .varint }

    /// Bits of the field's integer: a bit field's ``FieldEncoding/bits(_:)`` count, 7 × ``width``
    /// for a varint (its 7-bit groups; at most 64, as ten groups hold a `UInt64`), else
    /// 8 × ``width`` (at most 64).
    public var valueBits: Int {
        bitCount ?? min(64, (encoding == .varint ? 7 : 8) * width)
    }

    /// The largest value the field can hold, `2^valueBits − 1`.
    public var largestValue: UInt64 {
        valueBits >= 64 ? .max : (1 << UInt64(valueBits)) - 1
    }
}
