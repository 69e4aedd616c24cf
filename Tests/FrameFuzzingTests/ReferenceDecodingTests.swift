import FrameCodec
import Testing
@testable import FrameFuzzing

/// The reference model is the oracle's ground truth, so it gets hand-worked cases of its own.
struct ReferenceDecodingTests {
    /// `magic:u16=0x55AA len:u8 max=8`: a 3-byte header, frames of at most 8 bytes.
    let format = try! FrameFormat(
        name: "test",
        fields: [
            HeaderField(name: "magic", width: 2, expected: 0x55AA...0x55AA),
            HeaderField(name: "len", width: 1, role: .length),
        ],
        maxFrameLength: 8
    )

    private func labels(_ reference: ReferenceDecoding) -> String {
        reference.allowed.map { mask in
            switch mask {
            case ReferenceDecoding.Label.frame.rawValue: "F"
            case ReferenceDecoding.Label.skip.rawValue: "S"
            case ReferenceDecoding.Label.oversize.rawValue: "O"
            case ReferenceDecoding.Label.truncated.rawValue: "T"
            case ReferenceDecoding.Label.skip.rawValue | ReferenceDecoding.Label.truncated.rawValue: "t"
            default: "?"
            }
        }.joined()
    }

    @Test func framesGarbageAndTail() {
        let bytes: [UInt8] = [0x55, 0xAA, 0x01, 0x10, 0x00, 0x55, 0xAA, 0x00, 0x55, 0xAA, 0x04, 0x01]
        let reference = ReferenceDecoding(DecoderInput(format: format, bytes: bytes))
        #expect(reference.frames == [
            .init(offset: 0, length: 4, crcOK: nil),
            .init(offset: 5, length: 3, crcOK: nil),
        ])
        #expect(labels(reference) == "FFFFSFFFTTTT")
    }

    @Test func oversizeThenResyncSkipsFurtherBadLengths() {
        // 55AA 09: 3 + 9 > 8 → oversize; the next bad length while resyncing is a skip.
        let bytes: [UInt8] = [0x55, 0xAA, 0x09, 0x55, 0xAA, 0x07, 0x55, 0xAA, 0x00]
        let reference = ReferenceDecoding(DecoderInput(format: format, bytes: bytes))
        #expect(labels(reference) == "OSSSSSFFF")
        #expect(reference.declared[0] == 9)
    }

    @Test func gapEndsSegmentAndResyncs() {
        let bytes: [UInt8] = [0x55, 0xAA, 0x02, 0x01, 0x55, 0xAA, 0x09, 0x55, 0xAA, 0x00]
        let input = DecoderInput(format: format, bytes: bytes, pieces: [.chunk(4), .gap(100), .chunk(6)])
        let reference = ReferenceDecoding(input)
        #expect(labels(reference) == "TTTTSSSFFF")
        #expect(reference.frames == [.init(offset: 107, length: 3, crcOK: nil)])
    }

    @Test func checksumIsGradedIndependently() throws {
        let format = try FrameFormat(name: "crc", fields: [
            HeaderField(name: "len", width: 1, role: .length),
            HeaderField(name: "crc", width: 4, role: .checksum(.crc32, .body)),
        ])
        // CRC-32 of "123456789" is 0xCBF43926 (the standard check value).
        let good: [UInt8] = [9, 0xCB, 0xF4, 0x39, 0x26] + Array("123456789".utf8)
        var bad = good
        bad[13] ^= 1
        let reference = ReferenceDecoding(DecoderInput(format: format, bytes: good + bad))
        #expect(reference.frames.map(\.crcOK) == [true, false])
    }
}
