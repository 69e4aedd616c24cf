import FrameCodec

/// Turns decoder outputs into bytes for standard output: text for people, or JSON Lines.
///
/// A renderer is made once the format is known (given, or detected from the first bytes) and
/// appends to the caller's buffer; the caller decides when the buffer is written out.
protocol FrameRenderer {
    /// Appends the rendering of one frame or event to `buffer`.
    mutating func render(_ output: FrameDecoderOutput, into buffer: inout [UInt8])
    /// Appends whatever closes the output (a summary for people; nothing for JSON Lines).
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8])
}
