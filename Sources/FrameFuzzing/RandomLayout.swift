import FrameCodec

/// Random frame layouts, to fuzz the decoder on shapes no preset has: little-endian and odd
/// widths, magics of one to eight bytes or in mid-header, opaque bytes before the length,
/// whole-frame lengths, negative adjustments, CRC-32C over the whole frame, tiny limits.
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
            default:
                fields.append(HeaderField(name: "value\(index)", width: width(), byteOrder: order()))
            }
        }
        let lengthAt = Int.random(in: 0...fields.count, using: &random)
        fields.insert(HeaderField(name: "len", width: width(), byteOrder: order(), role: .length), at: lengthAt)
        if random.chance(1, in: 3) {
            let algorithm: ChecksumAlgorithm = random.chance(1, in: 2) ? .crc32 : .crc32c
            let coverage: ChecksumCoverage = random.chance(1, in: 2) ? .body : .headerAndBody
            fields.insert(
                HeaderField(name: "crc", width: 4, byteOrder: order(), role: .checksum(algorithm, coverage)),
                at: Int.random(in: 0...fields.count, using: &random)
            )
        }
        let header = fields.reduce(0) { $0 + $1.width }
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
}
