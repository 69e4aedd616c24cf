/// One decoded frame: header and body bytes, where it sits in the stream, and its checksum status.
///
/// ``bytes`` is a zero-copy slice of the ``FrameDecoder``'s buffer, so its indices are the
/// buffer's, not 0-based: use `bytes.startIndex`, ``header`` and ``body`` rather than `bytes[0]`.
/// Keeping a frame past the `receive` call is fine; the decoder's next append then finds its
/// buffer shared and copies it once (copy-on-write) instead of reusing it in place.
///
/// ### A frame without its body
/// A decoder told to hold headers only (``FrameDecoder/BodyRetention/headersOnly``) hands out
/// every frame of a length-field format with its header alone: ``holdsBody`` is `false`,
/// ``bytes`` and ``header`` are the header, ``body`` and ``payload(from:)`` are empty (or the
/// part of the header past the payload offset, when that lies in the header), and
/// ``droppedByteCount`` says how many bytes of the frame were checksummed and passed over.
/// ``length`` and ``payloadLength(from:)`` are the frame's sizes in the stream either way. The
/// header is a copy in a small array the decoder reuses for the next frame (or, for a frame
/// that spanned chunks, a slice of its buffer); keeping the frame makes it allocate another.
public struct Frame: Sendable, Hashable {
    /// Absolute offset of the frame's first header byte in its stream, in bytes.
    public var offset: UInt64
    /// The whole frame, header then body. A zero-copy slice of the decoder's buffer.
    public var bytes: ArraySlice<UInt8>
    /// Header length in bytes (below 2⁵⁶). A frame that does not hold its body holds exactly its
    /// header, so there it is `bytes.count`, and setting it changes nothing.
    @inlinable
    public var headerLength: Int {
        get { holdsBody ? Int(truncatingIfNeeded: packedLengths & Self.headerMask) : bytes.count }
        set {
            guard holdsBody else { return }
            packedLengths = packedLengths & ~Self.headerMask | UInt64(truncatingIfNeeded: newValue) & Self.headerMask
        }
    }
    /// Bytes at the end of the frame that are not payload: a delimiter format's delimiter,
    /// unless the format keeps it (``FrameFormat/keepsDelimiter``); 0 for every other format.
    /// At most 127 (a delimiter is at most 64 bytes).
    @inlinable
    public var trailerLength: Int {
        get { Int(truncatingIfNeeded: packedLengths >> 56 & Self.trailerMask) }
        set {
            let clamped = UInt64(truncatingIfNeeded: Swift.min(Swift.max(newValue, 0), Int(Self.trailerMask)))
            packedLengths = packedLengths & ~(Self.trailerMask << 56) | clamped << 56
        }
    }
    /// Whether ``bytes`` holds the whole frame (`true`, always so unless its decoder holds
    /// headers only) or only its header, the rest counted in ``droppedByteCount``.
    @inlinable
    public var holdsBody: Bool { packedLengths & Self.droppedFlag == 0 }
    /// Bytes of the frame after its header that were checksummed and passed over rather than
    /// held; 0 when the frame ``holdsBody``.
    @inlinable
    public var droppedByteCount: Int {
        holdsBody ? 0 : Int(truncatingIfNeeded: packedLengths & Self.headerMask)
    }
    /// The frame's length in the stream, in bytes: header, body and trailer, held or not.
    @inlinable
    public var length: Int { bytes.count &+ droppedByteCount }
    /// The low 56 bits: the header length, or, when the top bit is set, the bytes dropped (the
    /// header is then `bytes`); bits 56–62: the trailer length. One word, so a frame is no larger
    /// than before delimiters and dropped bodies. One byte more makes the decoder copy and destroy
    /// each frame out of line, ≈ 20 % more instructions per small frame.
    @usableFromInline var packedLengths: UInt64
    @usableFromInline static let headerMask: UInt64 = (1 << 56) - 1
    @usableFromInline static let trailerMask: UInt64 = 0x7F
    @usableFromInline static let droppedFlag: UInt64 = 1 << 63
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
        self.packedLengths = UInt64(truncatingIfNeeded: headerLength) & Self.headerMask
        self.crcOK = crcOK
        self.trailerLength = trailerLength
    }

    /// Creates a frame that holds its header but not the rest of its bytes, as a decoder with
    /// ``FrameDecoder/BodyRetention/headersOnly`` hands out a frame of a length-field format.
    ///
    /// - Parameters:
    ///   - offset: absolute stream offset of the first header byte.
    ///   - header: the frame's whole header, and nothing after it.
    ///   - droppedByteCount: the frame's bytes after its header, not held (below 2⁵⁶).
    ///   - crcOK: the checksum verdict, computed over every byte, `nil` for formats without a
    ///     checksum field.
    public init(offset: UInt64, header: ArraySlice<UInt8>, droppedByteCount: Int, crcOK: Bool?) {
        self.offset = offset
        self.bytes = header
        self.packedLengths = UInt64(truncatingIfNeeded: droppedByteCount) & Self.headerMask | Self.droppedFlag
        self.crcOK = crcOK
    }

    /// Header bytes (all of ``bytes`` for a frame that does not hold its body).
    @inlinable
    public var header: ArraySlice<UInt8> { bytes.prefix(headerLength) }
    /// Body bytes: everything after the header, up to the trailer; empty for a frame that does
    /// not hold its body.
    @inlinable
    public var body: ArraySlice<UInt8> { bytes.dropFirst(headerLength).dropLast(trailerLength) }

    /// The payload shown to a user: from `payloadOffset` bytes into the frame (the format's
    /// ``FrameFormat/payloadOffset``; `nil` means right after the header) up to the trailer.
    ///
    /// - Parameter payloadOffset: bytes from the frame start; beyond the end gives an empty payload.
    /// - Returns: a slice of ``bytes``: for a frame that does not hold its body, the held bytes
    ///   past `payloadOffset` (empty unless the payload starts inside the header).
    @inlinable
    public func payload(from payloadOffset: Int?) -> ArraySlice<UInt8> {
        let end = bytes.endIndex - Swift.min(trailerLength, bytes.count)
        let start = Swift.min(bytes.startIndex + Swift.min(payloadOffset ?? headerLength, bytes.count), end)
        return bytes[start..<end]
    }

    /// The length of the payload ``payload(from:)`` gives, counted in the stream: for a frame that
    /// does not hold its body, the length the payload had, held or not.
    ///
    /// - Parameter payloadOffset: bytes from the frame start (`nil`: right after the header).
    /// - Returns: the payload's length in bytes, 0 when it starts at or past the trailer.
    @inlinable
    public func payloadLength(from payloadOffset: Int?) -> Int {
        let length = self.length
        let end = length - Swift.min(trailerLength, length)
        return end - Swift.min(Swift.min(payloadOffset ?? headerLength, length), end)
    }
}
