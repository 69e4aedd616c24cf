import FrameCodec
import Testing
@testable import FrameDumpCLI

@Suite struct TextRendererTests {
    let plain = TextStyle(enabled: false)

    @Test func headingShowsMagicAndChecksumInHexAndTheBodyAsJSON() {
        var renderer = TextRenderer(format: TestFormats.h12, style: plain)
        let body = Array(#"{"seq":1}"#.utf8)
        let frame = TestFormats.frame(TestFormats.h12, fields: ["ver": 1, "cmd": 3], body: body, offset: 7, crcOK: true)
        var crcHex: [UInt8] = []
        ByteFormatting.appendHex(UInt64(CRC32.checksum(body)), digits: 8, to: &crcHex)
        #expect(renderer.text([.frame(frame)]) == """
        frame  offset 7  body 9 bytes  magic=0x55aa ver=1 cmd=3 len=9 crc=0x\(String(decoding: crcHex, as: UTF8.self))  crc ok
          {
            "seq": 1
          }

        """)
    }

    @Test func binaryBodiesAreDumpedAndMismatchesFlagged() {
        var renderer = TextRenderer(format: TestFormats.h12, style: plain)
        let frame = TestFormats.frame(TestFormats.h12, body: [0, 1, 2], crcOK: false)
        let text = renderer.text([.frame(frame)])
        #expect(text.contains("  crc MISMATCH\n"))
        #expect(text.hasSuffix("  00000000  00 01 02                                          |...|\n"))
    }

    @Test func payloadNoneKeepsTheHeadingOnly() {
        var renderer = TextRenderer(format: TestFormats.opaqueLE, style: plain, showsBody: false)
        let frame = Frame(offset: 0, bytes: [0, 0, 2, 0, 0x68, 0x69][...], headerLength: 4, crcOK: nil)
        #expect(renderer.text([.frame(frame)]) == "frame  offset 0  body 2 bytes  len=2\n")
    }

    @Test func eventsAreOneLineEachSeparatedByBlankLines() {
        var renderer = TextRenderer(format: TestFormats.h12, style: plain)
        #expect(renderer.text([
            .skip(offset: 3, byteCount: 1),
            .oversize(offset: 4, declaredLength: 99_999_999),
            .truncated(offset: 5, byteCount: 2),
            .gap(offset: 7, byteCount: 1000),
        ]) == """
        skip  offset 3  1 byte with no valid header

        oversize  offset 4  length field says 99999999, over the 16777216-byte frame limit; skipped 1 byte to resync

        truncated  offset 5  2 bytes at end of stream, not a whole frame

        gap  offset 7  1000 bytes never captured

        """)
    }

    @Test func summaryCountsEverything() {
        var summary = DecodeSummary()
        summary.count(.frame(TestFormats.frame(TestFormats.h12, body: [], crcOK: false)))
        summary.count(.frame(TestFormats.frame(TestFormats.h12, body: [], crcOK: true)))
        summary.count(.skip(offset: 0, byteCount: 5))
        summary.count(.skip(offset: 9, byteCount: 6))
        summary.count(.oversize(offset: 0, declaredLength: 1))
        summary.count(.truncated(offset: 0, byteCount: 1))
        summary.count(.gap(offset: 0, byteCount: 3))
        var renderer = TextRenderer(format: TestFormats.h12, style: plain)
        #expect(renderer.text([], summary: summary)
            == "2 frames (1 crc MISMATCH); 11 bytes skipped; 1 oversize header; 1 byte truncated; 3 bytes never captured\n")
        #expect(summary.exitStatus == .badInput)
    }

    @Test func cleanSummaryAndExitStatus() {
        var summary = DecodeSummary()
        summary.count(.frame(TestFormats.frame(TestFormats.h12, body: [], crcOK: true)))
        summary.count(.frame(TestFormats.frame(TestFormats.opaqueLE, body: [])))
        #expect(summary.isClean && summary.exitStatus == .success)
        var renderer = TextRenderer(format: TestFormats.h12, style: plain)
        #expect(renderer.text([], summary: summary) == "2 frames\n")
    }

    @Test func colourMarksHeadingsAndChecksums() {
        var renderer = TextRenderer(format: TestFormats.h12, style: TextStyle(enabled: true))
        let text = renderer.text([.frame(TestFormats.frame(TestFormats.h12, body: [], crcOK: false))])
        #expect(text.hasPrefix("\u{1B}[1mframe\u{1B}[0m  offset 0"))
        #expect(text.contains("\u{1B}[1;31mcrc MISMATCH\u{1B}[0m"))
    }
}
