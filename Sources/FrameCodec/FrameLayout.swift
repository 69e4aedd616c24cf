/// A ``FrameFormat`` flattened into the offsets and constants the decoder's and encoder's hot
/// loops need, computed once so that reading a header touches no arrays of fields, no
/// existentials and no closures.
struct FrameLayout: Sendable {
    /// A field whose value a valid header must hold.
    struct Check: Sendable {
        var offset: Int
        var width: Int
        var byteOrder: ByteOrder
        var expected: ClosedRange<UInt64>
    }

    /// The magic: the field the decoder scans for when resyncing.
    struct Magic: Sendable {
        var offset: Int
        var width: Int
        var byteOrder: ByteOrder
        var value: UInt64
        /// The magic's first byte on the wire, searched for eight bytes at a time.
        var firstByte: UInt8
        /// Header bytes up to the end of the magic: how much a position needs to be checked.
        var end: Int { offset + width }
    }

    /// The checksum field.
    struct Checksum: Sendable {
        var offset: Int
        var byteOrder: ByteOrder
        var coverage: ChecksumCoverage
        /// The field's algorithm, as its tables: looked up once here rather than through the
        /// lazily initialised global on every frame (a `swift_once` call each, ≈ 1 % of `decode`).
        var tables: CRC32Tables
        /// Checksum fields are always 4 bytes wide (``FrameFormat`` checks it).
        static let width = 4
    }

    let headerLength: Int
    let lengthOffset: Int
    let lengthWidth: Int
    let lengthByteOrder: ByteOrder
    let lengthCounts: LengthCounts
    let lengthAdjustment: Int64
    let maxFrameLength: Int
    let magic: Magic?
    /// Fields with an ``HeaderField/expected`` range other than the magic, in wire order.
    let checks: [Check]
    let checksum: Checksum?
    /// The field-by-field walk for layouts the fixed-offset fast path cannot read (varints,
    /// bit fields, several length fields or a multiplier); `nil` for the fast path.
    let steps: [Step]?
    /// For a delimiter format: its delimiters, ready for scanning; `nil` otherwise.
    let delimiters: DelimiterSet?
    /// When the whole header is one varint length (protobuf's delimited streams): its widest
    /// size, read without the general walk; 0 otherwise.
    let soleVarintWidth: Int

    init(_ format: FrameFormat) {
        var offset = 0
        var magic: Magic?
        var checks: [Check] = []
        var checksum: Checksum?
        var length = (offset: 0, width: 1, byteOrder: ByteOrder.bigEndian)
        let steps = Self.steps(for: format)
        // The magic is scanned for only where its offset is the same in every header.
        let magicIndex = format.magicFieldIndex.flatMap { index in
            format.fields[...index].allSatisfy { $0.encoding == .fixed } ? index : nil
        }
        for (index, field) in format.fields.enumerated() {
            switch field.role {
            case .length:
                length = (offset, field.width, field.byteOrder)
            case .checksum(let algorithm, let coverage):
                checksum = Checksum(offset: offset, byteOrder: field.byteOrder, coverage: coverage,
                                    tables: CRC32Tables.for(algorithm))
            case .value, .opaque:
                break
            }
            if let expected = field.expected, field.role != .opaque {
                if index == magicIndex {
                    let value = expected.lowerBound
                    let firstShift = field.byteOrder == .bigEndian && field.width > 1 ? 8 * (field.width - 1) : 0
                    magic = Magic(offset: offset, width: field.width, byteOrder: field.byteOrder, value: value,
                                  firstByte: UInt8(truncatingIfNeeded: value >> UInt64(firstShift)))
                } else {
                    checks.append(Check(offset: offset, width: field.width, byteOrder: field.byteOrder, expected: expected))
                }
            }
            offset += field.width
        }
        headerLength = offset
        lengthOffset = length.offset
        lengthWidth = length.width
        lengthByteOrder = length.byteOrder
        lengthCounts = format.lengthCounts
        lengthAdjustment = format.lengthAdjustment
        maxFrameLength = format.maxFrameLength
        self.magic = magic
        self.checks = checks
        self.checksum = checksum
        self.steps = steps
        if let steps, steps.count == 1, steps[0].kind == .varint, steps[0].multiplier == 1, steps[0].expected == nil {
            soleVarintWidth = steps[0].width
        } else {
            soleVarintWidth = 0
        }
        self.delimiters = format.isDelimited ? DelimiterSet(format.delimiters, keeps: format.keepsDelimiter) : nil
    }

    /// The whole frame's length, header included, declared by a length field holding `value`.
    ///
    /// - Returns: the length in bytes, or `nil` when it is below the header length, above
    ///   ``maxFrameLength``, or the arithmetic overflows: all of which the decoder reports as
    ///   oversize and the encoder refuses.
    @inline(__always)
    func frameLength(declared value: UInt64) -> Int? {
        frameLength(declared: value, headerLength: headerLength)
    }

    /// ``frameLength(declared:)`` for a header of `headerLength` bytes (a varint layout's own).
    @inline(__always)
    func frameLength(declared value: UInt64, headerLength: Int) -> Int? {
        guard value <= UInt64(Int64.max) else { return nil }
        var (total, overflow) = Int64(value).addingReportingOverflow(lengthAdjustment)
        guard !overflow else { return nil }
        if lengthCounts == .body {
            (total, overflow) = total.addingReportingOverflow(Int64(headerLength))
            guard !overflow else { return nil }
        }
        guard total >= Int64(headerLength), total <= Int64(maxFrameLength) else { return nil }
        return Int(total)
    }

    /// Whether the checked fields other than the magic hold expected values; fields not wholly
    /// inside the first `available` bytes are taken as valid.
    ///
    /// - Parameters:
    ///   - header: the first byte of a candidate header.
    ///   - available: readable bytes from `header`.
    @inline(__always)
    func checksValid(_ header: UnsafeRawPointer, available: Int) -> Bool {
        for check in checks where check.offset &+ check.width <= available {
            let value = header.loadInteger(fromByteOffset: check.offset, width: check.width, byteOrder: check.byteOrder)
            guard check.expected.contains(value) else { return false }
        }
        return true
    }

    /// Whether a header could start at `header` as far as its first `available` bytes tell:
    /// the magic's readable bytes match, and checked fields wholly inside them hold expected
    /// values. Used on a stream's unfinished tail to tell `truncated` from `skip`.
    ///
    /// - Parameters:
    ///   - header: the first byte of a candidate header.
    ///   - available: readable bytes from `header`.
    func couldStartHeader(_ header: UnsafeRawPointer, available: Int) -> Bool {
        if delimiters != nil { return true }
        if let steps {
            if let magic, !magicMatches(header, available: available, magic) { return false }
            if case .invalid = Self.scan(steps, header, available: available) { return false }
            return true
        }
        if let magic {
            return magicMatches(header, available: available, magic) && checksValid(header, available: available)
        }
        return checksValid(header, available: available)
    }

    /// Whether the magic's bytes readable in the first `available` bytes from `header` match.
    private func magicMatches(_ header: UnsafeRawPointer, available: Int, _ magic: Magic) -> Bool {
        for index in 0..<magic.width where magic.offset + index < available {
            let shift = 8 * (magic.byteOrder == .bigEndian ? magic.width - 1 - index : index)
            guard header.load(fromByteOffset: magic.offset + index, as: UInt8.self) == UInt8(truncatingIfNeeded: magic.value >> UInt64(shift)) else {
                return false
            }
        }
        // A magic value wider than its field can never match, not even in part.
        return magic.width == 8 || magic.value >> UInt64(8 * magic.width) == 0
    }
}
