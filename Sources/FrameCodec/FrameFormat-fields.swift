extension FrameFormat {
    /// Reads field `index` of a frame header as an unsigned integer.
    ///
    /// Multi-byte fields are read in their ``HeaderField/byteOrder``; any width from 1 to 8
    /// bytes works (a 3-byte field too). ``HeaderField/Role/opaque`` fields carry no integer and
    /// read as 0. With varint or bit fields (``hasVariableLayout``) the header is walked from
    /// its start; reading every field of a frame is then cheaper with ``fieldValues(in:)``.
    ///
    /// - Parameters:
    ///   - index: the field's index in ``fields``.
    ///   - header: the frame's header bytes, such as ``Frame/header``; any start index.
    /// - Returns: the field's value, zero-extended to 64 bits.
    /// - Precondition: `header` holds the whole field (at least ``offset(ofField:)`` plus the
    ///   field's width bytes). A ``Frame`` from a ``FrameDecoder`` with this format always does.
    public func value(ofField index: Int, in header: ArraySlice<UInt8>) -> UInt64 {
        let field = fields[index]
        guard field.role != .opaque else { return 0 }
        if hasVariableLayout { return fieldValues(in: header)[index] }
        let offset = offset(ofField: index)
        precondition(header.count >= offset + field.width, "header shorter than field \(field.name)")
        return header.withUnsafeBytes { raw in
            raw.baseAddress!.loadInteger(fromByteOffset: offset, width: field.width, byteOrder: field.byteOrder)
        }
    }

    /// Reads every field of a frame header, in ``fields`` order (0 for opaque fields), walking
    /// varints and bit fields.
    ///
    /// - Parameter header: the frame's header bytes, such as ``Frame/header``; any start index.
    /// - Returns: one value per field; fields the header is too short to hold read as 0.
    public func fieldValues(in header: ArraySlice<UInt8>) -> [UInt64] {
        var values = [UInt64](repeating: 0, count: fields.count)
        let steps = FrameLayout.steps(forReading: self)
        header.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            _ = FrameLayout.scan(steps, base, available: raw.count) { index, value in values[index] = value }
        }
        return values
    }

    /// Reads the field called `name` of a frame header, like ``value(ofField:in:)``.
    ///
    /// - Returns: the field's value, or `nil` when the format has no field of that name.
    public func value(ofField name: String, in header: ArraySlice<UInt8>) -> UInt64? {
        guard let index = fields.firstIndex(where: { $0.name == name }) else { return nil }
        return value(ofField: index, in: header)
    }
}

extension UnsafeRawPointer {
    /// Reads an unsigned integer of `width` bytes (1...8) at `offset`, with no alignment
    /// requirement; widths 1, 2, 4 and 8 take a single load.
    @inline(__always)
    func loadInteger(fromByteOffset offset: Int, width: Int, byteOrder: ByteOrder) -> UInt64 {
        let bigEndian = byteOrder == .bigEndian
        switch width {
        case 1:
            return UInt64(load(fromByteOffset: offset, as: UInt8.self))
        case 2:
            let raw = loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            return UInt64(bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
        case 4:
            let raw = loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return UInt64(bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        case 8:
            let raw = loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
        default:
            var value: UInt64 = 0
            for index in 0..<width {
                let byte = UInt64(load(fromByteOffset: offset &+ (bigEndian ? index : width &- 1 &- index), as: UInt8.self))
                value = (value &<< 8) | byte
            }
            return value
        }
    }
}

extension UnsafeRawPointer {
    /// Reads an unsigned integer like ``loadInteger(fromByteOffset:width:byteOrder:)``, with a
    /// single 8-byte load and shifts, whatever the width, when 8 bytes from `offset` are
    /// readable: the decoder's header reads, branch-free on the common path.
    ///
    /// - Parameters:
    ///   - readableCount: bytes readable from `self`.
    @inline(__always)
    func loadInteger(fromByteOffset offset: Int, width: Int, byteOrder: ByteOrder, readableCount: Int) -> UInt64 {
        guard offset &+ 8 <= readableCount else {
            return loadInteger(fromByteOffset: offset, width: width, byteOrder: byteOrder)
        }
        let raw = loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let unused = UInt64(truncatingIfNeeded: 64 &- 8 &* width)
        return byteOrder == .bigEndian
            ? UInt64(bigEndian: raw) &>> unused
            : (UInt64(littleEndian: raw) &<< unused) &>> unused
    }
}

extension UnsafeMutableRawPointer {
    /// Writes the low `width` bytes (1...8) of `value` at `offset` in `byteOrder`.
    func storeInteger(_ value: UInt64, toByteOffset offset: Int, width: Int, byteOrder: ByteOrder) {
        for index in 0..<width {
            let shift = UInt64(8 * (byteOrder == .bigEndian ? width - 1 - index : index))
            storeBytes(of: UInt8(truncatingIfNeeded: value &>> shift), toByteOffset: offset + index, as: UInt8.self)
        }
    }
}
