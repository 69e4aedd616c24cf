/// Why a ``FrameEncoder`` could not build a frame.
public enum FrameEncoderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field name given that the format does not have.
    case unknownField(String)
    /// A value that does not fit its field: `width` is the field's width in bytes (0 for an
    /// opaque field, which carries no integer and only accepts 0).
    case valueTooWide(field: String, value: UInt64, width: Int)
    /// The frame would be longer than the format's max frame length: `length` is the body's
    /// length, `max` the longest body that fits, both in bytes.
    case bodyTooLong(length: Int, max: Int)
    /// The length field cannot hold the value a frame of `frameLength` bytes needs: after the
    /// format's length adjustment it is negative or wider than the field.
    case lengthNotRepresentable(frameLength: Int)
    /// A delimiter format's body holds a delimiter (or the start of one the frame's delimiter
    /// completes) at `offset`: the frame would end there.
    case bodyContainsDelimiter(offset: Int)

    /// What is wrong, in words, naming the field or the lengths in bytes.
    public var description: String {
        switch self {
        case .unknownField(let name):
            "the format has no field named '\(name)'"
        case .valueTooWide(let field, let value, let width) where width == 0:
            "field '\(field)' is opaque and carries no value, but \(value) was given"
        case .valueTooWide(let field, let value, let width):
            "value \(value) does not fit in the \(width)-byte field '\(field)'"
        case .bodyTooLong(let length, let max):
            "a body of \(length) bytes is longer than the \(max) bytes the max frame length leaves"
        case .lengthNotRepresentable(let frameLength):
            "the length field cannot describe a frame of \(frameLength) bytes"
        case .bodyContainsDelimiter(let offset):
            "the body holds a delimiter at byte \(offset), where the frame would end"
        }
    }
}

/// Builds frames in a ``FrameFormat``: the inverse of ``FrameDecoder``.
///
/// Fields are given by name; those left out are filled in: the length field from the body's
/// length (per ``FrameFormat/lengthCounts`` and ``FrameFormat/lengthAdjustment``; with several
/// length fields, the last one not given, the others taking their lowest allowed value — give
/// Mars's `head_length` yourself), the checksum
/// field by computing the checksum, a field with an ``HeaderField/expected`` range with its
/// lowest allowed value (the magic for a single-valued one), and any other field with 0. Opaque
/// fields are zero bytes. Varints are written in their shortest form; a delimiter format's
/// frame is the body followed by its first delimiter.
///
/// A length or checksum given explicitly is written as given, so tests can craft frames with a
/// wrong length or a bad checksum; likewise given values are not checked against `expected`.
///
/// ```
/// let encoder = FrameEncoder(format: .h12)
/// let frame = try encoder.encode(fields: ["cmd": 7], body: [0xAA, 0xBB])
/// // 55 AA 00 07 00 00 00 02 <crc32 of AA BB, big-endian> AA BB
/// ```
public struct FrameEncoder: Sendable {
    /// The layout frames are built in.
    public let format: FrameFormat

    private let layout: FrameLayout

    /// Creates an encoder; the field layout is precomputed once here.
    ///
    /// - Parameters:
    ///   - format: the frame layout.
    public init(format: FrameFormat) {
        self.format = format
        self.layout = FrameLayout(format)
    }

    /// Encodes one frame.
    ///
    /// - Parameters:
    ///   - fields: header field values by name; missing ones are filled in (see ``FrameEncoder``).
    ///   - body: the body bytes.
    /// - Returns: the frame, header then body.
    /// - Throws: ``FrameEncoderError`` for an unknown field name, a value too wide for its
    ///   field, a frame longer than ``FrameFormat/maxFrameLength``, or a length the length field
    ///   cannot express.
    public func encode(fields: [String: UInt64] = [:], body: some Collection<UInt8>) throws(FrameEncoderError) -> [UInt8] {
        var frame: [UInt8] = []
        try encode(fields: fields, body: body, into: &frame)
        return frame
    }

    /// Appends one encoded frame to `buffer`; on error `buffer` is left unchanged.
    ///
    /// - Parameters:
    ///   - fields: header field values by name; missing ones are filled in (see ``FrameEncoder``).
    ///   - body: the body bytes.
    ///   - buffer: the frame is appended to it.
    /// - Throws: as ``encode(fields:body:)``.
    public func encode(fields: [String: UInt64] = [:], body: some Collection<UInt8>, into buffer: inout [UInt8]) throws(FrameEncoderError) {
        if let unknown = fields.keys.sorted().first(where: { name in !format.fields.contains { $0.name == name } }) {
            throw .unknownField(unknown)
        }
        if let delimiters = layout.delimiters {
            return try encodeDelimited(body: body, delimiters, into: &buffer)
        }
        let bodyLength = body.count
        var values: [UInt64] = []
        values.reserveCapacity(format.fields.count)
        var computesChecksum = false
        // The length field the encoder computes: the last one not given.
        let computed = format.fields.indices.last { format.fields[$0].role == .length && fields[format.fields[$0].name] == nil }
        for (index, field) in format.fields.enumerated() {
            let given = fields[field.name]
            if case .checksum = field.role, given == nil { computesChecksum = true }
            let value = given ?? (index == computed ? 0 : Self.defaultValue(of: field))
            guard field.role != .opaque || value == 0 else {
                throw .valueTooWide(field: field.name, value: value, width: 0)
            }
            guard field.role == .opaque || Self.fits(value, field) else {
                throw .valueTooWide(field: field.name, value: value, width: field.width)
            }
            values.append(value)
        }
        var headerLength = Self.headerLength(format.fields, values)
        guard bodyLength <= format.maxFrameLength - headerLength else {
            throw .bodyTooLong(length: bodyLength, max: Swift.max(format.maxFrameLength - headerLength, 0))
        }
        if let computed {
            // A varint length's own size moves the header length, and with it the value: settle
            // both (the size only grows with the value, so this ends within ten rounds).
            for _ in 0...FrameFormat.maxVarintWidth {
                values[computed] = try lengthValue(for: computed, values: values, frameLength: headerLength + bodyLength, bodyLength: bodyLength)
                let settled = Self.headerLength(format.fields, values)
                if settled == headerLength { break }
                headerLength = settled
            }
        }
        let maxBodyLength = format.maxFrameLength - headerLength
        guard bodyLength <= maxBodyLength else {
            throw .bodyTooLong(length: bodyLength, max: Swift.max(maxBodyLength, 0))
        }
        let frameLength = headerLength + bodyLength

        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: headerLength))
        buffer.append(contentsOf: body)
        buffer.withUnsafeMutableBytes { raw in
            let frame = raw.baseAddress! + start
            var offset = 0
            var bitOffset = 0
            var checksumOffset = 0
            for (field, value) in zip(format.fields, values) {
                switch field.encoding {
                case .fixed:
                    if case .checksum = field.role { checksumOffset = offset }
                    if field.role != .opaque {
                        frame.storeInteger(value, toByteOffset: offset, width: field.width, byteOrder: field.byteOrder)
                    }
                    offset += field.width
                case .varint:
                    offset += Self.storeVarint(value, at: frame + offset)
                case .bits(let count):
                    Self.storeBits(value, count: count, at: frame + offset, from: bitOffset)
                    bitOffset += count
                    offset += bitOffset / 8
                    bitOffset %= 8
                }
            }
            guard computesChecksum, let checksum = layout.checksum else { return }
            // The field still holds zeros, which is what header-and-body coverage reads it as.
            let covered = checksum.coverage == .body ? headerLength : 0
            let crc = checksum.tables.update(0, UnsafeRawBufferPointer(start: frame + covered, count: frameLength - covered))
            frame.storeInteger(UInt64(crc), toByteOffset: checksumOffset, width: FrameLayout.Checksum.width, byteOrder: checksum.byteOrder)
        }
    }

    /// The value written for a field that is not given and not the computed length: the
    /// lowest allowed (a magic's value; 0 without an expected range); the checksum's is a placeholder 0.
    private static func defaultValue(of field: HeaderField) -> UInt64 {
        switch field.role {
        case .checksum, .opaque: 0
        case .value, .length: field.expected?.lowerBound ?? 0
        }
    }

    /// The computed length field's value: what makes the declared length (over all length
    /// fields, with their multipliers, and the adjustment) describe a frame of `frameLength` bytes.
    private func lengthValue(for index: Int, values: [UInt64], frameLength: Int, bodyLength: Int) throws(FrameEncoderError) -> UInt64 {
        let field = format.fields[index]
        let counted = Int64(format.lengthCounts == .body ? bodyLength : frameLength)
        var (rest, overflow) = counted.subtractingReportingOverflow(format.lengthAdjustment)
        for (other, otherField) in format.fields.enumerated() where other != index && otherField.role == .length {
            let (product, productOverflow) = values[other].multipliedReportingOverflow(by: otherField.lengthMultiplier)
            guard !overflow, !productOverflow, product <= UInt64(Int64.max) else { throw .lengthNotRepresentable(frameLength: frameLength) }
            (rest, overflow) = rest.subtractingReportingOverflow(Int64(product))
        }
        guard !overflow, rest >= 0, UInt64(rest) % field.lengthMultiplier == 0 else {
            throw .lengthNotRepresentable(frameLength: frameLength)
        }
        let value = UInt64(rest) / field.lengthMultiplier
        guard Self.fits(value, field) else { throw .lengthNotRepresentable(frameLength: frameLength) }
        return value
    }

    /// Whether `value` fits `field`: its bytes, its varint groups or its bits.
    private static func fits(_ value: UInt64, _ field: HeaderField) -> Bool {
        let bits = switch field.encoding {
        case .fixed: 8 * field.width
        case .varint: 7 * field.width
        case .bits(let count): count
        }
        return bits >= 64 || value >> UInt64(bits) == 0
    }

    /// Header bytes for these values: varints at their minimal size.
    private static func headerLength(_ fields: [HeaderField], _ values: [UInt64]) -> Int {
        var bits = 0
        var bytes = 0
        for (field, value) in zip(fields, values) {
            switch field.encoding {
            case .fixed: bytes += field.width
            case .varint: bytes += FrameLayout.varintLength(value)
            case .bits(let count): bits += count
            }
        }
        return bytes + bits / 8
    }

    /// Writes `value` as a minimal LEB128 varint at `pointer`; returns its length in bytes.
    private static func storeVarint(_ value: UInt64, at pointer: UnsafeMutableRawPointer) -> Int {
        var rest = value
        var index = 0
        while rest >= 0x80 {
            pointer.storeBytes(of: UInt8(truncatingIfNeeded: rest) | 0x80, toByteOffset: index, as: UInt8.self)
            rest >>= 7
            index += 1
        }
        pointer.storeBytes(of: UInt8(rest), toByteOffset: index, as: UInt8.self)
        return index + 1
    }

    /// Writes the low `count` bits of `value`, most significant first, `from` bits into `pointer`.
    private static func storeBits(_ value: UInt64, count: Int, at pointer: UnsafeMutableRawPointer, from: Int) {
        for bit in 0..<count where (value >> UInt64(count - 1 - bit)) & 1 == 1 {
            let position = from + bit
            let byte = pointer.load(fromByteOffset: position / 8, as: UInt8.self)
            pointer.storeBytes(of: byte | UInt8(0x80 >> (position % 8)), toByteOffset: position / 8, as: UInt8.self)
        }
    }

    /// A delimiter format's frame: the body, then the first delimiter. The body must not hold
    /// a delimiter that would end the frame sooner (nor a start of one that the appended
    /// delimiter completes), or the frame would not decode back to it.
    private func encodeDelimited(body: some Collection<UInt8>, _ delimiters: DelimiterSet, into buffer: inout [UInt8]) throws(FrameEncoderError) {
        let bodyLength = body.count
        guard bodyLength <= format.maxFrameLength else {
            throw .bodyTooLong(length: bodyLength, max: format.maxFrameLength)
        }
        var frame = Array(body)
        frame.append(contentsOf: delimiters.delimiters[0])
        var examined = 0
        let scan = frame.withUnsafeBytes { delimiters.scan($0.baseAddress!, from: 0, end: $0.count, examined: &examined) }
        guard case .found(let match) = scan, match.start == bodyLength, match.length == delimiters.delimiters[0].count else {
            let at = if case .found(let match) = scan { match.start } else { bodyLength }
            throw .bodyContainsDelimiter(offset: at)
        }
        buffer.append(contentsOf: frame)
    }
}
