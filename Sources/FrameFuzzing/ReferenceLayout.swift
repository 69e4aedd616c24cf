import FrameCodec

/// The facts about one header at one position that the oracle and the generator need,
/// computed from a ``FrameFormat`` without the codec's own header code.
struct ReferenceLayout {
    let format: FrameFormat
    let headerLength: Int
    let fieldOffsets: [Int]
    let lengthFieldIndex: Int
    let checksumFieldIndex: Int?
    let magicFieldIndex: Int?

    init(_ format: FrameFormat) {
        self.format = format
        var offsets: [Int] = []
        var offset = 0
        var bits = 0
        for field in format.fields {
            offsets.append(offset + bits / 8)
            offset += field.width
            bits += field.bitCount ?? 0
        }
        headerLength = offset + bits / 8
        fieldOffsets = offsets
        lengthFieldIndex = format.fields.firstIndex { $0.role == .length } ?? 0
        checksumFieldIndex = format.fields.firstIndex {
            if case .checksum = $0.role { return true }
            return false
        }
        magicFieldIndex = format.fields.firstIndex { field in
            guard field.role != .opaque, let range = field.expected else { return false }
            return range.lowerBound == range.upperBound
        }
    }

    /// Reads field `index` of the header starting at `start`; all its bytes must be present.
    func value(ofField index: Int, in bytes: [UInt8], at start: Int) -> UInt64 {
        let field = format.fields[index]
        guard field.role != .opaque else { return 0 }
        let first = start + fieldOffsets[index]
        var value: UInt64 = 0
        for position in 0..<field.width {
            let byte = bytes[first + (field.byteOrder == .bigEndian ? position : field.width - 1 - position)]
            value = value << 8 | UInt64(byte)
        }
        return value
    }

    /// The magic's bytes as they appear on the wire, or `nil` for a format without a magic, or
    /// whose magic is a bit field or varint (no whole bytes to scan for or plant).
    var magicBytes: [UInt8]? {
        guard let index = magicFieldIndex, format.fields[index].encoding == .fixed,
              let magic = format.fields[index].expected?.lowerBound else { return nil }
        return Self.encode(magic, width: format.fields[index].width, byteOrder: format.fields[index].byteOrder)
    }

    /// Offset of the magic from the frame start.
    var magicOffset: Int { magicFieldIndex.map { fieldOffsets[$0] } ?? 0 }

    /// `value` as `width` bytes in `byteOrder`.
    static func encode(_ value: UInt64, width: Int, byteOrder: ByteOrder) -> [UInt8] {
        (0..<width).map { position in
            let shift = byteOrder == .bigEndian ? width - 1 - position : position
            return shift >= 8 ? 0 : UInt8(truncatingIfNeeded: value >> UInt64(shift * 8))
        }
    }

    /// Largest value a field of `width` bytes holds.
    static func maxValue(width: Int) -> UInt64 {
        width >= 8 ? .max : (1 << UInt64(width * 8)) - 1
    }

    /// The whole frame length, header included, that a raw length-field value declares, or
    /// `nil` when the arithmetic overflows, goes below the header length or exceeds the limit.
    func frameLength(declared raw: UInt64) -> Int? {
        frameLength(declared: raw, headerLength: headerLength)
    }

    /// ``frameLength(declared:)`` for a header of `headerLength` bytes (a walked layout's own).
    func frameLength(declared raw: UInt64, headerLength: Int) -> Int? {
        guard raw <= UInt64(Int64.max) else { return nil }
        let (adjusted, overflow) = Int64(raw).addingReportingOverflow(format.lengthAdjustment)
        guard !overflow else { return nil }
        let total: Int64
        switch format.lengthCounts {
        case .wholeFrame:
            total = adjusted
        case .body:
            let (sum, sumOverflow) = adjusted.addingReportingOverflow(Int64(headerLength))
            guard !sumOverflow else { return nil }
            total = sum
        }
        guard total >= Int64(headerLength), total <= Int64(format.maxFrameLength) else { return nil }
        return Int(total)
    }

    /// The raw length-field value that declares a frame of `frameLength` bytes, or `nil` when
    /// the field cannot hold it.
    func declaredValue(forFrameLength frameLength: Int) -> UInt64? {
        var raw = Int64(frameLength) - format.lengthAdjustment
        if format.lengthCounts == .body { raw -= Int64(headerLength) }
        guard raw >= 0 else { return nil }
        let field = format.fields[lengthFieldIndex]
        guard UInt64(raw) <= Self.maxValue(width: field.width) else { return nil }
        if let expected = field.expected, !expected.contains(UInt64(raw)) { return nil }
        return UInt64(raw)
    }

    /// Whether every integer field but the length holds a value its `expected` range allows.
    func fieldsValid(in bytes: [UInt8], at start: Int) -> Bool {
        for (index, field) in format.fields.enumerated() where index != lengthFieldIndex && field.role != .opaque {
            if let expected = field.expected, !expected.contains(value(ofField: index, in: bytes, at: start)) {
                return false
            }
        }
        return true
    }

    /// Whether the length field's own `expected` range, if any, allows `raw`.
    func lengthValueExpected(_ raw: UInt64) -> Bool {
        format.fields[lengthFieldIndex].expected?.contains(raw) ?? true
    }

    /// The checksum status a decoder must report for the frame at `start` of `length` bytes.
    func checksumOK(in bytes: [UInt8], at start: Int, length: Int) -> Bool? {
        guard let index = checksumFieldIndex, case .checksum(let algorithm, let coverage) = format.fields[index].role else {
            return nil
        }
        let fieldRange = (start + fieldOffsets[index])..<(start + fieldOffsets[index] + 4)
        let covered = coverage == .body ? (start + headerLength)..<(start + length) : start..<(start + length)
        let computed = ReferenceChecksum.checksum(algorithm, of: bytes, range: covered, zeroed: fieldRange)
        return UInt64(computed) == value(ofField: index, in: bytes, at: start)
    }
}
