import FrameCodec
import Testing
@testable import FrameFuzzing

/// The oracle must notice broken outputs; these feed it fabricated ones.
struct DecoderOracleTests {
    let input = DecoderInput(
        format: FrameFormat.fefd,
        bytes: [0xFE, 0xFD, 0x00, 0x01, 0xAA, 0x00, 0xFE, 0xFD, 0x00, 0x00]
    )

    @Test func acceptsTheCorrectOutputs() {
        let outputs: [DecoderRun.Output] = [
            .frame(offset: 0, length: 5, crcOK: nil),
            .skip(offset: 5, byteCount: 1),
            .frame(offset: 6, length: 4, crcOK: nil),
        ]
        #expect(DecoderOracle.tilingFailure(outputs, input) == nil)
        #expect(DecoderOracle.referenceFailure(outputs, input) == nil)
        #expect(DecoderOracle.check(input).isEmpty)
    }

    @Test func bytesCountedTwiceOrNeverAreAccountingFailures() {
        let overlapping: [DecoderRun.Output] = [
            .frame(offset: 0, length: 5, crcOK: nil),
            .skip(offset: 4, byteCount: 2),
            .frame(offset: 6, length: 4, crcOK: nil),
        ]
        #expect(DecoderOracle.tilingFailure(overlapping, input)?.property == .accounting)
        let short: [DecoderRun.Output] = [.frame(offset: 0, length: 5, crcOK: nil)]
        #expect(DecoderOracle.tilingFailure(short, input)?.property == .accounting)
        let empty: [DecoderRun.Output] = [
            .frame(offset: 0, length: 5, crcOK: nil),
            .skip(offset: 5, byteCount: 0),
            .skip(offset: 5, byteCount: 1),
            .frame(offset: 6, length: 4, crcOK: nil),
        ]
        #expect(DecoderOracle.tilingFailure(empty, input)?.property == .accounting)
    }

    @Test func skippingAValidFrameIsAReferenceFailure() {
        let outputs: [DecoderRun.Output] = [
            .frame(offset: 0, length: 5, crcOK: nil),
            .skip(offset: 5, byteCount: 5),
        ]
        #expect(DecoderOracle.tilingFailure(outputs, input) == nil)
        #expect(DecoderOracle.referenceFailure(outputs, input)?.property == .reference)
    }

    @Test func gapsMustBeReportedWhereTheyAre() {
        let gapped = DecoderInput(format: input.format, bytes: input.bytes, pieces: [.chunk(5), .gap(7), .chunk(5)])
        let right: [DecoderRun.Output] = [
            .frame(offset: 0, length: 5, crcOK: nil),
            .gap(offset: 5, byteCount: 7),
            .skip(offset: 12, byteCount: 1),
            .frame(offset: 13, length: 4, crcOK: nil),
        ]
        #expect(DecoderOracle.tilingFailure(right, gapped) == nil)
        #expect(DecoderOracle.referenceFailure(right, gapped) == nil)
        var wrong = right
        wrong[1] = .gap(offset: 5, byteCount: 6)
        #expect(DecoderOracle.tilingFailure(wrong, gapped)?.property == .accounting)
    }
}
