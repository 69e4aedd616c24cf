/// Raw DEFLATE decompression (RFC 1951) for permessage-deflate (RFC 7692 §7.2.2), supplied by the
/// embedder so this module stays standard-library only (the CLI's is zlib's `inflate` with
/// `windowBits` -15).
///
/// Implementer notes: the inflater keeps its LZ77 window across calls (context takeover,
/// RFC 7692 §7.1.1) until ``reset()``; it must never hold more than `maxOutput` bytes of output at
/// once, whatever the input says (a "deflate bomb" inflates 1 KiB to 1 MiB).
public protocol WebSocketInflater: AnyObject {
    /// Inflates the next compressed bytes of the current message.
    ///
    /// - Parameters:
    ///   - input: Compressed bytes; read during the call only.
    ///   - chunkLimit: At most this many bytes are passed to `output` at a time.
    ///   - output: Receives the inflated bytes in order, each chunk valid during its call only.
    /// - Throws: ``WebSocketInflateError`` when the input is not valid DEFLATE data; what `output` throws.
    func inflate(_ input: UnsafeRawBufferPointer, chunkLimit: Int, _ output: (UnsafeRawBufferPointer) throws -> Void) throws

    /// Forgets the window (`*_no_context_takeover`, or after an error): the next message starts afresh.
    func reset()
}

/// The input of a ``WebSocketInflater`` is not valid DEFLATE data (zlib's `Z_DATA_ERROR`).
public struct WebSocketInflateError: Error, Sendable, Equatable {
    /// What the inflater said (zlib's `msg`), for the event.
    public var message: String

    /// - Parameter message: What the inflater said.
    public init(message: String) { self.message = message }
}
