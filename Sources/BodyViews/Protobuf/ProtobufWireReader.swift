/// Reads protobuf's wire encoding (https://protobuf.dev/programming-guides/encoding/) from raw
/// bytes: varints, tags, fixed-width little-endian numbers and length prefixes, each bounds-
/// checked; offsets are counted from the start of ``bytes``.
///
/// A value type over borrowed memory: the caller keeps the buffer alive while reading.
public struct ProtobufWireReader {
    /// The bytes being read.
    public let bytes: UnsafeRawBufferPointer
    /// The next byte to read, as an offset into ``bytes``.
    public var position: Int
    /// Where reading stops: the end of ``bytes`` or of an enclosing length-delimited field.
    public var end: Int

    /// A reader over all of `bytes`.
    ///
    /// - Parameter bytes: the encoded message; must stay valid while the reader is used.
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        position = 0
        end = bytes.count
    }

    /// Whether every byte up to ``end`` has been read.
    @inlinable
    public var isAtEnd: Bool { position >= end }

    /// A base-128 varint of up to 10 bytes, low group first; bits past 64 are dropped, as
    /// protobuf's parsers do.
    ///
    /// - Throws: ``BodyViewError`` for a varint running past ``end`` or longer than 10 bytes.
    @inlinable
    public mutating func readVarint() throws(BodyViewError) -> UInt64 {
        // One byte: every tag of fields 1-15 and most small values.
        if position < end, bytes[position] < 0x80 {
            position &+= 1
            return UInt64(bytes[position &- 1])
        }
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw BodyViewError(offset: start, .truncatedVarint) }
            let byte = bytes[position]
            position &+= 1
            if shift < 64 { result |= UInt64(byte & 0x7F) &<< shift }
            if byte & 0x80 == 0 { return result }
            shift &+= 7
            guard shift < 70 else { throw BodyViewError(offset: start, .varintTooLong) }
        }
    }

    /// A field tag: its field number (1 … 2²⁹−1) and wire type.
    ///
    /// - Throws: ``BodyViewError`` for a truncated tag, field number 0, or wire type 6 or 7.
    @inlinable
    public mutating func readTag() throws(BodyViewError) -> (number: UInt32, wireType: ProtobufWireType) {
        let start = position
        // A tag is a varint32: protobuf's parsers keep its low 32 bits.
        let tag = UInt32(truncatingIfNeeded: try readVarint())
        guard let wireType = ProtobufWireType(rawValue: UInt8(tag & 7)) else {
            throw BodyViewError(offset: start, .wireType(tag & 7))
        }
        let number = tag >> 3
        guard number != 0 else { throw BodyViewError(offset: start, .fieldNumberZero) }
        return (number, wireType)
    }

    /// 4 bytes little-endian.
    ///
    /// - Throws: ``BodyViewError`` when fewer than 4 bytes are left.
    @inlinable
    public mutating func readFixed32() throws(BodyViewError) -> UInt32 {
        guard end &- position >= 4 else { throw BodyViewError(offset: position, .truncatedFixed32) }
        let value = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        position &+= 4
        return value
    }

    /// 8 bytes little-endian.
    ///
    /// - Throws: ``BodyViewError`` when fewer than 8 bytes are left.
    @inlinable
    public mutating func readFixed64() throws(BodyViewError) -> UInt64 {
        guard end &- position >= 8 else { throw BodyViewError(offset: position, .truncatedFixed64) }
        let value = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
        position &+= 8
        return value
    }

    /// A length prefix and the bytes it covers, which the reader steps over.
    ///
    /// - Returns: the covered bytes as a range of offsets into ``bytes``.
    /// - Throws: ``BodyViewError`` when the length runs past ``end``.
    @inlinable
    public mutating func readLengthDelimited() throws(BodyViewError) -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end &- position) else {
            throw BodyViewError(offset: start, .lengthPastEnd(length: length, left: end &- position))
        }
        let range = position..<position &+ Int(length)
        position = range.upperBound
        return range
    }

    /// Steps over one field's value of `wireType` (a group up to its matching end tag).
    ///
    /// - Parameters:
    ///   - number: the field's number (a group's end tag must repeat it).
    ///   - depthLeft: how many more groups may nest inside this one.
    /// - Throws: ``BodyViewError`` for a value that does not fit, an unmatched group end, or
    ///   groups nested deeper than `depthLeft`.
    @inlinable
    public mutating func skipValue(number: UInt32, wireType: ProtobufWireType, depthLeft: Int) throws(BodyViewError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .i64: _ = try readFixed64()
        case .i32: _ = try readFixed32()
        case .len: _ = try readLengthDelimited()
        case .endGroup: throw BodyViewError(offset: position, .groupEndWithoutStart)
        case .startGroup: try skipGroup(number: number, depthLeft: depthLeft)
        }
    }

    /// Steps over a group's fields and its end tag.
    ///
    /// - Throws: as ``skipValue(number:wireType:depthLeft:)``.
    @inlinable
    public mutating func skipGroup(number: UInt32, depthLeft: Int) throws(BodyViewError) {
        let start = position
        guard depthLeft > 0 else { throw BodyViewError(offset: start, .groupsTooDeep) }
        while !isAtEnd {
            let tagStart = position
            let tag = try readTag()
            if tag.wireType == .endGroup {
                guard tag.number == number else {
                    throw BodyViewError(offset: tagStart, .groupClosedByAnother(open: number, closed: tag.number))
                }
                return
            }
            try skipValue(number: tag.number, wireType: tag.wireType, depthLeft: depthLeft - 1)
        }
        throw BodyViewError(offset: start, .groupNotClosed(number))
    }
}
