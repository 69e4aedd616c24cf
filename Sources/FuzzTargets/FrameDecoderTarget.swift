import FrameCodec
import FrameFuzzing

/// libFuzzer target: the frame decoder on a layout, chunking and stream all read from the
/// input, judged by FrameFuzzing's oracle (accounting, reference model, memory bound).
///
/// Input: a layout (a preset, or fields described byte by byte), up to 15 chunk sizes (0
/// means a gap), then the stream, fed in those chunk sizes over and over.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzedInput(data, size)
    guard let format = layout(&input) else { return 0 }
    var plan: [DecoderInput.Piece] = []
    for _ in 0..<input.value(in: 0...15) {
        let size = input.byte()
        plan.append(size == 0 ? .gap(UInt64(input.value(in: 1...70_000))) : .chunk(Int(size)))
    }
    let bytes = input.rest()
    // Every round of the plan must feed something, or the loop below would not end.
    if !plan.contains(where: { if case .chunk = $0 { true } else { false } }) { plan.append(.chunk(max(1, bytes.count))) }
    var pieces: [DecoderInput.Piece] = []
    var fed = 0
    var step = 0
    while fed < bytes.count {
        let piece = plan[step % plan.count]
        step += 1
        switch piece {
        case .chunk(let count):
            pieces.append(.chunk(min(count, bytes.count - fed)))
            fed += min(count, bytes.count - fed)
        case .gap:
            // A gap right after a gap would be two calls for one hole.
            if case .gap? = pieces.last { continue }
            pieces.append(piece)
        }
    }
    let failures = DecoderOracle.check(DecoderInput(format: format, bytes: bytes, pieces: pieces))
    if let failure = failures.first {
        fatalError("\(failure) (layout: \(format.fields.map(\.name)), \(bytes.count) bytes, pieces \(pieces))")
    }
    return 0
}

/// A preset (first byte below 0x7F, optionally with a small max frame length), a delimiter
/// format (0x7F), or a layout built field by field: fixed, varint and bit fields, and a
/// length that may be a varint, carry a multiplier, or be summed with a second length field.
private func layout(_ input: inout FuzzedInput) -> FrameFormat? {
    let selector = input.byte()
    let presets = FrameFormat.presets
    var format: FrameFormat
    if selector < 0x7F {
        format = presets[Int(selector) % presets.count]
    } else if selector == 0x7F {
        let delimiters = (0..<input.value(in: 1...3)).map { _ in (0..<input.value(in: 1...4)).map { _ in input.byte() } }
        guard let built = try? FrameFormat(name: "fuzzed", delimiters: delimiters, keepsDelimiter: input.byte() & 1 == 1) else {
            return nil
        }
        format = built
    } else {
        var fields: [HeaderField] = []
        let count = input.value(in: 0...4)
        let lengthAt = input.value(in: 0...count)
        for index in 0...count {
            let descriptor = input.byte()
            let width = Int(descriptor & 7) + 1
            let order: ByteOrder = descriptor & 8 == 0 ? .bigEndian : .littleEndian
            if index == lengthAt {
                let multiplier = descriptor & 0x20 == 0 ? 1 : UInt64(1) << UInt64(descriptor >> 6)
                fields.append(HeaderField(name: "len", width: width, byteOrder: order, role: .length,
                                          encoding: descriptor & 0x10 == 0 ? .fixed : .varint, lengthMultiplier: multiplier))
                continue
            }
            let name = "f\(index)"
            switch descriptor >> 4 {
            case 0...3: fields.append(HeaderField(name: name, width: width, byteOrder: order))
            case 4: fields.append(HeaderField(name: name, width: width, role: .opaque))
            case 5 where descriptor & 8 == 0: fields.append(HeaderField(name: name, width: width, encoding: .varint))
            case 5:
                let high = Int(descriptor & 7) + 1
                fields.append(HeaderField(name: name, width: 0, encoding: .bits(high)))
                fields.append(HeaderField(name: name + "b", width: 0, encoding: .bits(8 - high)))
            case 6...9:
                let magic = input.integer(width: width)
                fields.append(HeaderField(name: name, width: width, byteOrder: order, expected: magic...magic))
            case 10...12:
                let low = input.integer(width: width)
                let high = low.addingReportingOverflow(UInt64(input.byte() & 15))
                fields.append(HeaderField(name: name, width: width, byteOrder: order, expected: low...(high.overflow ? .max : high.partialValue)))
            default:
                let algorithm: ChecksumAlgorithm = descriptor & 1 == 0 ? .crc32 : .crc32c
                let coverage: ChecksumCoverage = descriptor & 2 == 0 ? .body : .headerAndBody
                fields.append(HeaderField(name: name, width: 4, byteOrder: order, role: .checksum(algorithm, coverage)))
            }
        }
        let options = input.byte()
        if options & 2 != 0 {
            // A computed length: a second length field in front, counting 1 to 16 bytes a unit.
            fields.insert(HeaderField(name: "hlen", width: 1, role: .length, lengthMultiplier: UInt64(options >> 4) + 1), at: 0)
        }
        guard let built = try? FrameFormat(
            name: "fuzzed",
            fields: fields,
            lengthCounts: options & 1 == 0 ? .body : .wholeFrame,
            lengthAdjustment: Int64(Int8(bitPattern: input.byte())),
            maxFrameLength: FrameFormat.defaultMaxFrameLength
        ) else { return nil }
        format = built
    }
    let limit = input.integer(width: 2)
    if limit != 0, format.isDelimited {
        format = (try? FrameFormat(name: format.name, delimiters: format.delimiters, keepsDelimiter: format.keepsDelimiter,
                                   maxFrameLength: Int(limit))) ?? format
    } else if limit != 0 {
        format = (try? FrameFormat(
            name: format.name,
            fields: format.fields,
            lengthCounts: format.lengthCounts,
            lengthAdjustment: format.lengthAdjustment,
            maxFrameLength: Int(limit),
            payloadOffset: format.payloadOffset
        )) ?? format
    }
    return format
}
