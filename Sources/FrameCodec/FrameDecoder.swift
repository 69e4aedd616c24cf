/// CONTRACT STUB — replaced by the real implementation (issue 2). Public shapes are fixed.

/// One decoded frame: header and body bytes, where it sits in the stream, and its checksum status.
public struct Frame: Sendable, Hashable {
    /// Absolute offset of the frame's first header byte in its stream, in bytes.
    public var offset: UInt64
    /// The whole frame, header then body. A zero-copy slice of the decoder's buffer.
    public var bytes: ArraySlice<UInt8>
    /// Header length in bytes.
    public var headerLength: Int
    /// `true`/`false` when the format has a checksum field, `nil` when it has none.
    public var crcOK: Bool?

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

/// What a ``FrameDecoder`` hands back: a frame, or an event that accounts for bytes that are not in one.
///
/// Every byte fed to a decoder ends up in exactly one frame or one event's byte count.
public enum FrameDecoderOutput: Sendable, Hashable {
    case frame(Frame)
    /// Bytes scanned past while looking for a valid header (bad magic, unexpected field value).
    case skip(offset: UInt64, byteCount: UInt64)
    /// A header declared a frame longer than the max frame length (or whose length arithmetic
    /// overflowed or went negative). Accounts for one byte, the header's first; the decoder
    /// resyncs from the next byte. `declaredLength` is the raw length field value.
    case oversize(offset: UInt64, declaredLength: UInt64)
    /// At end of stream, an unfinished frame or header: offset and bytes left.
    case truncated(offset: UInt64, byteCount: UInt64)
    /// Bytes never captured (a hole in the TCP stream). Bytes buffered before the gap that
    /// could not form a frame are reported as `truncated` first; then the decoder resyncs.
    case gap(offset: UInt64, byteCount: UInt64)
}

/// The reassembly buffer: turns one stream's chunks into frames. One instance per TCP direction.
public struct FrameDecoder: Sendable {
    public let format: FrameFormat
    public init(format: FrameFormat, startOffset: UInt64 = 0) { self.format = format }

    /// Appends a chunk and calls `receive` for every frame and event it completes, in stream order.
    public mutating func process(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows { fatalError("stub") }
    /// Convenience for arrays and slices.
    public mutating func process(_ chunk: some Collection<UInt8>, _ receive: (FrameDecoderOutput) throws -> Void) rethrows { fatalError("stub") }
    /// Reports `byteCount` bytes that were never captured at the current stream offset.
    public mutating func noteGap(byteCount: UInt64, _ receive: (FrameDecoderOutput) throws -> Void) rethrows { fatalError("stub") }
    /// End of stream: reports the unfinished tail, if any, as `truncated`.
    public mutating func finish(_ receive: (FrameDecoderOutput) throws -> Void) rethrows { fatalError("stub") }
    /// Total bytes fed so far (the stream offset the next chunk starts at).
    public var streamOffset: UInt64 { fatalError("stub") }
    /// Bytes currently held waiting for the rest of a frame.
    public var bufferedByteCount: Int { fatalError("stub") }
}

extension FrameFormat {
    /// Reads field `index` of a frame header as an unsigned integer (opaque fields read as 0).
    public func value(ofField index: Int, in header: ArraySlice<UInt8>) -> UInt64 { fatalError("stub") }
}
