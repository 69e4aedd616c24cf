import FrameCodec
import PacketDecoding

/// Turns decoder outputs into bytes for standard output: text for people, or JSON Lines.
///
/// A renderer is made once the format is known (given, or detected from the first bytes) and
/// appends to the caller's buffer; the caller decides when the buffer is written out.
protocol FrameRenderer {
    /// Appends the rendering of one frame or event to `buffer`.
    ///
    /// - Parameters:
    ///   - output: the frame or event.
    ///   - label: the connection and direction of its stream, `nil` for an unlabelled stream
    ///     (a hex dump).
    ///   - time: when it completed (capture or wall-clock time), `nil` when unknown.
    ///   - buffer: where the rendering is appended.
    mutating func render(_ output: FrameDecoderOutput, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8])
    /// Appends whatever closes the output (a summary for people; nothing for JSON Lines).
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8])
}

extension FrameRenderer {
    /// Appends the rendering of an output of an unlabelled, untimed stream (a hex dump).
    mutating func render(_ output: FrameDecoderOutput, into buffer: inout [UInt8]) {
        render(output, label: nil, time: nil, into: &buffer)
    }
}
