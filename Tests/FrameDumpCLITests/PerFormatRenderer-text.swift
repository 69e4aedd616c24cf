@testable import FrameDumpCLI
import FrameCodec
import PacketDecoding

/// The two per-format renderers the ``OutputRenderer``s are built from, driven alone.
protocol PerFormatRenderer {
    mutating func render(_ output: FrameDecoderOutput, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8])
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8])
}

extension TextRenderer: PerFormatRenderer {}
extension JSONLinesWriter: PerFormatRenderer {}

extension PerFormatRenderer {
    /// The text of rendering `outputs` (of an unlabelled, untimed stream) then `finish` with `summary`.
    mutating func text(_ outputs: [FrameDecoderOutput], summary: DecodeSummary? = nil) -> String {
        var buffer: [UInt8] = []
        for output in outputs { render(output, label: nil, time: nil, into: &buffer) }
        if let summary { finish(summary, into: &buffer) }
        return String(decoding: buffer, as: UTF8.self)
    }
}
