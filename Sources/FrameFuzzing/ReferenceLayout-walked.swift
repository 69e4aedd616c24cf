import FrameCodec

/// The reference's own reading of headers whose fields do not sit at fixed offsets (varints,
/// bit fields) or whose length is computed from several fields: one bit and one byte at a
/// time, written from the field definitions alone, never from the codec's walk.
extension ReferenceLayout {
    /// What reading a header at a position found.
    enum HeaderRead {
        /// The bytes end before the header does (no check failed before that).
        case needMore
        /// A field holds a value outside its expected range.
        case invalid
        /// A varint longer than its width, or over 64 bits: the decoder reports oversize.
        case malformed
        /// A whole header.
        case header(Header)
    }

    struct Header {
        var length: Int
        /// Sum over the length fields of value × multiplier, saturating.
        var declared: UInt64
        var values: [UInt64]
        /// Byte offset of each field from the header start (a bit field: its first byte).
        var offsets: [Int]
    }

    /// Whether headers must be read field by field: varints, bit fields, several length
    /// fields or a multiplier.
    var isWalked: Bool {
        format.hasVariableLayout || format.lengthFieldIndices.count > 1
            || format.fields.contains { $0.lengthMultiplier != 1 }
    }

    /// Reads the header at `start`, looking at no byte at or past `end`; fields are checked
    /// against their expected ranges in wire order, the first problem deciding.
    func read(_ bytes: [UInt8], at start: Int, end: Int) -> HeaderRead {
        var position = start
        var bit = 0
        var declared: UInt64 = 0
        var values: [UInt64] = []
        var offsets: [Int] = []
        for field in format.fields {
            offsets.append(position - start)
            var value: UInt64 = 0
            switch field.encoding {
            case .fixed:
                guard position + field.width <= end else { return .needMore }
                if field.role != .opaque {
                    for index in 0..<field.width {
                        let byte = bytes[position + (field.byteOrder == .bigEndian ? index : field.width - 1 - index)]
                        value = value << 8 | UInt64(byte)
                    }
                }
                position += field.width
            case .varint:
                var shift: UInt64 = 0
                var count = 0
                while true {
                    guard count < field.width else { return .malformed }
                    guard position + count < end else { return .needMore }
                    let byte = bytes[position + count]
                    count += 1
                    let group = UInt64(byte & 0x7F)
                    // A group whose bits land past bit 63 overflows.
                    if shift == 63, group > 1 { return .malformed }
                    value |= group << shift
                    shift += 7
                    if byte < 0x80 { break }
                }
                position += count
            case .bits(let count):
                for _ in 0..<count {
                    guard position < end else { return .needMore }
                    value = value << 1 | UInt64((bytes[position] >> UInt8(7 - bit)) & 1)
                    bit += 1
                    if bit == 8 {
                        bit = 0
                        position += 1
                    }
                }
            }
            if field.role != .opaque, let expected = field.expected, !expected.contains(value) { return .invalid }
            if field.role == .length {
                let product = value.multipliedReportingOverflow(by: field.lengthMultiplier)
                let sum = declared.addingReportingOverflow(product.partialValue)
                declared = product.overflow || sum.overflow ? .max : sum.partialValue
            }
            values.append(value)
        }
        return .header(Header(length: position - start, declared: declared, values: values, offsets: offsets))
    }

    /// Shortest header in bytes: each varint at one byte.
    var minimumHeaderLength: Int {
        headerLength - format.fields.reduce(0) { $0 + ($1.isVarint ? $1.width - 1 : 0) }
    }

    /// Largest value a field can hold: its bytes, its varint groups or its bits.
    static func maxValue(of field: HeaderField) -> UInt64 {
        let bits = switch field.encoding {
        case .fixed: 8 * field.width
        case .varint: 7 * field.width
        case .bits(let count): count
        }
        return bits >= 64 ? .max : (1 << UInt64(bits)) - 1
    }
}
