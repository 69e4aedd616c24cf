/// One decoded frame: header and body bytes, where it sits in the stream, and its checksum status.
///
/// ``bytes`` is a zero-copy slice of the ``FrameDecoder``'s buffer, so its indices are the
/// buffer's, not 0-based: use `bytes.startIndex`, ``header`` and ``body`` rather than `bytes[0]`.
/// Keeping a frame past the `receive` call is fine; the decoder's next append then finds its
/// buffer shared and copies it once (copy-on-write) instead of reusing it in place.
public struct Frame: Sendable, Hashable {
    /// Absolute offset of the frame's first header byte in its stream, in bytes.
    public var offset: UInt64
    /// The whole frame, header then body. A zero-copy slice of the decoder's buffer.
    public var bytes: ArraySlice<UInt8>
    /// Header length in bytes (below 2⁵⁶).
    @inlinable
    public var headerLength: Int {
        get { Int(truncatingIfNeeded: packedLengths & Self.headerMask) }
        set { packedLengths = packedLengths & ~Self.headerMask | UInt64(truncatingIfNeeded: newValue) & Self.headerMask }
    }
    /// Bytes at the end of ``bytes`` that are not payload: a delimiter format's delimiter,
    /// unless the format keeps it (``FrameFormat/keepsDelimiter``); 0 for every other format.
    /// At most 255 (a delimiter is at most 64 bytes).
    @inlinable
    public var trailerLength: Int {
        get { Int(truncatingIfNeeded: packedLengths >> 56) }
        set { packedLengths = packedLengths & Self.headerMask | UInt64(UInt8(clamping: newValue)) << 56 }
    }
    /// The header length in the low 56 bits, the trailer length in the top 8: one word, so a
    /// frame is no larger than before delimiters. One byte more makes the decoder copy and
    /// destroy each frame out of line, ≈ 20 % more instructions per small frame.
    @usableFromInline var packedLengths: UInt64
    @usableFromInline static let headerMask: UInt64 = (1 << 56) - 1
    /// `true`/`false` when the format has a checksum field, `nil` when it has none.
    public var crcOK: Bool?

    /// Creates a frame from its parts; ``FrameDecoder`` makes them, tests and tools may too.
    ///
    /// - Parameters:
    ///   - offset: absolute stream offset of the first header byte.
    ///   - bytes: header then body.
    ///   - headerLength: header bytes at the start of `bytes`.
    ///   - crcOK: the checksum verdict, `nil` for formats without a checksum field.
    ///   - trailerLength: bytes at the end that are not payload (a stripped delimiter); default 0.
    public init(offset: UInt64, bytes: ArraySlice<UInt8>, headerLength: Int, crcOK: Bool?, trailerLength: Int = 0) {
        self.offset = offset
        self.bytes = bytes
        self.packedLengths = UInt64(truncatingIfNeeded: headerLength) & Self.headerMask | UInt64(UInt8(clamping: trailerLength)) << 56
        self.crcOK = crcOK
    }

    /// Header bytes.
    @inlinable
    public var header: ArraySlice<UInt8> { bytes.prefix(headerLength) }
    /// Body bytes: everything after the header, up to the trailer.
    @inlinable
    public var body: ArraySlice<UInt8> { bytes.dropFirst(headerLength).dropLast(trailerLength) }

    /// The payload shown to a user: from `payloadOffset` bytes into the frame (the format's
    /// ``FrameFormat/payloadOffset``; `nil` means right after the header) up to the trailer.
    ///
    /// - Parameter payloadOffset: bytes from the frame start; beyond the end gives an empty payload.
    /// - Returns: a slice of ``bytes``.
    @inlinable
    public func payload(from payloadOffset: Int?) -> ArraySlice<UInt8> {
        let end = bytes.endIndex - Swift.min(trailerLength, bytes.count)
        let start = Swift.min(bytes.startIndex + Swift.min(payloadOffset ?? headerLength, bytes.count), end)
        return bytes[start..<end]
    }
}
