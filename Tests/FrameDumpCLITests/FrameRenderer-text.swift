@testable import FrameDumpCLI
import FrameCodec

extension FrameRenderer {
    /// The text of rendering `outputs` then `finish` with `summary`.
    mutating func text(_ outputs: [FrameDecoderOutput], summary: DecodeSummary? = nil) -> String {
        var buffer: [UInt8] = []
        for output in outputs { render(output, into: &buffer) }
        if let summary { finish(summary, into: &buffer) }
        return String(decoding: buffer, as: UTF8.self)
    }
}
