import FrameCodec

extension FuzzCase {
    /// Draws a case for `format` from `seed`.
    ///
    /// About a third of the cases are clean streams (the round trip must be exact); the rest
    /// carry one to three damage steps. The format's max frame length is sometimes lowered
    /// (same layout, small limit) so length limits and buffered-memory bounds are hit with
    /// small inputs. Bodies are mostly small, sometimes up to 1 MiB; the frames stay within
    /// `byteBudget` bytes (2 MiB by default) plus one frame.
    public init(seed: UInt64, format baseFormat: FrameFormat, byteBudget: Int = 2 << 20) {
        var random = FuzzRandom(seed: seed)
        let format = Self.limitVariant(of: baseFormat, &random)
        let layout = ReferenceLayout(format)
        // A layout no frame fits (say, a length field whose one allowed value exceeds the
        // limit) gets no frames; damage then makes the whole stream.
        let bodies = Self.bodyRange(layout)
        let damaged = random.chance(2, in: 3)
        let magicFree = damaged && random.chance(3, in: 4)

        var frames: [GeneratedFrame] = []
        let frameCount = bodies == nil ? 0
            : random.chance(1, in: 8) ? Int.random(in: 0...400, using: &random) : Int.random(in: 0...12, using: &random)
        var total = 0
        for _ in 0..<frameCount where total < byteBudget {
            let frame = Self.frame(layout, bodies: bodies ?? 0...0, budget: byteBudget - total, avoidMagic: magicFree, &random)
            total += layout.headerLength + frame.body.count
            frames.append(frame)
        }

        var damage: [StreamDamage] = []
        if damaged {
            for _ in 0..<(random.chance(3, in: 4) ? 1 : Int.random(in: 2...3, using: &random)) {
                if let step = Self.damageStep(layout, frames: frames, &random) { damage.append(step) }
            }
        }

        let chunking: Chunking
        switch Int.random(in: 0..<8, using: &random) {
        case 0: chunking = .whole
        case 1: chunking = total <= 16 << 10 ? .bytewise : .random(seed: random.next(), maxSize: 16)
        case 2, 3: chunking = .boundaries(seed: random.next())
        case 4: chunking = .random(seed: random.next(), maxSize: Int.random(in: 1...8, using: &random))
        case 5: chunking = .random(seed: random.next(), maxSize: 1 << Int.random(in: 10...21, using: &random))
        default: chunking = .random(seed: random.next(), maxSize: Int.random(in: 1...300, using: &random))
        }
        self.init(seed: seed, format: format, frames: frames, damage: damage, chunking: chunking)
    }

    /// The format, or one case in four the same layout with a small max frame length.
    private static func limitVariant(of format: FrameFormat, _ random: inout FuzzRandom) -> FrameFormat {
        guard random.chance(1, in: 4) else { return format }
        let header = format.headerLength
        let limit = header + Int(random.edgy(in: 0...UInt64(random.chance(1, in: 2) ? 64 : 4096)))
        guard limit < format.maxFrameLength else { return format }
        if format.isDelimited {
            return (try? FrameFormat(name: format.name, delimiters: format.delimiters, keepsDelimiter: format.keepsDelimiter,
                                     maxFrameLength: limit, payloadOffset: format.payloadOffset)) ?? format
        }
        guard let variant = try? FrameFormat(
                  name: format.name,
                  fields: format.fields,
                  lengthCounts: format.lengthCounts,
                  lengthAdjustment: format.lengthAdjustment,
                  maxFrameLength: limit,
                  payloadOffset: format.payloadOffset
              ),
              bodyRange(ReferenceLayout(variant)) != nil
        else { return format }
        return variant
    }

    /// Body lengths a valid frame can have: the length field must hold the declared value
    /// (within its width and `expected` range), and the frame must stay within the max frame
    /// length. `nil` when none fits.
    static func bodyRange(_ layout: ReferenceLayout) -> ClosedRange<Int>? {
        if layout.format.isDelimited { return 0...layout.format.maxFrameLength }
        if layout.isWalked { return walkedBodyRange(layout) }
        let field = layout.format.fields[layout.lengthFieldIndex]
        let widest = Int64(clamping: ReferenceLayout.maxValue(width: field.width))
        let rawLowest = Int64(clamping: field.expected?.lowerBound ?? 0)
        let rawHighest = min(widest, Int64(clamping: field.expected?.upperBound ?? .max))
        // body = raw + adjustment (- header length when the length counts the whole frame)
        var shift = layout.format.lengthAdjustment
        if layout.format.lengthCounts == .wholeFrame { shift = shift.subtractingClamped(Int64(layout.headerLength)) }
        let lowest = max(0, rawLowest.addingClamped(shift))
        let highest = min(Int64(layout.format.maxFrameLength - layout.headerLength), rawHighest.addingClamped(shift))
        guard rawLowest <= rawHighest, lowest <= highest else { return nil }
        return Int(lowest)...Int(highest)
    }

    /// ``bodyRange(_:)`` for a walked layout: the encoder computes the last length field, the
    /// other length fields start at their lowest value (the generator may raise them where the
    /// encoder still fits the frame), and the header is anywhere from its shortest to its
    /// longest, so the range is the bodies that fit with either.
    private static func walkedBodyRange(_ layout: ReferenceLayout) -> ClosedRange<Int>? {
        let format = layout.format
        guard let computed = format.lengthFieldIndices.last else { return nil }
        let field = format.fields[computed]
        var others: Int64 = 0
        for index in format.lengthFieldIndices where index != computed {
            let low = format.fields[index].expected?.lowerBound ?? 0
            others = others.addingClamped(Int64(clamping: low.multipliedReportingOverflow(by: format.fields[index].lengthMultiplier).partialValue))
        }
        let rawLowest = Int64(clamping: field.expected?.lowerBound ?? 0)
        let rawHighest = min(Int64(clamping: ReferenceLayout.maxValue(of: field)), Int64(clamping: field.expected?.upperBound ?? .max))
        // A computed field counting several bytes per unit fits only some bodies: none generated.
        guard rawLowest <= rawHighest, field.lengthMultiplier == 1 else { return nil }
        // counted = raw × multiplier + others + adjustment; counted is the body, or the frame.
        let base = others.addingClamped(layout.format.lengthAdjustment)
        let countedLowest = rawLowest.addingClamped(base)
        let countedHighest = rawHighest.addingClamped(base)
        let wholeFrame = format.lengthCounts == .wholeFrame
        let lowest = max(0, wholeFrame ? countedLowest.subtractingClamped(Int64(layout.minimumHeaderLength)) : countedLowest)
        let highest = min(Int64(format.maxFrameLength - layout.headerLength),
                          wholeFrame ? countedHighest.subtractingClamped(Int64(layout.headerLength)) : countedHighest)
        guard lowest <= highest else { return nil }
        return Int(lowest)...Int(highest)
    }

    private static func frame(
        _ layout: ReferenceLayout,
        bodies: ClosedRange<Int>,
        budget: Int,
        avoidMagic: Bool,
        _ random: inout FuzzRandom
    ) -> GeneratedFrame {
        var fields: [String: UInt64] = [:]
        for field in layout.format.fields where field.role == .value {
            let widest = ReferenceLayout.maxValue(of: field)
            fields[field.name] = random.edgy(in: field.expected ?? 0...widest)
        }
        let upper = min(bodies.upperBound, max(bodies.lowerBound, budget))
        let cap: Int
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<60: cap = 16
        case 60..<85: cap = 256
        case 85..<95: cap = 4096
        case 95..<99: cap = 64 << 10
        default: cap = 1 << 20
        }
        let length = Int(random.edgy(in: UInt64(bodies.lowerBound)...UInt64(min(upper, bodies.lowerBound + cap))))
        var body: [UInt8]
        switch Int.random(in: 0..<8, using: &random) {
        case 0: body = [UInt8](repeating: 0, count: length)
        case 1: body = (0..<length).map { _ in layout.magicBytes?.randomElement(using: &random) ?? 0xFF }
        default: body = random.bytes(length)
        }
        if avoidMagic, let first = layout.magicBytes?.first {
            for index in body.indices where body[index] == first { body[index] = first &+ 1 }
        }
        if layout.format.isDelimited {
            // No delimiter may start inside a body, or frames would not decode independently.
            let firsts = Set(layout.format.delimiters.map { $0[0] })
            for index in body.indices {
                while firsts.contains(body[index]) { body[index] &+= 1 }
            }
        }
        // Length fields besides the computed one: a random value where the frame still encodes.
        let computed = layout.format.lengthFieldIndices.last
        for index in layout.format.lengthFieldIndices where index != computed && random.chance(2, in: 3) {
            let field = layout.format.fields[index]
            var trial = fields
            trial[field.name] = random.edgy(in: field.expected ?? 0...min(ReferenceLayout.maxValue(of: field), 64))
            if (try? FrameEncoder(format: layout.format).encode(fields: trial, body: body)) != nil { fields = trial }
        }
        return GeneratedFrame(fields: fields, body: body)
    }

    private static func damageStep(_ layout: ReferenceLayout, frames: [GeneratedFrame], _ random: inout FuzzRandom) -> StreamDamage? {
        let frame = Int.random(in: 0...frames.count, using: &random)
        let at = Int.random(in: 0..<(1 << 20), using: &random)
        let headerAt = Int.random(in: 0..<max(1, layout.headerLength), using: &random)
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            return .flipBits(frame: frame, at: random.chance(1, in: 2) ? headerAt : at, mask: 1 << UInt8.random(in: 0...7, using: &random))
        case 1:
            let count = random.chance(1, in: 8) ? Int.random(in: 0...5000, using: &random) : Int.random(in: 1...16, using: &random)
            var garbage = random.bytes(count)
            if let magic = layout.magicBytes, random.chance(1, in: 2) {
                // Partial magics make a scanner back off; a whole one is a false start.
                for index in garbage.indices where random.chance(1, in: 3) {
                    garbage[index] = magic[random.chance(1, in: 2) ? 0 : Int.random(in: 0..<magic.count, using: &random)]
                }
            }
            return .insertGarbage(frame: frame, at: random.chance(1, in: 2) ? 0 : at, bytes: garbage)
        case 2:
            return .insertPartialFrame(frame: frame, length: random.chance(2, in: 3) ? headerAt : at)
        case 3:
            return .deleteBytes(frame: frame, at: random.chance(1, in: 2) ? headerAt : at, count: Int.random(in: 1...32, using: &random))
        case 4:
            let values = oversizeValues(layout, &random)
            guard let value = values.randomElement(using: &random) else { return nil }
            return .declareLength(frame: frame, value: value)
        case 5:
            guard layout.checksumFieldIndex != nil else { return nil }
            return .corruptChecksum(frame: frame, mask: 1 << UInt32.random(in: 0...31, using: &random))
        case 6:
            let count = Int.random(in: 1...64, using: &random)
            let reported = random.chance(1, in: 8) ? random.edgy(in: 1...(UInt64(1) << 40)) : UInt64(count)
            return .gap(frame: frame, at: random.chance(1, in: 2) ? headerAt : at, count: count, reported: reported)
        case 7:
            return .truncate(frame: frame, at: random.chance(1, in: 2) ? headerAt : at)
        default:
            return .flipBits(frame: frame, at: at, mask: UInt8.random(in: 1...255, using: &random))
        }
    }

    /// Length-field values the format must reject: one past the limit, the field's maximum,
    /// values that go below the header length, and random large ones.
    private static func oversizeValues(_ layout: ReferenceLayout, _ random: inout FuzzRandom) -> [UInt64] {
        guard !layout.format.isDelimited, !layout.isWalked else { return [] }
        let widest = ReferenceLayout.maxValue(width: layout.format.fields[layout.lengthFieldIndex].width)
        var candidates: [UInt64] = [widest, 0, 1, random.edgy(in: 0...widest)]
        let header = Int64(layout.headerLength)
        var onePast = Int64(layout.format.maxFrameLength) + 1 - layout.format.lengthAdjustment
        if layout.format.lengthCounts == .body { onePast -= header }
        if onePast >= 0 { candidates.append(UInt64(onePast)) }
        return candidates.filter { $0 <= widest && layout.frameLength(declared: $0) == nil && layout.lengthValueExpected($0) }
    }
}

extension Int64 {
    fileprivate func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    fileprivate func subtractingClamped(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
