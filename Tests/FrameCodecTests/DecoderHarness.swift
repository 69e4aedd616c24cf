import Testing
import TestSupport
@testable import FrameCodec

/// Everything a decoder outputs for `chunks`, then `finish`.
///
/// Each chunk goes in both ways the decoder takes bytes, which must give the same outputs: as
/// an array (framed in place when the decoder holds nothing) and through a raw buffer pointer
/// (always appended), as captures feed it. A difference is recorded as a failed expectation.
/// `runningChecksumMinimum`, when given, replaces the decoders' threshold for running a
/// frame's checksum forward chunk by chunk; `bodyRetention` is the decoders'.
func decodeAll(
    _ format: FrameFormat,
    _ chunks: [[UInt8]],
    startOffset: UInt64 = 0,
    finish: Bool = true,
    runningChecksumMinimum: Int? = nil,
    bodyRetention: FrameDecoder.BodyRetention = .always
) -> [FrameDecoderOutput] {
    var fromArrays = FrameDecoder(format: format, startOffset: startOffset, bodyRetention: bodyRetention)
    var fromPointers = FrameDecoder(format: format, startOffset: startOffset, bodyRetention: bodyRetention)
    if let runningChecksumMinimum {
        fromArrays.runningChecksumMinimum = runningChecksumMinimum
        fromPointers.runningChecksumMinimum = runningChecksumMinimum
    }
    var outputs: [FrameDecoderOutput] = []
    var pointerOutputs: [FrameDecoderOutput] = []
    for chunk in chunks {
        fromArrays.process(chunk) { outputs.append($0) }
        chunk.withUnsafeBytes { bytes in fromPointers.process(bytes) { pointerOutputs.append($0) } }
        #expect(fromArrays.bufferedByteCount == fromPointers.bufferedByteCount)
    }
    if finish {
        fromArrays.finish { outputs.append($0) }
        fromPointers.finish { pointerOutputs.append($0) }
    }
    #expect(outputs == pointerOutputs, "arrays and raw pointers give different outputs")
    return outputs
}

/// `bytes` cut into chunks of random sizes in `sizes`.
func randomChunks(_ bytes: [UInt8], sizes: ClosedRange<Int>, using random: inout FuzzRandom) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var position = 0
    while position < bytes.count {
        let next = Swift.min(bytes.count, position + Int.random(in: sizes, using: &random))
        chunks.append(Array(bytes[position..<next]))
        position = next
    }
    return chunks
}

/// Checks the accounting contract: outputs are back to back from `start` and cover `length` bytes.
func isContiguous(_ outputs: [FrameDecoderOutput], from start: UInt64 = 0, length: UInt64) -> Bool {
    var expected = start
    for output in outputs {
        guard output.offset == expected else { return false }
        expected += output.byteCount
    }
    return expected == start + length
}

extension FrameDecoderOutput {
    /// The frame, if this output is one.
    var frame: Frame? {
        if case .frame(let frame) = self { return frame }
        return nil
    }
}
