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
    /// Header length in bytes.
    public var headerLength: Int
    /// `true`/`false` when the format has a checksum field, `nil` when it has none.
    public var crcOK: Bool?

    /// Creates a frame from its parts; ``FrameDecoder`` makes them, tests and tools may too.
    ///
    /// - Parameters:
    ///   - offset: absolute stream offset of the first header byte.
    ///   - bytes: header then body.
    ///   - headerLength: header bytes at the start of `bytes`.
    ///   - crcOK: the checksum verdict, `nil` for formats without a checksum field.
    public init(offset: UInt64, bytes: ArraySlice<UInt8>, headerLength: Int, crcOK: Bool?) {
        self.offset = offset
        self.bytes = bytes
        self.headerLength = headerLength
        self.crcOK = crcOK
    }

    /// Header bytes.
    public var header: ArraySlice<UInt8> { bytes.prefix(headerLength) }
    /// Body bytes (everything after the header).
    public var body: ArraySlice<UInt8> { bytes.dropFirst(headerLength) }
}
