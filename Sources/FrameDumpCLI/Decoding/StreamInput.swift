/// Identifies one direction's byte stream within an input: 0 for a hex dump's only stream; a
/// capture source numbers each connection's directions densely from 0 in order of appearance.
struct StreamID: Hashable, Sendable {
    var rawValue: Int
}

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

/// Something that produces ``StreamInput`` for the decode pipeline: a hex dump today, a capture
/// file or a live socket later.
protocol StreamSource {
    /// Delivers all of the input, in order, then returns.
    ///
    /// Every stream that received data gets an ``StreamInput/end(_:)`` before this returns.
    ///
    /// - Throws: ``CommandFailure`` when the input cannot be read or parsed (with the location,
    ///   e.g. `file:line:column:`), or whatever `deliver` throws.
    func run(_ deliver: (StreamInput) throws -> Void) throws
}
