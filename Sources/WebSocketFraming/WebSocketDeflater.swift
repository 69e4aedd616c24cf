/// Raw DEFLATE compression (RFC 1951) for permessage-deflate (RFC 7692 §7.2.1), supplied by the
/// embedder so this module stays standard-library only (the CLI's is zlib's `deflate` with
/// `windowBits` -15): the counterpart of ``WebSocketInflater`` for tools that write traffic.
///
/// Implementer notes: each call compresses its input and flushes to a byte boundary (zlib's
/// `Z_SYNC_FLUSH`), so its output ends with the empty stored block `00 00 ff ff` (none when the
/// call had no input and the last one already flushed); the LZ77 window is kept across calls
/// (context takeover, RFC 7692 §7.1.1) until ``reset()``.
public protocol WebSocketDeflater: AnyObject {
    /// Compresses the next bytes of the current message and flushes.
    ///
    /// - Parameter input: Uncompressed bytes.
    /// - Returns: The compressed bytes, ending with `00 00 ff ff` as above.
    /// - Throws: Whatever the compressor reports (zlib out of memory).
    func deflate(_ input: [UInt8]) throws -> [UInt8]

    /// Forgets the window (`*_no_context_takeover`): the next message is compressed afresh.
    func reset()
}
