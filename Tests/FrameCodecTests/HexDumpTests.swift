import Testing
@testable import FrameCodec

/// The documented fefd example: header `fefd00f9`, then 249 bytes of UTF-8 JSON.
private let fefdFrame: [UInt8] = [0xFE, 0xFD, 0x00, 0xF9] + Array(
    #"{"id":1,"name":"sensor-7","ok":true,"temp":21.5,"tags":["lab","north"],"note":"frame dump sample; frame dump sample; frame dump sample; frame dump sample; frame dump sample; frame dump sample; frame dump sample; frame dump sample; frame dump sampl"}"#.utf8
)

/// rep.bin: 16 counting bytes, 64 zero bytes, `tail!`.
private let repeated: [UInt8] = Array(0..<16) + [UInt8](repeating: 0, count: 64) + Array("tail!".utf8)

/// The text behind the hexLike samples.
private let hexLikeText = Array("ab cd ef 12 34 56 78 90 fe fd 00 f9 aa bb cc dd ee ff".utf8)

private func error(_ text: String, maxByteCount: Int = HexDump.defaultMaxByteCount) -> HexDumpError? {
    do {
        _ = try HexDump.parse(text, maxByteCount: maxByteCount)
        return nil
    } catch {
        return error
    }
}

/// Real tool output, pasted verbatim (generated on Linux with xxd 2022, util-linux hexdump,
/// tshark 4.x).
private enum Samples {
    /// `xxd fefd.bin`: the documented fefd frame, header fefd00f9 and 249 bytes of JSON.
    static let xxd = #"""
00000000: fefd 00f9 7b22 6964 223a 312c 226e 616d  ....{"id":1,"nam
00000010: 6522 3a22 7365 6e73 6f72 2d37 222c 226f  e":"sensor-7","o
00000020: 6b22 3a74 7275 652c 2274 656d 7022 3a32  k":true,"temp":2
00000030: 312e 352c 2274 6167 7322 3a5b 226c 6162  1.5,"tags":["lab
00000040: 222c 226e 6f72 7468 225d 2c22 6e6f 7465  ","north"],"note
00000050: 223a 2266 7261 6d65 2064 756d 7020 7361  ":"frame dump sa
00000060: 6d70 6c65 3b20 6672 616d 6520 6475 6d70  mple; frame dump
00000070: 2073 616d 706c 653b 2066 7261 6d65 2064   sample; frame d
00000080: 756d 7020 7361 6d70 6c65 3b20 6672 616d  ump sample; fram
00000090: 6520 6475 6d70 2073 616d 706c 653b 2066  e dump sample; f
000000a0: 7261 6d65 2064 756d 7020 7361 6d70 6c65  rame dump sample
000000b0: 3b20 6672 616d 6520 6475 6d70 2073 616d  ; frame dump sam
000000c0: 706c 653b 2066 7261 6d65 2064 756d 7020  ple; frame dump 
000000d0: 7361 6d70 6c65 3b20 6672 616d 6520 6475  sample; frame du
000000e0: 6d70 2073 616d 706c 653b 2066 7261 6d65  mp sample; frame
000000f0: 2064 756d 7020 7361 6d70 6c22 7d          dump sampl"}
"""#

    /// `hexdump -C fefd.bin`, with its closing offset line.
    static let hexdumpC = #"""
00000000  fe fd 00 f9 7b 22 69 64  22 3a 31 2c 22 6e 61 6d  |....{"id":1,"nam|
00000010  65 22 3a 22 73 65 6e 73  6f 72 2d 37 22 2c 22 6f  |e":"sensor-7","o|
00000020  6b 22 3a 74 72 75 65 2c  22 74 65 6d 70 22 3a 32  |k":true,"temp":2|
00000030  31 2e 35 2c 22 74 61 67  73 22 3a 5b 22 6c 61 62  |1.5,"tags":["lab|
00000040  22 2c 22 6e 6f 72 74 68  22 5d 2c 22 6e 6f 74 65  |","north"],"note|
00000050  22 3a 22 66 72 61 6d 65  20 64 75 6d 70 20 73 61  |":"frame dump sa|
00000060  6d 70 6c 65 3b 20 66 72  61 6d 65 20 64 75 6d 70  |mple; frame dump|
00000070  20 73 61 6d 70 6c 65 3b  20 66 72 61 6d 65 20 64  | sample; frame d|
00000080  75 6d 70 20 73 61 6d 70  6c 65 3b 20 66 72 61 6d  |ump sample; fram|
00000090  65 20 64 75 6d 70 20 73  61 6d 70 6c 65 3b 20 66  |e dump sample; f|
000000a0  72 61 6d 65 20 64 75 6d  70 20 73 61 6d 70 6c 65  |rame dump sample|
000000b0  3b 20 66 72 61 6d 65 20  64 75 6d 70 20 73 61 6d  |; frame dump sam|
000000c0  70 6c 65 3b 20 66 72 61  6d 65 20 64 75 6d 70 20  |ple; frame dump |
000000d0  73 61 6d 70 6c 65 3b 20  66 72 61 6d 65 20 64 75  |sample; frame du|
000000e0  6d 70 20 73 61 6d 70 6c  65 3b 20 66 72 61 6d 65  |mp sample; frame|
000000f0  20 64 75 6d 70 20 73 61  6d 70 6c 22 7d           | dump sampl"}|
000000fd
"""#

    /// `hexdump -C rep.bin`: 16 counting bytes, 64 zeros (one line and a `*`), `tail!`.
    static let hexdumpRepeat = #"""
00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|
00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|
*
00000050  74 61 69 6c 21                                    |tail!|
00000055
"""#

    /// `xxd -a rep.bin`: the same bytes, zero lines skipped with `*`.
    static let xxdAutoskip = #"""
00000000: 0001 0203 0405 0607 0809 0a0b 0c0d 0e0f  ................
00000010: 0000 0000 0000 0000 0000 0000 0000 0000  ................
*
00000050: 7461 696c 21                             tail!
"""#

    /// `xxd -g1 -c 8 rep.bin`: single-byte groups, 8 per line.
    static let xxdBytes = #"""
00000000: 00 01 02 03 04 05 06 07  ........
00000008: 08 09 0a 0b 0c 0d 0e 0f  ........
00000010: 00 00 00 00 00 00 00 00  ........
00000018: 00 00 00 00 00 00 00 00  ........
00000020: 00 00 00 00 00 00 00 00  ........
00000028: 00 00 00 00 00 00 00 00  ........
00000030: 00 00 00 00 00 00 00 00  ........
00000038: 00 00 00 00 00 00 00 00  ........
00000040: 00 00 00 00 00 00 00 00  ........
00000048: 00 00 00 00 00 00 00 00  ........
00000050: 74 61 69 6c 21           tail!
"""#

    /// `xxd -s 16 -l 40 fefd.bin`: a dump that starts at offset 0x10.
    static let xxdSeek = #"""
00000010: 6522 3a22 7365 6e73 6f72 2d37 222c 226f  e":"sensor-7","o
00000020: 6b22 3a74 7275 652c 2274 656d 7022 3a32  k":true,"temp":2
00000030: 312e 352c 2274 6167                      1.5,"tag
"""#

    /// `xxd -c 20 -g 4 -l 45 fefd.bin`: 4-byte groups, 20 bytes a line.
    static let xxdWide = #"""
00000000: fefd00f9 7b226964 223a312c 226e616d 65223a22  ....{"id":1,"name":"
00000014: 73656e73 6f722d37 222c226f 6b223a74 7275652c  sensor-7","ok":true,
00000028: 2274656d 70                                   "temp
"""#

    /// `xxd -i fefd.bin`: a C array and its length variable.
    static let xxdInclude = #"""
unsigned char fefd_bin[] = {
  0xfe, 0xfd, 0x00, 0xf9, 0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x31, 0x2c,
  0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0x73, 0x65, 0x6e, 0x73,
  0x6f, 0x72, 0x2d, 0x37, 0x22, 0x2c, 0x22, 0x6f, 0x6b, 0x22, 0x3a, 0x74,
  0x72, 0x75, 0x65, 0x2c, 0x22, 0x74, 0x65, 0x6d, 0x70, 0x22, 0x3a, 0x32,
  0x31, 0x2e, 0x35, 0x2c, 0x22, 0x74, 0x61, 0x67, 0x73, 0x22, 0x3a, 0x5b,
  0x22, 0x6c, 0x61, 0x62, 0x22, 0x2c, 0x22, 0x6e, 0x6f, 0x72, 0x74, 0x68,
  0x22, 0x5d, 0x2c, 0x22, 0x6e, 0x6f, 0x74, 0x65, 0x22, 0x3a, 0x22, 0x66,
  0x72, 0x61, 0x6d, 0x65, 0x20, 0x64, 0x75, 0x6d, 0x70, 0x20, 0x73, 0x61,
  0x6d, 0x70, 0x6c, 0x65, 0x3b, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20,
  0x64, 0x75, 0x6d, 0x70, 0x20, 0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x3b,
  0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x64, 0x75, 0x6d, 0x70, 0x20,
  0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x3b, 0x20, 0x66, 0x72, 0x61, 0x6d,
  0x65, 0x20, 0x64, 0x75, 0x6d, 0x70, 0x20, 0x73, 0x61, 0x6d, 0x70, 0x6c,
  0x65, 0x3b, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x64, 0x75, 0x6d,
  0x70, 0x20, 0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x3b, 0x20, 0x66, 0x72,
  0x61, 0x6d, 0x65, 0x20, 0x64, 0x75, 0x6d, 0x70, 0x20, 0x73, 0x61, 0x6d,
  0x70, 0x6c, 0x65, 0x3b, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x64,
  0x75, 0x6d, 0x70, 0x20, 0x73, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x3b, 0x20,
  0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x64, 0x75, 0x6d, 0x70, 0x20, 0x73,
  0x61, 0x6d, 0x70, 0x6c, 0x65, 0x3b, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65,
  0x20, 0x64, 0x75, 0x6d, 0x70, 0x20, 0x73, 0x61, 0x6d, 0x70, 0x6c, 0x22,
  0x7d
};
unsigned int fefd_bin_len = 253;
"""#

    /// `tshark -x` of fefd.bin sent in one TCP segment (built with text2pcap): 54 header bytes, then the frame.
    static let tshark = #"""
0000  20 52 45 43 56 00 20 53 45 4e 44 00 08 00 45 00    RECV. SEND...E.
0010  01 25 12 34 00 00 ff 06 91 99 0a 01 01 01 0a 02   .%.4............
0020  02 02 13 88 17 70 00 00 00 00 00 00 00 00 50 00   .....p........P.
0030  20 00 82 2c 00 00 fe fd 00 f9 7b 22 69 64 22 3a    ..,......{"id":
0040  31 2c 22 6e 61 6d 65 22 3a 22 73 65 6e 73 6f 72   1,"name":"sensor
0050  2d 37 22 2c 22 6f 6b 22 3a 74 72 75 65 2c 22 74   -7","ok":true,"t
0060  65 6d 70 22 3a 32 31 2e 35 2c 22 74 61 67 73 22   emp":21.5,"tags"
0070  3a 5b 22 6c 61 62 22 2c 22 6e 6f 72 74 68 22 5d   :["lab","north"]
0080  2c 22 6e 6f 74 65 22 3a 22 66 72 61 6d 65 20 64   ,"note":"frame d
0090  75 6d 70 20 73 61 6d 70 6c 65 3b 20 66 72 61 6d   ump sample; fram
00a0  65 20 64 75 6d 70 20 73 61 6d 70 6c 65 3b 20 66   e dump sample; f
00b0  72 61 6d 65 20 64 75 6d 70 20 73 61 6d 70 6c 65   rame dump sample
00c0  3b 20 66 72 61 6d 65 20 64 75 6d 70 20 73 61 6d   ; frame dump sam
00d0  70 6c 65 3b 20 66 72 61 6d 65 20 64 75 6d 70 20   ple; frame dump 
00e0  73 61 6d 70 6c 65 3b 20 66 72 61 6d 65 20 64 75   sample; frame du
00f0  6d 70 20 73 61 6d 70 6c 65 3b 20 66 72 61 6d 65   mp sample; frame
0100  20 64 75 6d 70 20 73 61 6d 70 6c 65 3b 20 66 72    dump sample; fr
0110  61 6d 65 20 64 75 6d 70 20 73 61 6d 70 6c 65 3b   ame dump sample;
0120  20 66 72 61 6d 65 20 64 75 6d 70 20 73 61 6d 70    frame dump samp
0130  6c 22 7d                                          l"}

"""#

    /// Wireshark "Copy Bytes as Hex + ASCII Dump" of the first 40 bytes (ui/qt/utils/data_printer.cpp layout).
    static let wiresharkASCII = #"""
0000   fe fd 00 f9 7b 22 69 64 22 3a 31 2c 22 6e 61 6d   ....{"id":1,"nam
0010   65 22 3a 22 73 65 6e 73 6f 72 2d 37 22 2c 22 6f   e":"sensor-7","o
0020   6b 22 3a 74 72 75 65 2c                           k":true,
"""#

    /// Wireshark "...as Hex Dump" of the same bytes.
    static let wiresharkHex = #"""
0000   fe fd 00 f9 7b 22 69 64 22 3a 31 2c 22 6e 61 6d
0010   65 22 3a 22 73 65 6e 73 6f 72 2d 37 22 2c 22 6f
0020   6b 22 3a 74 72 75 65 2c
"""#

    /// `xxd` of text that looks like hex, so the ASCII column does too.
    static let hexLikeXXD = #"""
00000000: 6162 2063 6420 6566 2031 3220 3334 2035  ab cd ef 12 34 5
00000010: 3620 3738 2039 3020 6665 2066 6420 3030  6 78 90 fe fd 00
00000020: 2066 3920 6161 2062 6220 6363 2064 6420   f9 aa bb cc dd 
00000030: 6565 2066 66                             ee ff
"""#

    /// `hexdump -C` of the same text.
    static let hexLikeHexdump = #"""
00000000  61 62 20 63 64 20 65 66  20 31 32 20 33 34 20 35  |ab cd ef 12 34 5|
00000010  36 20 37 38 20 39 30 20  66 65 20 66 64 20 30 30  |6 78 90 fe fd 00|
00000020  20 66 39 20 61 61 20 62  62 20 63 63 20 64 64 20  | f9 aa bb cc dd |
00000030  65 65 20 66 66                                    |ee ff|
00000035
"""#

    /// The NSData description of fefd.bin: `<` 4-byte groups `>`.
    static let nsData = #"""
<fefd00f9 7b226964 223a312c 226e616d 65223a22 73656e73 6f722d37 222c226f 6b223a74 7275652c 2274656d 70223a32 312e352c 22746167 73223a5b 226c6162 222c226e 6f727468 225d2c22 6e6f7465 223a2266 72616d65 2064756d 70207361 6d706c65 3b206672 616d6520 64756d70 2073616d 706c653b 20667261 6d652064 756d7020 73616d70 6c653b20 6672616d 65206475 6d702073 616d706c 653b2066 72616d65 2064756d 70207361 6d706c65 3b206672 616d6520 64756d70 2073616d 706c653b 20667261 6d652064 756d7020 73616d70 6c653b20 6672616d 65206475 6d702073 616d706c 653b2066 72616d65 2064756d 70207361 6d706c22 7d>
"""#
}

@Suite("Hex dump: forms")
struct HexDumpFormTests {
    @Test func plainHex() throws {
        #expect(try HexDump.parse("fefd00f9") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("FEFD00F9") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("fe fd 00 f9") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("  fefd 00f9\r\n7b22\t6964\n") == [0xFE, 0xFD, 0x00, 0xF9, 0x7B, 0x22, 0x69, 0x64])
        let wrapped = fefdFrame.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined().chunked(60).joined(separator: "\n")  // xxd -p layout
        #expect(try HexDump.parse(wrapped) == fefdFrame)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try HexDump.parse("\u{FEFF}fefd00f9") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("\u{FEFF}00000000: fefd 00f9  ....") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("\u{FEFF}") == [])
    }

    @Test func unicodeWhitespaceSeparatesAsASpaceDoes() throws {
        let bytes: [UInt8] = [0xFE, 0xFD, 0x00, 0xF9]
        #expect(try HexDump.parse("<fefd00f9\u{3000}>") == bytes)
        #expect(try HexDump.parse("fefd\u{00A0}00f9") == bytes)
        #expect(try HexDump.parse("\u{2003}fe\u{2009}fd 00\u{202F}f9\u{3000}") == bytes)
        #expect(try HexDump.parse("00000000: fefd\u{3000}00f9  ....") == bytes)
        #expect(try HexDump.parse("{length = 4, bytes = 0xfefd00f9\u{00A0}}") == bytes)
    }

    @Test func emptyInput() throws {
        #expect(try HexDump.parse("") == [])
        #expect(try HexDump.parse(" \n\t\n\r\n") == [])
    }

    @Test func xxd() throws {
        #expect(try HexDump.parse(Samples.xxd) == fefdFrame)
        #expect(try HexDump.parse(Samples.xxdBytes) == repeated)
        #expect(try HexDump.parse(Samples.xxdSeek) == Array(fefdFrame[16..<56]))
        #expect(try HexDump.parse(Samples.xxdWide) == Array(fefdFrame[..<45]))
    }

    @Test func hexdumpC() throws {
        #expect(try HexDump.parse(Samples.hexdumpC) == fefdFrame)
        #expect(try HexDump.parse("00000000  00 01                                             |..|\n00000002") == [0, 1])
    }

    @Test func repeatLines() throws {
        #expect(try HexDump.parse(Samples.hexdumpRepeat) == repeated)
        #expect(try HexDump.parse(Samples.xxdAutoskip) == repeated)
        // '*' up to the closing offset: the repeat runs to the end of the dump.
        let trailing = """
            00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|
            *
            00000040
            """
        #expect(try HexDump.parse(trailing) == [UInt8](repeating: 0x41, count: 64))
    }

    @Test func wireshark() throws {
        #expect(try HexDump.parse(Samples.wiresharkASCII) == Array(fefdFrame[..<40]))
        #expect(try HexDump.parse(Samples.wiresharkHex) == Array(fefdFrame[..<40]))
        let bytes = try HexDump.parse(Samples.tshark)
        #expect(bytes.count == 54 + fefdFrame.count)
        #expect(Array(bytes.suffix(fefdFrame.count)) == fefdFrame)
        #expect(Array(bytes.prefix(2)) == [0x20, 0x52])
    }

    @Test func asciiColumnThatLooksLikeHexIsSkipped() throws {
        #expect(try HexDump.parse(Samples.hexLikeXXD) == hexLikeText)
        #expect(try HexDump.parse(Samples.hexLikeHexdump) == hexLikeText)
        let wireshark = """
            0000   61 62 20 63 64 20 65 66 20 31 32 20 33 34 20 35   ab cd ef 12 34 5
            0010   36 20 37 38 20 39 30 20 66 65 20 66 64 20 30 30   6 78 90 fe fd 00
            0020   20 66 39 20 61 61 20 62 62 20 63 63 20 64 64 20    f9 aa bb cc dd 
            0030   65 65 20 66 66                                    ee ff
            """
        #expect(try HexDump.parse(wireshark) == hexLikeText)
    }

    @Test func nsDataClassic() throws {
        #expect(try HexDump.parse(Samples.nsData) == fefdFrame)
        #expect(try HexDump.parse("<>") == [])
        let logged = "2024-05-01 10:00:00.123 Demo[812:33011] got <fefd00f9 7b22> from server"
        #expect(try HexDump.parse(logged) == [0xFE, 0xFD, 0x00, 0xF9, 0x7B, 0x22])
        let multiline = """
            <fefd00f9 7b226964
             223a312c>
            <0a0b>
            """
        #expect(try HexDump.parse(multiline) == [0xFE, 0xFD, 0x00, 0xF9, 0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x31, 0x2C, 0x0A, 0x0B])
    }

    @Test func nsDataNewer() throws {
        #expect(try HexDump.parse("{length = 4, bytes = 0xfefd00f9}") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("{length = 6, bytes = 0xfefd00f9 7b22 }") == [0xFE, 0xFD, 0x00, 0xF9, 0x7B, 0x22])
        let cfData = "<CFData 0x600000c04000 [0x1ff5e0e60]>{length = 2, capacity = 2, bytes = 0x0a0b}"
        #expect(try HexDump.parse(cfData) == [0x0A, 0x0B])
    }

    @Test func arrayLiterals() throws {
        #expect(try HexDump.parse("[0xfe, 0xfd, 0x00, 0xf9]") == [0xFE, 0xFD, 0x00, 0xF9])
        #expect(try HexDump.parse("{ 0xFE, 0xFD }") == [0xFE, 0xFD])
        #expect(try HexDump.parse("uint8_t magic[2] = {0xfe,0xfd}; // the magic, 0x55 is h12's") == [0xFE, 0xFD])
        #expect(try HexDump.parse("let frame: [UInt8] = [\n  0xfe, 0xfd,\n  0x0, 0x1,\n]") == [0xFE, 0xFD, 0x00, 0x01])
        #expect(try HexDump.parse(Samples.xxdInclude) == fefdFrame)
        #expect(try HexDump.parse("0xfefd00f9") == [0xFE, 0xFD, 0x00, 0xF9])
    }

    @Test func blankLinesJoinDumpsIntoOneStream() throws {
        let text = Samples.xxd + "\n\n" + "fefd 0000\n\n" + Samples.nsData + "\n\n" + "[0x01, 0x02]\n"
        #expect(try HexDump.parse(text) == fefdFrame + [0xFE, 0xFD, 0x00, 0x00] + fefdFrame + [0x01, 0x02])
        // Two dumps pasted back to back: offset 0 starts the second one.
        #expect(try HexDump.parse(Samples.xxdSeek + "\n" + Samples.xxd) == Array(fefdFrame[16..<56]) + fefdFrame)
        #expect(try HexDump.parse(Samples.hexdumpC + "\n" + Samples.xxd) == fefdFrame + fefdFrame)
    }
}

@Suite("Hex dump: errors")
struct HexDumpErrorTests {
    @Test(arguments: [
        // (text, line, column, words the message must contain)
        ("fefd00f", 1, 1, "even number of hex digits"),
        ("fefd 00 f9g", 1, 11, "a hex digit or a space, got 'g'"),
        ("fe fd\nzz", 2, 1, "got 'z'"),
        ("fe fd\n0 f9", 2, 1, "even number"),
        ("0000000 fdfe f900", 1, 1, "hexdump -C or xxd"),
        ("café", 1, 4, "got 'é'"),
        ("été <fefd00f 9>", 1, 6, "even number"),
        ("00000000: fefd 00f  ...", 1, 16, "even number"),
        ("00000000: fefd 00fx  ...", 1, 19, "got 'x'"),
        ("00000000: fefd 00f9  ....\n00000008: 7b22  {\"", 2, 1, "offset 0x4"),
        ("00000000: fefd 00f9  ....\nfefd", 2, 1, "the next line of the dump"),
        ("00000000  fe fd 00 f9  |....|\n00000005", 2, 1, "offset 0x4"),
        ("00000000  fe fd 00 f9  |....|\n*\n00000005", 3, 1, "whole number of 4-byte lines"),
        ("00000000  fe fd 00 f9  |....|\n*\n*", 3, 1, "not another '*'"),
        ("00000000  fe fd 00 f9  |....|\n*", 2, 2, "an offset line after '*'"),
        ("00000000  fe fd 0 f9  |....|", 1, 18, "two hex digits for a byte, got ' '"),
        ("00000000  fe fd 00f9  |....|", 1, 19, "a space after the byte"),
        ("0000   fe fd\n0010   00 f9", 2, 1, "offset 0x2"),
        ("<fefd00f9 7b22", 1, 15, "'>' closing the NSData description opened on line 1"),
        ("<fefd00f9 7b2g>", 1, 14, "got 'g'"),
        ("<fefd00f 9>", 1, 2, "even number"),
        ("<fefd>\nfefd", 2, 1, "an NSData description like"),
        ("{length = 253, bytes = 0xfefd00f9 7b226964 ... 227d }", 1, 44, "elided"),
        ("{length = 253, bytes = 0xfefd00f9 7b226964 … 227d }", 1, 44, "elided"),
        ("{length = 5, bytes = 0xfefd00f9}", 1, 32, "5 bytes before '}'"),
        ("{length = x, bytes = 0xfe}", 1, 11, "a byte count"),
        ("{length = 2, data = 0xfefd}", 1, 27, "'bytes = 0x'"),
        ("[0xfe, 254, 0xfd]", 1, 8, "0x-prefixed byte"),
        ("[0xfe, fd, 0xfd]", 1, 8, "'fd' without 0x"),
        ("[0xfe, 0xfd00]", 1, 8, "one byte per 0x literal"),
        ("[0xfefd, 0x00]", 1, 2, "only literal"),
        ("[0xfeg]", 1, 6, "got 'g'"),
        ("0xfefd0", 1, 3, "even number"),
        // Characters that print as nothing are named by their escape.
        ("fefd 00f9\u{200B}", 1, 10, "got '\\u{200b}'"),
        ("fe fd\n\u{FEFF}00", 2, 1, "got '\\u{feff}'"),
        // A bad digit in hexdump -C is pointed at, not the start of its byte.
        ("00000000  fe fd 0g f9  |....|", 1, 18, "two hex digits for a byte, got 'g'"),
        ("00000000  fe fd g0 f9  |....|", 1, 17, "two hex digits for a byte, got 'g'"),
        // Columns count characters, a wide space as one, before a later error.
        ("fe\u{3000}fd zz", 1, 7, "got 'z'"),
        ("fefd\u{FFFD}", 1, 5, "got '\\u{fffd}'"),
        // A leading byte order mark is skipped, and columns are counted after it.
        ("\u{FEFF}fefd zz", 1, 6, "got 'z'"),
    ])
    func reportsLineColumnAndExpectation(text: String, line: Int, column: Int, words: String) {
        let error = error(text)
        #expect(error?.line == line, "\(text)")
        #expect(error?.column == column, "\(text)")
        #expect(error?.expected.contains(words) == true, "\(text): \(error?.expected ?? "no error")")
    }

    @Test func repeatIsBoundedByMaxByteCount() {
        let text = "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\nffffffff0"
        let huge = error(text, maxByteCount: 1 << 20)
        #expect(huge?.line == 3)
        #expect(huge?.expected.contains("at most 1048576 bytes") == true)
        #expect(error("fefd00f9", maxByteCount: 3)?.expected.contains("at most 3 bytes") == true)
    }

    @Test func descriptionShowsLineAndColumn() {
        #expect(error("fefd\nxx")?.description.hasPrefix("line 2, column 1: expected a hex digit") == true)
    }

    @Test func arbitraryTextNeverCrashes() {
        // A deterministic sweep standing in for a fuzzer: every text either parses or throws.
        let alphabet = Array("0123456789abcdefxX:|*<>{}[],; \n\t.\u{2026}églength = bytes".unicodeScalars)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var text = ""
            var pick = state
            for _ in 0..<Int(state >> 58) {
                pick = pick &* 6_364_136_223_846_793_005 &+ 1
                text.unicodeScalars.append(alphabet[Int(pick >> 33) % alphabet.count])
            }
            let bytes = try? HexDump.parse(text)
            #expect((bytes?.count ?? 0) <= text.utf8.count)
        }
    }
}

extension String {
    fileprivate func chunked(_ size: Int) -> [String] {
        var chunks: [String] = []
        var rest = Substring(self)
        while !rest.isEmpty {
            chunks.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return chunks
    }
}
