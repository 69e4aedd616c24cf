import Testing
@testable import FrameCodec

/// Frame length in bytes for a length field value, as the decoder computes it from a format:
/// the arithmetic docs/formats.md promises. Used to check the Netty and tokio-util mappings.
private func frameLength(_ format: FrameFormat, lengthValue: Int64) -> Int64 {
    let base = format.lengthCounts == .body ? Int64(format.headerLength) : 0
    return base + lengthValue + format.lengthAdjustment
}

private func parse(_ spec: String) throws -> FrameFormat {
    try FrameFormat(spec: spec)
}

func specError(_ spec: String) -> FormatSpecError? {
    do {
        _ = try FrameFormat(spec: spec)
        return nil
    } catch {
        return error
    }
}

/// Expects each spec of `table` to fail at its column, expecting its text.
func expectSpecErrors(_ table: [(spec: String, column: Int, expected: String)], sourceLocation: SourceLocation = #_sourceLocation) {
    for (spec, column, expected) in table {
        #expect(specError(spec) == FormatSpecError(column: column, expected: expected), "\(spec)", sourceLocation: sourceLocation)
    }
}

@Suite("Format spec: fields")
struct FormatSpecFieldTests {
    @Test func issueExampleIsH12() throws {
        let format = try parse("magic:u16=0x55AA ver:u8 cmd:u8{1=ping,2=pong,3=msg,4=ack} len:u32be crc:crc32be")
        #expect(format.fields == FrameFormat.h12.fields)
        #expect(format.headerLength == 12)
        #expect(format.lengthCounts == .body)
        #expect(format.lengthAdjustment == 0)
        #expect(format.maxFrameLength == 16 * 1024 * 1024)
        #expect(format.payloadOffset == nil)
        #expect(format.name == "magic:u16=0x55AA ver:u8 cmd:u8{1=ping,2=pong,3=msg,4=ack} len:u32be crc:crc32be")
        #expect(format.magicFieldIndex == 0)
        #expect(format.checksumFieldIndex == 4)
    }

    @Test(arguments: [
        ("u8", 1), ("u16", 2), ("u24", 3), ("u32", 4), ("u40", 5), ("u48", 6), ("u56", 7), ("u64", 8),
    ])
    func integerWidths(type: String, width: Int) throws {
        let format = try parse("len:\(type)")
        #expect(format.fields == [HeaderField(name: "len", width: width, role: .length)])
    }

    @Test func byteOrderSuffixesAndCase() throws {
        let format = try parse("a:u16le b:u32BE c:U24Le len:u64le")
        #expect(format.fields.map(\.byteOrder) == [.littleEndian, .bigEndian, .littleEndian, .littleEndian])
        #expect(format.fields.map(\.width) == [2, 4, 3, 8])
        #expect(format.lengthFieldIndex == 3)
    }

    @Test func expectedValuesAndRanges() throws {
        let format = try parse("type:u8=20..24 version:u16=0x0300..0x0304 len:u16 max=18437")
        #expect(format.fields == FrameFormat.tls.fields)
        #expect(format.maxFrameLength == 18437)
        let edges = try parse("a:u8=255 b:u64=0xFFFFFFFFFFFFFFFF c:u24=0..0xFFFFFF len:u8=7")
        #expect(edges.fields[0].expected == 255...255)
        #expect(edges.fields[1].expected == UInt64.max...UInt64.max)
        #expect(edges.fields[2].expected == 0...0xFF_FFFF)
        #expect(edges.fields[3].expected == 7...7)
        #expect(edges.magicFieldIndex == 0)
    }

    @Test func opaqueBytes() throws {
        let format = try parse("pad:bytes3 len:u16")
        #expect(format.fields[0] == HeaderField(name: "pad", width: 3, role: .opaque))
        #expect(format.offset(ofField: 1) == 3)
    }

    @Test func checksums() throws {
        let format = try parse("len:u16 crc:crc32c")
        #expect(format.fields[1] == HeaderField(name: "crc", width: 4, role: .checksum(.crc32c, .body)))
        let all = try parse("len:u16 crc:crc32le/frame")
        #expect(all.fields[1] == HeaderField(name: "crc", width: 4, byteOrder: .littleEndian, role: .checksum(.crc32, .headerAndBody)))
        let alias = try parse("len:u16 crc:crc32cbe/all")
        #expect(alias.fields[1].role == .checksum(.crc32c, .headerAndBody))
        let body = try parse("len:u16 crc:crc32/body")
        #expect(body.fields[1].role == .checksum(.crc32, .body))
    }

    @Test func lengthFieldByOption() throws {
        let format = try parse("size:u32le len:u8 ; lenfield=size")
        #expect(format.fields[0].role == .length)
        #expect(format.fields[1].role == .value)
    }

    @Test func whitespaceAndSemicolonPlacement() throws {
        let a = try parse("  len:u16;max=1K  ")
        let b = try parse("len:u16 ;\n\tmax=1K")
        let c = try parse("len:u16 max=1K")
        #expect(a.maxFrameLength == 1024)
        #expect(a.fields == b.fields && b.fields == c.fields)
        #expect(a.name == "len:u16;max=1K")
    }
}

@Suite("Format spec: options")
struct FormatSpecOptionTests {
    @Test func allOptions() throws {
        let format = try parse("magic:u16=0xFEFD len:u16 ; counts=frame adjust=-2 max=1M strip=4")
        #expect(format.lengthCounts == .wholeFrame)
        #expect(format.lengthAdjustment == -2)
        #expect(format.maxFrameLength == 1 << 20)
        #expect(format.payloadOffset == 4)
    }

    @Test(arguments: [("max=64K", 65536), ("max=16m", 16 << 20), ("max=2G", 2 << 30), ("max=0x100", 256), ("max=100", 100)])
    func sizeSuffixes(option: String, bytes: Int) throws {
        #expect(try parse("len:u16 \(option)").maxFrameLength == bytes)
    }

    @Test func adjustExtremes() throws {
        #expect(try parse("len:u8 adjust=-9223372036854775808").lengthAdjustment == Int64.min)
        #expect(try parse("len:u8 adjust=+9223372036854775807").lengthAdjustment == Int64.max)
        #expect(try parse("len:u8 adjust=-0x10").lengthAdjustment == -16)
        #expect(specError("len:u8 adjust=9223372036854775808")?.column == 15)
    }

    @Test func countsBody() throws {
        #expect(try parse("len:u8 counts=body").lengthCounts == .body)
        #expect(try parse("len:u8 counts=all").lengthCounts == .wholeFrame)
    }
}

@Suite("Format spec: errors")
struct FormatSpecErrorTests {
    @Test(arguments: [
        // (spec, column, words the message must contain)
        ("", 1, "a field like len:u16"),
        ("   ", 4, "a field like len:u16"),
        ("len:", 5, "a width like u16"),
        ("len:u12", 6, "bit width"),
        ("len:u0", 6, "bit width"),
        ("len:u72", 6, "bit width"),
        ("len:u16xe", 8, "'be' or 'le'"),
        ("len:int16", 5, "a width like u16"),
        ("len u16", 4, "':' and a type"),
        ("magic:u16=0x1FFFF len:u8", 11, "from 0 to 65535"),
        ("magic:u8=256 len:u8", 10, "from 0 to 255"),
        ("magic:u16=0xZZ len:u8", 13, "from 0 to 65535"),
        ("magic:u16= len:u8", 11, "from 0 to 65535"),
        ("t:u8=24..20 len:u8", 10, "upper bound"),
        ("t:u8=1.. len:u8", 9, "from 0 to 255"),
        ("crc:crc32=5 len:u8", 10, "checksum"),
        ("pad:bytes2=5 len:u8", 11, "opaque"),
        ("pad:bytes len:u8", 10, "byte count"),
        ("pad:bytes0 len:u8", 10, "byte count"),
        ("pad:bytes99999999999 len:u8", 10, "byte count"),
        ("len:u16 crc:crc32x", 18, "'/frame'"),
        ("len:u16 crc:crc32/head", 19, "'body' or 'frame'"),
        ("9x:u8 len:u8", 1, "field name"),
        (":u8 len:u8", 1, "field name"),
        ("a:u8", 5, "a length field"),
        ("len:bytes4", 5, "integer type"),
        ("len:crc32", 5, "integer type"),
        ("a:u8 a:u8 len:u8", 6, "'a' is already a field"),
        ("len:u16 c1:crc32 c2:crc32c", 21, "at most one checksum"),
        ("len:u8 lenfield=size", 17, "'size' is not one"),
        ("len:u8 lenfield=1x", 17, "field name"),
        ("len:u8 max=1M x:u8", 15, "fields go before options"),
        ("len:u8 ; max=1M ; strip=1", 17, "';' comes once"),
        ("len:u8 max=1M ; strip=1", 15, "';' comes once"),
        ("; len:u8", 1, "before ';'"),
        ("max=1M", 1, "a field like len:u16"),
        ("len:u8 max=1M max=2M", 15, "'max' is already set"),
        ("len:u8 size=1M", 8, "counts=, adjust="),
        ("len:u8 max=1M oops", 15, "an option like max=1M, got 'oops'"),
        ("len:u8 max=1T", 13, "like 65536"),
        ("len:u8 max=", 12, "like 65536"),
        ("len:u8 max=99999999999999999999", 12, "like 65536"),
        ("len:u8 max=9999999999999G", 12, "like 65536"),
        ("len:u8 strip=-1", 14, "byte count"),
        ("len:u8 adjust=x", 15, "whole number"),
        ("len:u8 adjust=", 15, "whole number"),
        ("len:u8 counts=header", 15, "'body' or 'frame'"),
        ("len:u8 oops", 12, "like oops:u16"),
        ("pad:bytes2 len:u16 max=3", 24, "at least the header length (4 bytes)"),
        // The whole header's length, not the sum up to the first field past the max.
        ("a:u8 len:u32 b:u16 max=3", 24, "at least the header length (7 bytes)"),
        ("magic:u16=0x55AA ver:u8 cmd:u8 len:u32 crc:crc32 max=4", 54, "at least the header length (12 bytes)"),
        ("pad:bytes20000000 len:u16", 5, "no longer than the max frame length"),
    ])
    func reportsColumnAndExpectation(spec: String, column: Int, words: String) {
        let error = specError(spec)
        #expect(error?.column == column, "\(spec)")
        #expect(error?.expected.contains(words) == true, "\(spec): \(error?.expected ?? "no error")")
    }

    /// The error table in docs/formats.md, verbatim.
    @Test func documentedErrors() throws {
        let table: [(String, Int, String)] = [
            ("magic:u16=0x55AA len:u12", 23, "a bit width after 'u': u8, u16, u24, u32, u40, u48, u56 or u64"),
            ("len:", 5, "a width like u16 or u32be after ':' (or bytesN, crc32, crc32c)"),
            ("len:u16xe", 8, "'be' or 'le' after 'u16', or the end of the field"),
            ("magic:u8=256 len:u8", 10, "a value from 0 to 255 (fits in 1 byte), decimal or 0x hex"),
            ("a:u8", 5, "a length field: name one integer field 'len' (like len:u16) or add lenfield=NAME"),
            ("a:u8 a:u8 len:u8", 6, "a field name not used before ('a' is already a field)"),
            ("len:u8 max=1M x:u8", 15, "an option like max=1M here: fields go before options"),
            ("pad:bytes2 len:u16 max=3", 24, "a max frame length of at least the header length (4 bytes)"),
        ]
        for (spec, column, expected) in table {
            #expect(specError(spec) == FormatSpecError(column: column, expected: expected))
        }
        do {
            _ = try FrameFormat(nameOrSpec: "fefx")
            Issue.record("expected an error")
        } catch {
            #expect(error == FormatSpecError(column: 1, expected: "a preset name (fefd, h12, u16, u32, tls, varint, lines, mqtt) or a spec like len:u16, got 'fefx'"))
        }
    }

    @Test func columnsCountUnicodeScalars() {
        // "é" is two UTF-8 bytes but one column.
        let error = specError("é:u8 len:u8")
        #expect(error?.column == 1)
        let later = specError("len:u8 ; max=1M café=1")
        #expect(later?.column == 17)
        let afterAccent = specError("len:u8 counts=été")
        #expect(afterAccent?.column == 15)
    }

    @Test func descriptionShowsColumnAndExpectation() {
        let error = specError("len:u12")
        #expect(error?.description.hasPrefix("column 6: expected a bit width after 'u'") == true)
    }

    @Test func arbitraryBytesNeverCrash() {
        // A deterministic sweep standing in for a fuzzer: every spec either parses or throws.
        let alphabet = Array("len:u16=0x..;-+ /crcbytes3lemaxKstripadjust=counts=frame\u{e9}\t\n".unicodeScalars)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59)
            var spec = ""
            for step in 0..<length {
                let pick = Int((state >> UInt64(step % 50)) % UInt64(alphabet.count))
                spec.unicodeScalars.append(alphabet[pick])
            }
            if let format = try? FrameFormat(spec: spec) {
                #expect(format.fields.contains { $0.role == .length })
            }
        }
    }
}

@Suite("Format spec: name or spec")
struct NameOrSpecTests {
    @Test func presetNames() throws {
        for preset in FrameFormat.presets {
            #expect(try FrameFormat(nameOrSpec: preset.name) == preset)
            #expect(try FrameFormat(nameOrSpec: " \(preset.name.uppercased())\n") == preset)
        }
    }

    @Test func specText() throws {
        #expect(try FrameFormat(nameOrSpec: "len:u16le").fields == [HeaderField(name: "len", width: 2, byteOrder: .littleEndian, role: .length)])
    }

    @Test func unknownBareWordListsPresets() {
        do {
            _ = try FrameFormat(nameOrSpec: "  fefx")
            Issue.record("expected an error")
        } catch {
            #expect(error.column == 3)
            #expect(error.expected.contains("fefd, h12, u16, u32, tls"))
        }
    }

    @Test func specErrorsPassThrough() {
        do {
            _ = try FrameFormat(nameOrSpec: "len:u12")
            Issue.record("expected an error")
        } catch {
            #expect(error.column == 6)
        }
    }
}

/// Netty `LengthFieldBasedFrameDecoder`'s javadoc examples, translated by the mechanical
/// mapping in docs/formats.md: `pad:bytes<lengthFieldOffset>`, then the length field,
/// `adjust=<lengthAdjustment> strip=<initialBytesToStrip>`.
@Suite("Format spec: Netty javadoc examples")
struct NettyExampleTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var title: String
        var spec: String
        var idiomatic: String
        var lengthFieldOffset: Int
        var lengthFieldLength: Int
        var lengthAdjustment: Int64
        var initialBytesToStrip: Int
        /// The example's length field value and its frame length before stripping.
        var value: Int64
        var frameBytes: Int64
        var testDescription: String { title }
    }

    static let examples: [Example] = [
        Example(title: "2 bytes length field at offset 0, do not strip header",
                spec: "len:u16 ; strip=0", idiomatic: "len:u16 ; strip=0",
                lengthFieldOffset: 0, lengthFieldLength: 2, lengthAdjustment: 0, initialBytesToStrip: 0, value: 12, frameBytes: 14),
        Example(title: "2 bytes length field at offset 0, strip header",
                spec: "len:u16 ; strip=2", idiomatic: "len:u16",
                lengthFieldOffset: 0, lengthFieldLength: 2, lengthAdjustment: 0, initialBytesToStrip: 2, value: 12, frameBytes: 14),
        Example(title: "2 bytes length field at offset 0, do not strip header, the length field represents the length of the whole message",
                spec: "len:u16 ; adjust=-2 strip=0", idiomatic: "len:u16 ; counts=frame strip=0",
                lengthFieldOffset: 0, lengthFieldLength: 2, lengthAdjustment: -2, initialBytesToStrip: 0, value: 14, frameBytes: 14),
        Example(title: "3 bytes length field at the end of 5 bytes header, do not strip header",
                spec: "hdr1:bytes2 len:u24 ; strip=0", idiomatic: "hdr1:u16 len:u24 ; strip=0",
                lengthFieldOffset: 2, lengthFieldLength: 3, lengthAdjustment: 0, initialBytesToStrip: 0, value: 12, frameBytes: 17),
        Example(title: "3 bytes length field at the beginning of 5 bytes header, do not strip header",
                spec: "len:u24 ; adjust=2 strip=0", idiomatic: "len:u24 hdr1:u16 ; strip=0",
                lengthFieldOffset: 0, lengthFieldLength: 3, lengthAdjustment: 2, initialBytesToStrip: 0, value: 12, frameBytes: 17),
        Example(title: "2 bytes length field at offset 1 in the middle of 4 bytes header, strip the first header field and the length field",
                spec: "hdr1:bytes1 len:u16 ; adjust=1 strip=3", idiomatic: "hdr1:u8 len:u16 hdr2:u8 ; strip=3",
                lengthFieldOffset: 1, lengthFieldLength: 2, lengthAdjustment: 1, initialBytesToStrip: 3, value: 12, frameBytes: 16),
        Example(title: "2 bytes length field at offset 1 in the middle of 4 bytes header, strip the first header field and the length field, the length field represents the length of the whole message",
                spec: "hdr1:bytes1 len:u16 ; adjust=-3 strip=3", idiomatic: "hdr1:u8 len:u16 hdr2:u8 ; counts=frame strip=3",
                lengthFieldOffset: 1, lengthFieldLength: 2, lengthAdjustment: -3, initialBytesToStrip: 3, value: 16, frameBytes: 16),
    ]

    @Test(arguments: examples)
    func mechanicalTranslation(example: Example) throws {
        let format = try parse(example.spec)
        let lengthIndex = format.lengthFieldIndex
        #expect(format.offset(ofField: lengthIndex) == example.lengthFieldOffset)
        #expect(format.fields[lengthIndex].width == example.lengthFieldLength)
        #expect(format.fields[lengthIndex].byteOrder == .bigEndian)
        #expect(format.lengthCounts == .body)
        #expect(format.lengthAdjustment == example.lengthAdjustment)
        #expect(format.payloadOffset == example.initialBytesToStrip)
        #expect(format.headerLength == example.lengthFieldOffset + example.lengthFieldLength)
        #expect(format.fields[..<lengthIndex].allSatisfy { $0.role == .opaque })
        #expect(frameLength(format, lengthValue: example.value) == example.frameBytes)
    }

    @Test(arguments: examples)
    func idiomaticTranslationFramesTheSame(example: Example) throws {
        let mechanical = try parse(example.spec)
        let idiomatic = try parse(example.idiomatic)
        #expect(idiomatic.offset(ofField: idiomatic.lengthFieldIndex) == example.lengthFieldOffset)
        #expect(idiomatic.effectivePayloadOffset == mechanical.effectivePayloadOffset)
        for value: Int64 in [0, 1, 12, 16, 300, 65535] {
            #expect(frameLength(idiomatic, lengthValue: value) == frameLength(mechanical, lengthValue: value))
        }
    }

    /// Netty: frameLength = lengthFieldOffset + lengthFieldLength + value + lengthAdjustment.
    @Test func mappingMatchesNettyArithmetic() throws {
        for offset in [0, 1, 5] {
            for width in [1, 2, 3, 4, 8] {
                for adjustment: Int64 in [-7, 0, 3] {
                    let pad = offset > 0 ? "pad:bytes\(offset) " : ""
                    let format = try parse("\(pad)len:u\(width * 8) ; adjust=\(adjustment) strip=0 max=1M")
                    for value: Int64 in [0, 9, 200] {
                        #expect(frameLength(format, lengthValue: value) == Int64(offset + width) + value + adjustment)
                    }
                }
            }
        }
    }
}

/// tokio-util `LengthDelimitedCodec`'s module docs examples (as corrected by tokio-rs/tokio#6638,
/// so that they match the code). tokio consumes `num_skip + value + length_adjustment` bytes and yields all
/// but the first `num_skip`, so: `adjust = length_adjustment + num_skip - (offset + length)`,
/// `strip = num_skip`.
@Suite("Format spec: tokio-util examples")
struct TokioExampleTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var title: String
        var spec: String
        var lengthFieldOffset: Int
        var lengthFieldLength: Int
        var lengthAdjustment: Int64
        /// `nil`: tokio's default, `length_field_offset + length_field_length`.
        var numSkip: Int?
        var value: Int64
        var consumed: Int64
        var testDescription: String { title }
    }

    static let examples: [Example] = [
        Example(title: "1: u16 at offset 0, omit head", spec: "len:u16",
                lengthFieldOffset: 0, lengthFieldLength: 2, lengthAdjustment: 0, numSkip: nil, value: 11, consumed: 13),
        Example(title: "2: u16 at offset 0, include head", spec: "len:u16 ; strip=0",
                lengthFieldOffset: 0, lengthFieldLength: 2, lengthAdjustment: 2, numSkip: 0, value: 11, consumed: 13),
        Example(title: "3: u16 counts the head, omit head", spec: "len:u16 ; adjust=-2",
                lengthFieldOffset: 0, lengthFieldLength: 2, lengthAdjustment: -2, numSkip: nil, value: 13, consumed: 13),
        Example(title: "4: 3-byte length in a 5-byte head, include head", spec: "len:u24 ; adjust=2 strip=0",
                lengthFieldOffset: 0, lengthFieldLength: 3, lengthAdjustment: 5, numSkip: 0, value: 11, consumed: 16),
        Example(title: "5: u16 at offset 1 of a 4-byte head, skip hdr1 and len", spec: "hdr1:bytes1 len:u16 ; adjust=1 strip=3",
                lengthFieldOffset: 1, lengthFieldLength: 2, lengthAdjustment: 1, numSkip: 3, value: 11, consumed: 15),
        Example(title: "6: as 5, the length counts the whole frame", spec: "hdr1:bytes1 len:u16 ; adjust=-3 strip=3",
                lengthFieldOffset: 1, lengthFieldLength: 2, lengthAdjustment: -3, numSkip: 3, value: 15, consumed: 15),
        Example(title: "7: 3-byte length, skip a 4th head byte", spec: "len:u24 ; adjust=1 strip=4",
                lengthFieldOffset: 0, lengthFieldLength: 3, lengthAdjustment: 0, numSkip: 4, value: 11, consumed: 15),
    ]

    @Test(arguments: examples)
    func translation(example: Example) throws {
        let format = try parse(example.spec)
        let head = example.lengthFieldOffset + example.lengthFieldLength
        let numSkip = example.numSkip ?? head
        #expect(format.offset(ofField: format.lengthFieldIndex) == example.lengthFieldOffset)
        #expect(format.fields[format.lengthFieldIndex].width == example.lengthFieldLength)
        #expect(format.lengthAdjustment == example.lengthAdjustment + Int64(numSkip - head))
        #expect(format.effectivePayloadOffset == numSkip)
        // tokio's own arithmetic, and ours, on the example's frame.
        #expect(Int64(numSkip) + example.value + example.lengthAdjustment == example.consumed)
        #expect(frameLength(format, lengthValue: example.value) == example.consumed)
    }

    @Test func littleEndianAndWideLengths() throws {
        // .little_endian() with length_field_length(5..8): tokio allows every width 1...8.
        for width in 1...8 {
            let format = try parse("len:u\(width * 8)le")
            #expect(format.fields[0].width == width)
            #expect(format.fields[0].byteOrder == .littleEndian)
        }
    }
}

extension FrameFormat {
    /// Where the payload starts, resolving the `nil` default to the header length.
    fileprivate var effectivePayloadOffset: Int { payloadOffset ?? headerLength }
}
