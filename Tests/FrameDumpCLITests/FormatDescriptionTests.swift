import FrameCodec
import Testing
@testable import FrameDumpCLI

@Suite struct FormatDescriptionTests {
    /// `format` with its name replaced by the spec text, as `FrameFormat(spec:)` names it.
    func renamed(_ format: FrameFormat, _ name: String) -> FrameFormat {
        var copy = format
        copy.name = name
        return copy
    }

    @Test(arguments: FrameFormat.presets)
    func presetsParseBackToThemselves(_ preset: FrameFormat) throws {
        let spec = FormatDescription.spec(preset)
        #expect(try FrameFormat(spec: spec) == renamed(preset, spec), "\(spec)")
    }

    @Test func presetSpecsReadLikeTheDocs() {
        #expect(FormatDescription.spec(.fefd) == "magic:u16=0xFEFD len:u16")
        #expect(FormatDescription.spec(.h12) == "magic:u16=0x55AA ver:u8 cmd:u8{1=ping,2=pong,3=msg,4=ack} len:u32 crc:crc32")
        #expect(FormatDescription.spec(.tls) == "type:u8=20..24 version:u16=0x0300..0x0304 len:u16 max=18437")
    }

    /// Varints, bit fields, computed lengths and delimiter formats are written back as specs
    /// that parse to the same layout.
    @Test(arguments: [
        "id:varint seq:u16 len:varint4",
        "ver:b4=4 ihl:b4 tos:u8 rest:u16 length=ihl*4+rest counts=frame",
        "head_length:u32 body_length:u32 length=head_length+body_length counts=frame adjust=-3",
        "delim=##\\r\\n,\\x3B,\\s\\,\\\\ keepdelim=yes max=4096 strip=1",
    ])
    func newConstructsRoundTrip(_ spec: String) throws {
        let format = try FrameFormat(spec: spec)
        let written = FormatDescription.spec(format)
        #expect(written == spec)
        #expect(try FrameFormat(spec: written) == renamed(format, written))
    }

    @Test func everyOptionAndFieldKindRoundTrips() throws {
        let format = try FrameFormat(
            name: "custom",
            fields: [
                HeaderField(name: "pad", width: 3, role: .opaque),
                HeaderField(name: "size", width: 3, byteOrder: .littleEndian, role: .length),
                HeaderField(name: "kind", width: 1, expected: 1...9),
                HeaderField(name: "sum", width: 4, byteOrder: .littleEndian, role: .checksum(.crc32c, .headerAndBody)),
            ],
            lengthCounts: .wholeFrame,
            lengthAdjustment: -4,
            maxFrameLength: 4096,
            payloadOffset: 6
        )
        let spec = FormatDescription.spec(format)
        #expect(spec == "pad:bytes3 size:u24le kind:u8=1..9 sum:crc32cle/frame lenfield=size counts=frame adjust=-4 max=4096 strip=6")
        #expect(try FrameFormat(spec: spec) == renamed(format, spec))
    }
}
