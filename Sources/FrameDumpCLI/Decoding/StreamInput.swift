import PacketDecoding

/// One step of an input, in the order the source produced it.
///
/// A source describes each stream as data at absolute offsets (bytes from the stream's first
/// byte seen), holes never captured, and an end. This is the whole interface between where bytes
/// come from (a hex dump, a pcap capture, a socket) and the framing and rendering that follow.
enum StreamInput {
    /// `bytes` of `stream`, the first at absolute offset `offset`. The buffer is only valid
    /// during the call that receives it.
    case data(StreamID, offset: UInt64, bytes: UnsafeRawBufferPointer)
    /// `byteCount` bytes of `stream` at `offset` that were never captured.
    case gap(StreamID, offset: UInt64, byteCount: UInt64)
    /// No more input for `stream`.
    case end(StreamID)
    /// Names `stream`'s connection and endpoints for the output; sent before the stream's first
    /// data. Streams never labelled (a hex dump's) are printed without `conn`, `src`, `dst`.
    case label(StreamID, StreamLabel)
    /// The time of the inputs that follow, printed as `ts`: a packet's capture time, or the
    /// wall-clock time a socket read returned.
    case clock(Timestamp)
}
