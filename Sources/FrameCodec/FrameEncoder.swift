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
        }
    }
}

/// Builds frames in a ``FrameFormat``: the inverse of ``FrameDecoder``.
///
/// Fields are given by name; those left out are filled in: the length field from the body's
/// length (per ``FrameFormat/lengthCounts`` and ``FrameFormat/lengthAdjustment``), the checksum
/// field by computing the checksum, a field with an ``HeaderField/expected`` range with its
/// lowest allowed value (the magic for a single-valued one), and any other field with 0. Opaque
/// fields are zero bytes.
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
        let bodyLength = body.count
        let maxBodyLength = format.maxFrameLength - layout.headerLength
        guard bodyLength <= maxBodyLength else {
            throw .bodyTooLong(length: bodyLength, max: Swift.max(maxBodyLength, 0))
        }
        let frameLength = layout.headerLength + bodyLength
        var values: [UInt64] = []
        values.reserveCapacity(format.fields.count)
        var computesChecksum = false
        for field in format.fields {
            let given = fields[field.name]
            if case .checksum = field.role, given == nil { computesChecksum = true }
            let value = if let given { given } else {
                try defaultValue(of: field, frameLength: frameLength, bodyLength: bodyLength)
            }
            guard field.role != .opaque || value == 0 else {
                throw .valueTooWide(field: field.name, value: value, width: 0)
            }
            guard field.role == .opaque || field.width == 8 || value >> UInt64(8 * field.width) == 0 else {
                throw .valueTooWide(field: field.name, value: value, width: field.width)
            }
            values.append(value)
        }

        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: layout.headerLength))
        buffer.append(contentsOf: body)
        buffer.withUnsafeMutableBytes { raw in
            let frame = raw.baseAddress! + start
            var offset = 0
            for (field, value) in zip(format.fields, values) {
                if field.role != .opaque {
                    frame.storeInteger(value, toByteOffset: offset, width: field.width, byteOrder: field.byteOrder)
                }
                offset += field.width
            }
            guard computesChecksum, let checksum = layout.checksum else { return }
            // The field still holds zeros, which is what header-and-body coverage reads it as.
            let covered = checksum.coverage == .body ? layout.headerLength : 0
            let crc = checksum.tables.update(0, UnsafeRawBufferPointer(start: frame + covered, count: frameLength - covered))
            frame.storeInteger(UInt64(crc), toByteOffset: checksum.offset, width: FrameLayout.Checksum.width, byteOrder: checksum.byteOrder)
        }
    }

    /// The value written for `field` when none is given; the checksum's is a placeholder 0.
    private func defaultValue(of field: HeaderField, frameLength: Int, bodyLength: Int) throws(FrameEncoderError) -> UInt64 {
        switch field.role {
        case .length:
            let counted = Int64(format.lengthCounts == .body ? bodyLength : frameLength)
            let (value, overflow) = counted.subtractingReportingOverflow(format.lengthAdjustment)
            guard !overflow, value >= 0, field.width == 8 || UInt64(value) >> UInt64(8 * field.width) == 0 else {
                throw .lengthNotRepresentable(frameLength: frameLength)
            }
            return UInt64(value)
        case .checksum, .opaque:
            return 0
        case .value:
            return field.expected?.lowerBound ?? 0
        }
    }
}
