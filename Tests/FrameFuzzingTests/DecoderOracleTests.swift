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

    /// fuzz-out/frame-decoder/crash-d61a7b81…: a layout whose 10-byte header exceeds its 4-byte
    /// max frame length. The decoder must hold a whole header to reject it, so the memory bound
    /// is the larger of the two (the oracle first used max frame length + chunk, and flagged
    /// 9 bytes held after the last, 3-byte chunk).
    @Test func aHeaderLongerThanTheLimitMayBeHeldWhole() throws {
        let format = try FrameFormat(
            name: "fuzzed",
            fields: [
                HeaderField(name: "len", width: 1, byteOrder: .littleEndian, role: .length),
                HeaderField(name: "f1", width: 1),
                HeaderField(name: "f2", width: 2),
                HeaderField(name: "f3", width: 6, byteOrder: .littleEndian, expected: 0x0302_0000_0000...0x0302_0000_0000),
            ],
            maxFrameLength: 4
        )
        let bytes: [UInt8] = [0, 0, 0, 0, 0xF7, 0, 0, 0xFF, 0x55, 0, 0, 0, 0, 0, 0, 0]
        let input = DecoderInput(format: format, bytes: bytes, pieces: [.chunk(6), .chunk(7), .chunk(3)])
        #expect(DecoderOracle.check(input) == [])
    }
}
