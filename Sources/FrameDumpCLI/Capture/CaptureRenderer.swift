import FrameCodec
import PacketDecoding

/// Renders what decoding a capture produces: frames and events of any number of streams (each
/// with its ``StreamLabel`` and the capture time of the packet that completed it), capture-level
/// events, and the `--summary` totals.
///
/// A capture may carry several frame formats (each direction's is detected on its own), so a
/// capture renderer holds one ``FrameRenderer`` per format, registered with ``add(_:)``.
/// Implemented by ``CaptureJSONRenderer`` (JSON Lines) and ``CaptureTextRenderer`` (people).
protocol CaptureRenderer {
    /// Registers a frame format; returns the index to render its frames with.
    mutating func add(_ format: FrameFormat) -> Int

    /// Appends one frame or event of a stream.
    ///
    /// - Parameters:
    ///   - output: The decoder output.
    ///   - format: The stream's format, as returned by ``add(_:)``.
    ///   - label: The stream's connection, direction and endpoints.
    ///   - time: The capture time of the packet that completed the output.
    mutating func render(_ output: FrameDecoderOutput, format: Int, label: StreamLabel, time: Timestamp,
                         into buffer: inout [UInt8])

    /// Appends a limit being reached (a ``ReassemblyLimits`` bound, or `--max-buffered`), at
    /// capture time `time`, for the stream `label` names (for the connection limit: its client
    /// to server direction).
    mutating func renderLimit(_ limit: DecodeLimit, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8])

    /// Appends a packet that could not be decoded: its number in the capture (from 1), capture
    /// time, why, and the byte offset in the packet where decoding stopped.
    mutating func renderMalformedPacket(number: Int, time: Timestamp, reason: MalformedReason, offset: Int,
                                        into buffer: inout [UInt8])

    /// Appends an incomplete IP datagram that was given up.
    mutating func renderFragmentsDropped(_ drop: IPDefragmenter.Drop, time: Timestamp, into buffer: inout [UInt8])

    /// Appends one connection's `--summary` totals.
    mutating func renderTotals(_ totals: ConnectionTotals, into buffer: inout [UInt8])

    /// Appends whatever closes the output (text: the line of overall counts).
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8])
}

