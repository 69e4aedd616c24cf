import FrameCodec

/// Random frame layouts, to fuzz the decoder on shapes no preset has: little-endian and odd
/// widths, magics of one to eight bytes or in mid-header, opaque bytes before the length,
/// whole-frame lengths, negative adjustments, CRC-32C over the whole frame, tiny limits;
/// varint lengths and values, bit fields, lengths computed from two fields with a multiplier,
/// and delimiter formats with overlapping delimiters.
public enum RandomLayout {
    /// A well-formed layout drawn from `random` that can hold at least one frame.
    public static func make(_ random: inout FuzzRandom) -> FrameFormat {
        while true {
            if let format = attempt(&random), FuzzCase.bodyRange(ReferenceLayout(format)) != nil {
                return format
            }
        }
    }

    private static func attempt(_ random: inout FuzzRandom) -> FrameFormat? {
        if random.chance(1, in: 6) { return delimited(&random) }
        var fields: [HeaderField] = []
        func order() -> ByteOrder { random.chance(1, in: 2) ? .bigEndian : .littleEndian }
        func width() -> Int { random.chance(3, in: 4) ? [1, 2, 4].randomElement(using: &random)! : Int.random(in: 1...8, using: &random) }
        if random.chance(2, in: 3) {
            let magicWidth = width()
            let magic = random.edgy(in: 0...ReferenceLayout.maxValue(width: magicWidth))
            fields.append(HeaderField(name: "magic", width: magicWidth, byteOrder: order(), expected: magic...magic))
        }
        for index in 0..<Int.random(in: 0...3, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                fields.append(HeaderField(name: "pad\(index)", width: Int.random(in: 1...3, using: &random), role: .opaque))
            case 1:
                let fieldWidth = width()
                let low = random.edgy(in: 0...ReferenceLayout.maxValue(width: fieldWidth))
                let high = low + UInt64.random(in: 0...min(8, ReferenceLayout.maxValue(width: fieldWidth) - low), using: &random)
                fields.append(HeaderField(name: "kind\(index)", width: fieldWidth, byteOrder: order(), expected: low...high))
            case 2 where random.chance(1, in: 2):
                if random.chance(1, in: 2) {
                    fields.append(HeaderField(name: "varint\(index)", width: Int.random(in: 1...10, using: &random), encoding: .varint))
                } else {
                    for (part, bits) in bitGroup(&random).enumerated() {
                        let expected: ClosedRange<UInt64>? = part == 0 && random.chance(1, in: 3) ? 1...(UInt64(1) << UInt64(bits)) - 1 : nil
                        fields.append(HeaderField(name: "bits\(index)_\(part)", width: 0, expected: expected, encoding: .bits(bits)))
                    }
                }
            default:
                fields.append(HeaderField(name: "value\(index)", width: width(), byteOrder: order()))
            }
        }
        // Insert only between whole bytes: never inside a group of bit fields.
        let boundaries = (0...fields.count).filter { $0 == 0 || fields[$0 - 1].bitCount == nil || bitsEnd(fields, at: $0) }
        let lengthAt = boundaries.randomElement(using: &random)!
        let length = random.chance(1, in: 3)
            ? HeaderField(name: "len", width: Int.random(in: 1...10, using: &random), role: .length, encoding: .varint)
            : HeaderField(name: "len", width: width(), byteOrder: order(), role: .length)
        fields.insert(length, at: lengthAt)
        if random.chance(1, in: 4) {
            // A computed length: another length field before `len`, counting units of 1 to 8 bytes.
            let multiplier = [1, 2, 4, 8].randomElement(using: &random)!
            let extra = random.chance(1, in: 3)
                ? HeaderField(name: "hlen", width: Int.random(in: 1...3, using: &random), role: .length, encoding: .varint,
                              lengthMultiplier: UInt64(multiplier))
                : HeaderField(name: "hlen", width: [1, 2].randomElement(using: &random)!, byteOrder: order(), role: .length,
                              lengthMultiplier: UInt64(multiplier))
            fields.insert(extra, at: boundaries.filter { $0 <= lengthAt }.randomElement(using: &random)!)
        }
        if random.chance(1, in: 3) {
            let algorithm: ChecksumAlgorithm = random.chance(1, in: 2) ? .crc32 : .crc32c
            let coverage: ChecksumCoverage = random.chance(1, in: 2) ? .body : .headerAndBody
            let places = (0...fields.count).filter { $0 == 0 || fields[$0 - 1].bitCount == nil || bitsEnd(fields, at: $0) }
            fields.insert(
                HeaderField(name: "crc", width: 4, byteOrder: order(), role: .checksum(algorithm, coverage)),
                at: places.randomElement(using: &random)!
            )
        }
        let bits = fields.reduce(0) { $0 + ($1.bitCount ?? 0) }
        let header = fields.reduce(0) { $0 + $1.width } + bits / 8
        let counts: LengthCounts = random.chance(1, in: 3) ? .wholeFrame : .body
        var adjustment = random.chance(1, in: 2) ? 0 : Int64.random(in: -8...8, using: &random)
        if counts == .wholeFrame, random.chance(1, in: 2) { adjustment = Int64(header) }
        let maxFrameLength = random.chance(1, in: 2)
            ? FrameFormat.defaultMaxFrameLength
            : header + Int(random.edgy(in: 0...UInt64(random.chance(1, in: 2) ? 300 : 1 << 20)))
        return try? FrameFormat(
            name: "random",
            fields: fields,
            lengthCounts: counts,
            lengthAdjustment: adjustment,
            maxFrameLength: maxFrameLength
        )
    }

    /// Bit widths of one group of bit fields filling one or two bytes.
    private static func bitGroup(_ random: inout FuzzRandom) -> [Int] {
        [[4, 4], [1, 7], [3, 5], [1, 3, 4], [5, 11], [2, 2, 2, 2], [8], [12, 4]].randomElement(using: &random)!
    }

    /// Whether the bit fields before `index` end on a byte boundary.
    private static func bitsEnd(_ fields: [HeaderField], at index: Int) -> Bool {
        var bits = 0
        for field in fields[..<index] { bits += field.bitCount ?? 0 }
        return bits % 8 == 0
    }

    /// A delimiter format: one to three delimiters of one to four bytes from a small alphabet,
    /// so that they overlap and share first bytes.
    private static func delimited(_ random: inout FuzzRandom) -> FrameFormat? {
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x23, 0x00, UInt8.random(in: 0...255, using: &random)]
        let delimiters = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            (0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
        }
        let maxFrameLength = random.chance(1, in: 2) ? FrameFormat.defaultMaxFrameLength : Int(random.edgy(in: 0...300))
        return try? FrameFormat(name: "random", delimiters: delimiters, keepsDelimiter: random.chance(1, in: 2),
                                maxFrameLength: maxFrameLength)
    }
}
