import TestSupport
import Testing
@testable import FrameCodec

@Suite struct FrameEncoderTests {
    @Test func h12FrameByteForByte() throws {
        let frame = try FrameEncoder(format: TestFormats.h12()).encode(fields: ["ver": 1, "cmd": 7], body: [0xAA, 0xBB])
        let crc = CRC32.checksum([0xAA, 0xBB] as [UInt8])
        #expect(frame == [0x55, 0xAA, 0x01, 0x07, 0x00, 0x00, 0x00, 0x02,
                          UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF),
                          0xAA, 0xBB])
    }

    @Test func headerAndBodyChecksumReadsItsOwnFieldAsZero() throws {
        let format = TestFormats.h12(algorithm: .crc32c, coverage: .headerAndBody)
        let frame = try FrameEncoder(format: format).encode(body: [1, 2, 3])
        var zeroed = frame
        zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        #expect(format.value(ofField: "crc", in: frame[...]) == UInt64(CRC32.checksum(zeroed, algorithm: .crc32c)))
    }

    @Test func givenLengthAndChecksumAreWrittenAsGiven() throws {
        let frame = try FrameEncoder(format: TestFormats.h12()).encode(fields: ["len": 9, "crc": 0xDEAD_BEEF], body: [1])
        #expect(frame == [0x55, 0xAA, 0, 0, 0, 0, 0, 9, 0xDE, 0xAD, 0xBE, 0xEF, 1])
    }

    @Test func encodingAppendsToABuffer() throws {
        let encoder = FrameEncoder(format: TestFormats.fefd())
        var buffer: [UInt8] = [0x99]
        try encoder.encode(body: [1], into: &buffer)
        try encoder.encode(fields: ["magic": 0x1234], body: [], into: &buffer)
        #expect(buffer == [0x99, 0xFE, 0xFD, 0x00, 0x01, 0x01, 0x12, 0x34, 0x00, 0x00])
    }

    @Test func lengthCountsAndAdjustmentAreInverted() throws {
        // Whole-frame length, little-endian 3-byte field, adjustment −2 (value = frame length + 2).
        let format = try FrameFormat(name: "w", fields: [
            HeaderField(name: "tag", width: 1, expected: 1...3),
            HeaderField(name: "len", width: 3, byteOrder: .littleEndian, role: .length),
            HeaderField(name: "pad", width: 2, role: .opaque),
        ], lengthCounts: .wholeFrame, lengthAdjustment: -2)
        let frame = try FrameEncoder(format: format).encode(body: [9, 9, 9])
        #expect(frame == [0x01, 11, 0, 0, 0, 0, 9, 9, 9])
        #expect(decodeAll(format, [frame]).first?.frame?.bytes == frame[...])
    }

    @Test func errorsSayWhatIsWrong() throws {
        let encoder = FrameEncoder(format: TestFormats.fefd())
        #expect(throws: FrameEncoderError.unknownField("lenght")) {
            try encoder.encode(fields: ["lenght": 1], body: [])
        }
        #expect(throws: FrameEncoderError.valueTooWide(field: "magic", value: 0x1_0000, width: 2)) {
            try encoder.encode(fields: ["magic": 0x1_0000], body: [])
        }
        let opaque = try FrameFormat(name: "o", fields: [
            HeaderField(name: "skip", width: 3, role: .opaque),
            HeaderField(name: "len", width: 1, role: .length),
        ])
        #expect(throws: FrameEncoderError.valueTooWide(field: "skip", value: 5, width: 0)) {
            try FrameEncoder(format: opaque).encode(fields: ["skip": 5], body: [])
        }
        #expect(throws: FrameEncoderError.lengthNotRepresentable(frameLength: 260)) {
            try FrameEncoder(format: opaque).encode(body: [UInt8](repeating: 0, count: 256))
        }
        let negative = try FrameFormat(name: "n", fields: [HeaderField(name: "len", width: 1, role: .length)],
                                       lengthAdjustment: 3)
        #expect(throws: FrameEncoderError.lengthNotRepresentable(frameLength: 3)) {
            try FrameEncoder(format: negative).encode(body: [1, 2])
        }
        #expect(FrameEncoderError.unknownField("x").description == "the format has no field named 'x'")
    }

    @Test func bodyLengthAroundTheMax() throws {
        let encoder = FrameEncoder(format: TestFormats.fefd(maxFrameLength: 100))
        #expect(try encoder.encode(body: [UInt8](repeating: 0, count: 95)).count == 99)
        #expect(try encoder.encode(body: [UInt8](repeating: 0, count: 96)).count == 100)
        #expect(throws: FrameEncoderError.bodyTooLong(length: 97, max: 96)) {
            try encoder.encode(body: [UInt8](repeating: 0, count: 97))
        }
        var buffer: [UInt8] = [1, 2]
        #expect(throws: FrameEncoderError.self) {
            try encoder.encode(body: [UInt8](repeating: 0, count: 97), into: &buffer)
        }
        #expect(buffer == [1, 2], "a failed encode leaves the buffer unchanged")
    }

    // MARK: - Round trip

    /// A random well-formed format: 1–6 fields of widths 1–8 (checksums 4), random byte orders,
    /// an optional magic, checked range, checksum and opaque field, random length semantics.
    private func randomFormat(using random: inout FuzzRandom) throws -> FrameFormat {
        var fields: [HeaderField] = []
        func order() -> ByteOrder { Bool.random(using: &random) ? .bigEndian : .littleEndian }
        for index in 0..<Int.random(in: 0...4, using: &random) {
            let width = Int.random(in: 1...8, using: &random)
            let expected: ClosedRange<UInt64>? = switch Int.random(in: 0..<4, using: &random) {
            case 0: 0x21...0x21
            case 1: 3...200
            default: nil
            }
            let role: HeaderField.Role = Int.random(in: 0..<6, using: &random) == 0 ? .opaque : .value
            fields.append(HeaderField(name: "f\(index)", width: width, byteOrder: order(), role: role,
                                      expected: role == .opaque ? nil : expected))
        }
        let lengthWidth = Int.random(in: 1...8, using: &random)
        fields.insert(HeaderField(name: "len", width: lengthWidth, byteOrder: order(), role: .length),
                      at: Int.random(in: 0...fields.count, using: &random))
        if Bool.random(using: &random) {
            let role = HeaderField.Role.checksum(ChecksumAlgorithm.allCases.randomElement(using: &random)!,
                                                 Bool.random(using: &random) ? .body : .headerAndBody)
            fields.insert(HeaderField(name: "crc", width: 4, byteOrder: order(), role: role),
                          at: Int.random(in: 0...fields.count, using: &random))
        }
        return try FrameFormat(
            name: "random",
            fields: fields,
            lengthCounts: Bool.random(using: &random) ? .body : .wholeFrame,
            lengthAdjustment: Int64.random(in: -20...20, using: &random),
            maxFrameLength: Int.random(in: 40...600, using: &random)
        )
    }

    @Test(arguments: propertySeeds)
    func encodeThenDecodeIsTheIdentity(seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        for round in 0..<100 {
            let format = try randomFormat(using: &random)
            let encoder = FrameEncoder(format: format)
            var stream: [UInt8] = []
            var sent: [(fields: [String: UInt64], body: [UInt8])] = []
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                var fields: [String: UInt64] = [:]
                for field in format.fields where field.role == .value {
                    let limit = field.width == 8 ? UInt64.max : (1 << UInt64(8 * field.width)) - 1
                    fields[field.name] = UInt64.random(in: field.expected ?? 0...limit, using: &random)
                }
                let body = random.bytes(Int.random(in: 0...300, using: &random))
                // Random lengths often do not fit the random format; the test below checks those.
                if (try? encoder.encode(fields: fields, body: body, into: &stream)) != nil {
                    sent.append((fields, body))
                }
            }
            let chunks = randomChunks(stream, sizes: 1...64, using: &random)
            let outputs = decodeAll(format, chunks)
            let context = "seed \(seed), round \(round), format \(format.fields)"
            #expect(outputs.count == sent.count, "\(context)")
            for (output, expected) in zip(outputs, sent) {
                guard let frame = output.frame else {
                    Issue.record("\(context): expected a frame, got \(output)")
                    break
                }
                #expect(frame.body.elementsEqual(expected.body), "\(context)")
                #expect(frame.crcOK == (format.checksumFieldIndex == nil ? nil : true), "\(context)")
                for (name, value) in expected.fields {
                    #expect(format.value(ofField: name, in: frame.header) == value, "\(context), field \(name)")
                }
            }
        }
    }

    @Test func lengthFailuresAreExactlyTheUnrepresentableOnes() throws {
        var random = FuzzRandom(seed: 11)
        for _ in 0..<300 {
            let format = try randomFormat(using: &random)
            let body = [UInt8](repeating: 0, count: Int.random(in: 0...300, using: &random))
            let frameLength = format.headerLength + body.count
            let lengthField = format.fields[format.lengthFieldIndex]
            let counted = Int64(format.lengthCounts == .body ? body.count : frameLength) - format.lengthAdjustment
            let fits = counted >= 0 && (lengthField.width == 8 || UInt64(counted) >> UInt64(8 * lengthField.width) == 0)
            do {
                _ = try FrameEncoder(format: format).encode(body: body)
                #expect(frameLength <= format.maxFrameLength && fits)
            } catch .bodyTooLong {
                #expect(frameLength > format.maxFrameLength)
            } catch .lengthNotRepresentable(let length) {
                #expect(length == frameLength && !fits)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}

@Suite struct FieldValueTests {
    @Test(arguments: 1...8)
    func readsEveryWidthInBothByteOrders(width: Int) throws {
        let bytes: [UInt8] = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09]
        for order in [ByteOrder.bigEndian, .littleEndian] {
            let format = try FrameFormat(name: "w", fields: [
                HeaderField(name: "pad", width: 1, role: .opaque),
                HeaderField(name: "x", width: width, byteOrder: order),
                HeaderField(name: "len", width: 1, role: .length),
            ])
            var expected: UInt64 = 0
            for index in 0..<width {
                let byte = UInt64(bytes[1 + (order == .bigEndian ? index : width - 1 - index)])
                expected = expected << 8 | byte
            }
            // A slice that does not start at index 0, as frames from a decoder are.
            let header = ([0xEE, 0xEE] + bytes)[2...]
            #expect(format.value(ofField: 1, in: header) == expected, "width \(width), \(order)")
            #expect(format.value(ofField: "x", in: header) == expected)
            #expect(format.value(ofField: 0, in: header) == 0, "opaque fields read as 0")
            #expect(format.value(ofField: "nope", in: header) == nil)
        }
    }

    @Test func threeByteFieldsBothWays() throws {
        let format = try FrameFormat(name: "t", fields: [
            HeaderField(name: "be", width: 3),
            HeaderField(name: "le", width: 3, byteOrder: .littleEndian),
            HeaderField(name: "len", width: 1, role: .length),
        ])
        let header: ArraySlice<UInt8> = [0x01, 0x02, 0x03, 0x01, 0x02, 0x03, 0x00]
        #expect(format.value(ofField: 0, in: header) == 0x010203)
        #expect(format.value(ofField: 1, in: header) == 0x030201)
    }
}
