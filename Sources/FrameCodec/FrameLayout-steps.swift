/// The field-by-field header walk: for layouts whose field offsets depend on the bytes
/// (varints), that pack bit fields, or whose length is computed from several fields.
extension FrameLayout {
    /// One header field, flattened for the walk.
    struct Step: Sendable {
        enum Kind: Sendable {
            /// `width` bytes, `byteOrder`.
            case fixed
            /// LEB128, at most `width` bytes.
            case varint
            /// `width` bits of a bit-packed group.
            case bits
            /// `width` bytes carrying no integer.
            case opaque
            /// The 4-byte checksum field.
            case checksum
        }

        var kind: Kind
        var width: Int
        var byteOrder: ByteOrder
        /// The length multiplier for a length field, 0 for any other field.
        var multiplier: UInt64
        var expected: ClosedRange<UInt64>?
    }

    /// What the walk found at a candidate header.
    enum Scan {
        /// The header needs more bytes than are readable (no check failed in those there are).
        case needMore
        /// A field holds a value its ``HeaderField/expected`` range does not allow.
        case invalid
        /// A varint ran past its width or overflowed 64 bits: reported as oversize.
        case malformed
        /// A whole header: its length, the declared length (the length fields' weighted sum,
        /// saturating at `UInt64.max`) and the checksum field's offset (or -1).
        case header(length: Int, declared: UInt64, checksumOffset: Int)
    }

    /// The walk, or `nil` when every field sits at a fixed byte offset, there is one length
    /// field and it counts bytes: the fast path then reads the header at precomputed offsets.
    static func steps(for format: FrameFormat) -> [Step]? {
        let lengths = format.lengthFieldIndices
        let needsWalk = format.hasVariableLayout || lengths.count > 1
            || lengths.contains { format.fields[$0].lengthMultiplier != 1 }
        guard needsWalk else { return nil }
        return makeSteps(format, forReading: false)
    }

    /// The walk for reading field values out of a header that passed the checks already:
    /// every layout, no checks, checksums read as their stored value.
    static func steps(forReading format: FrameFormat) -> [Step] {
        makeSteps(format, forReading: true)
    }

    private static func makeSteps(_ format: FrameFormat, forReading: Bool) -> [Step] {
        format.fields.map { field in
            let kind: Step.Kind
            switch (field.role, field.encoding) {
            case (.opaque, _): kind = .opaque
            case (.checksum, _): kind = forReading ? .fixed : .checksum
            case (_, .varint): kind = .varint
            case (_, .bits): kind = .bits
            case (_, .fixed): kind = .fixed
            }
            return Step(kind: kind, width: field.bitCount ?? field.width, byteOrder: field.byteOrder,
                        multiplier: field.role == .length ? field.lengthMultiplier : 0,
                        expected: field.role == .opaque || forReading ? nil : field.expected)
        }
    }

    /// Walks `steps` over the header at `header`, of which `available` bytes are readable.
    ///
    /// - Parameter values: when given, receives each field's value in order (0 for opaque
    ///   and checksum fields), for readers of single fields.
    @inline(__always)
    static func scan(
        _ steps: [Step],
        _ header: UnsafeRawPointer,
        available: Int,
        values: ((Int, UInt64) -> Void)? = nil
    ) -> Scan {
        var offset = 0
        var bitOffset = 0
        var declared: UInt64 = 0
        var checksumOffset = -1
        for index in steps.indices {
            let step = steps[index]
            var value: UInt64 = 0
            switch step.kind {
            case .fixed:
                guard offset &+ step.width <= available else { return .needMore }
                value = header.loadInteger(fromByteOffset: offset, width: step.width, byteOrder: step.byteOrder)
                offset &+= step.width
            case .opaque:
                guard offset &+ step.width <= available else { return .needMore }
                offset &+= step.width
            case .checksum:
                guard offset &+ 4 <= available else { return .needMore }
                checksumOffset = offset
                offset &+= 4
            case .varint:
                switch readVarint(header + offset, available: available &- offset, maxBytes: step.width) {
                case .value(let read, let count):
                    value = read
                    offset &+= count
                case .needMore: return .needMore
                case .malformed: return .malformed
                }
            case .bits:
                let lastBit = bitOffset &+ step.width
                let bytes = (lastBit &+ 7) &>> 3
                guard offset &+ bytes <= available else { return .needMore }
                value = loadBits(header + offset, from: bitOffset, count: step.width)
                bitOffset = lastBit
                if bitOffset & 7 == 0 {
                    offset &+= bitOffset &>> 3
                    bitOffset = 0
                }
            }
            if let expected = step.expected, !expected.contains(value) { return .invalid }
            if step.multiplier != 0 {
                let (product, overflow) = value.multipliedReportingOverflow(by: step.multiplier)
                let (sum, carry) = declared.addingReportingOverflow(product)
                declared = overflow || carry ? .max : sum
            }
            values?(index, value)
        }
        return .header(length: offset, declared: declared, checksumOffset: checksumOffset)
    }

    /// ``scan(_:_:available:values:)`` for a header that is one varint length of at most
    /// `width` bytes (``FrameLayout/soleVarintWidth``), without the walk's loop.
    @inline(__always)
    static func scanSoleVarint(_ header: UnsafeRawPointer, available: Int, width: Int) -> Scan {
        switch readVarint(header, available: available, maxBytes: width) {
        case .value(let value, let count): .header(length: count, declared: value, checksumOffset: -1)
        case .needMore: .needMore
        case .malformed: .malformed
        }
    }

    /// The outcome of reading one varint.
    enum Varint {
        case value(UInt64, count: Int)
        case needMore
        case malformed
    }

    /// Reads an unsigned LEB128 varint of at most `maxBytes` bytes (protobuf encoding, MQTT
    /// §1.5.5 / 3.1.1 §2.2.3): seven bits per byte, low group first, high bit = more follows.
    @inline(__always)
    static func readVarint(_ bytes: UnsafeRawPointer, available: Int, maxBytes: Int) -> Varint {
        var value: UInt64 = 0
        var index = 0
        while index < maxBytes {
            guard index < available else { return .needMore }
            let byte = UInt64(bytes.load(fromByteOffset: index, as: UInt8.self))
            // The tenth group holds bit 63 only: anything more overflows 64 bits.
            if index == 9, byte > 1 { return .malformed }
            value |= (byte & 0x7F) &<< UInt64(7 &* index)
            index &+= 1
            if byte & 0x80 == 0 { return .value(value, count: index) }
        }
        return .malformed
    }

    /// Bytes the minimal LEB128 encoding of `value` takes (1...10).
    static func varintLength(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    /// `count` bits starting `from` bits into `bytes`, most significant bit first.
    @inline(__always)
    static func loadBits(_ bytes: UnsafeRawPointer, from: Int, count: Int) -> UInt64 {
        var value: UInt64 = 0
        for bit in from..<(from &+ count) {
            let byte = bytes.load(fromByteOffset: bit &>> 3, as: UInt8.self)
            value = value &<< 1 | UInt64((byte &>> UInt8(7 &- (bit & 7))) & 1)
        }
        return value
    }
}
