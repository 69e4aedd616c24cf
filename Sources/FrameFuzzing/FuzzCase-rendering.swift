import FrameCodec

/// A case turned into decoder input, with what its construction promises about the output.
struct RenderedCase {
    /// An output the contract promises for a damaged frame at a stream offset.
    enum Effect: Hashable {
        /// Damage that left a valid header of the same length: the frame, crc_ok recomputed.
        case frame(offset: UInt64, length: Int, crcOK: Bool?)
        /// A header whose only fault is the length it declares.
        case oversize(offset: UInt64, declaredLength: UInt64)

        var offset: UInt64 {
            switch self {
            case .frame(let offset, _, _), .oversize(let offset, _): offset
            }
        }
    }

    var input: DecoderInput
    /// Frames no damage touched, at their stream offsets, as the decoder must report them.
    var intactFrames: [ReferenceDecoding.ExpectedFrame] = []
    /// Stream ranges of damaged frames and inserted bytes, in order; adjacent ones merged.
    var damagedRanges: [Range<UInt64>] = []
    var effects: [Effect] = []
    /// Fed-byte indices worth cutting at: frame starts, field edges, header ends.
    var boundaries: [Int] = []
}

extension FuzzCase {
    /// One frame's bytes, or inserted bytes, on their way into the stream.
    private struct Part {
        var bytes: [UInt8]
        /// Index of the generated frame, `nil` for inserted bytes and the end marker.
        var frame: Int?
        /// Damage steps applied to it.
        var damageCount = 0
        /// Where a gap replaces bytes, and its reported size.
        var gap: (at: Int, reported: UInt64)?
        var isEnd = false
    }

    /// Encodes the frames, applies the damage and cuts the stream.
    ///
    /// - Throws: ``FuzzFailure`` with ``FuzzFailure/Property/encoder`` when the encoder
    ///   rejects a frame the format allows or writes one that does not read back.
    func render() throws(FuzzFailure) -> RenderedCase {
        let layout = ReferenceLayout(format)
        var parts = try encodedFrames(layout).enumerated().map { Part(bytes: $1, frame: $0) }
        parts.append(Part(bytes: [], frame: nil, isEnd: true))

        func partIndex(_ frame: Int) -> Int? {
            frame == frames.count ? parts.count - 1 : parts.firstIndex { $0.frame == frame }
        }

        let ordered = damage.filter { !$0.isDeferred } + damage.filter(\.isDeferred)
        var cut: (part: Int, at: Int)?
        for step in ordered {
            guard let index = partIndex(step.frame), cut.map({ index <= $0.part }) ?? true else { continue }
            let count = parts[index].bytes.count
            switch step {
            case .flipBits(_, let at, let mask):
                guard count > 0 else { continue }
                parts[index].bytes[at % count] ^= mask
            case .insertGarbage(_, let at, let bytes):
                if count == 0 || at % (count + 1) == 0 {
                    parts.insert(Part(bytes: bytes, frame: nil), at: index)
                    continue
                }
                parts[index].bytes.insert(contentsOf: bytes, at: at % (count + 1))
            case .insertPartialFrame(_, let length):
                guard count >= 2 else { continue }
                parts.insert(Part(bytes: Array(parts[index].bytes.prefix(1 + length % (count - 1))), frame: nil), at: index)
                continue
            case .deleteBytes(_, let at, let deleted):
                guard count > 0 else { continue }
                let start = at % count
                parts[index].bytes.removeSubrange(start..<min(count, start + max(1, deleted)))
            case .declareLength(_, let value):
                // Walked layouts get bad lengths from flipped bits instead.
                guard !layout.isWalked, !format.isDelimited, count >= layout.headerLength else { continue }
                let field = format.fields[layout.lengthFieldIndex]
                let start = layout.fieldOffsets[layout.lengthFieldIndex]
                let encoded = ReferenceLayout.encode(value, width: field.width, byteOrder: field.byteOrder)
                parts[index].bytes.replaceSubrange(start..<(start + field.width), with: encoded)
            case .corruptChecksum(_, let mask):
                guard let field = layout.checksumFieldIndex,
                      case .header(let header) = layout.read(parts[index].bytes, at: 0, end: count) else { continue }
                let start = header.offsets[field]
                for position in 0..<4 {
                    parts[index].bytes[start + position] ^= UInt8(truncatingIfNeeded: mask >> UInt32(position * 8))
                }
            case .gap(_, let at, let removed, let reported):
                guard count > 0, parts[index].gap == nil else { continue }
                let start = at % count
                parts[index].bytes.removeSubrange(start..<min(count, start + max(1, removed)))
                parts[index].gap = (start, max(1, reported))
            case .truncate(_, let at):
                guard cut == nil else { continue }
                cut = (index, count == 0 ? 0 : at % count)
            }
            parts[index].damageCount += 1
        }
        if let cut {
            parts.removeSubrange((cut.part + 1)...)
            // A gap applied after the cut was chosen may have shortened the part.
            parts[cut.part].bytes.removeSubrange(min(cut.at, parts[cut.part].bytes.count)...)
        }
        return assemble(parts, layout)
    }

    private func encodedFrames(_ layout: ReferenceLayout) throws(FuzzFailure) -> [[UInt8]] {
        let encoder = FrameEncoder(format: format)
        var result: [[UInt8]] = []
        for (index, frame) in frames.enumerated() {
            let bytes: [UInt8]
            do {
                bytes = try encoder.encode(fields: frame.fields, body: frame.body)
            } catch {
                throw FuzzFailure(.encoder, "frame \(index) (fields \(frame.fields), \(frame.body.count)-byte body): \(error)")
            }
            if let problem = Self.encodingProblem(bytes, frame, layout) {
                throw FuzzFailure(.encoder, "frame \(index) (fields \(frame.fields), \(frame.body.count)-byte body): \(problem)")
            }
            result.append(bytes)
        }
        return result
    }

    /// What is wrong with an encoded frame, read back without the codec's header code.
    private static func encodingProblem(_ bytes: [UInt8], _ frame: GeneratedFrame, _ layout: ReferenceLayout) -> String? {
        if layout.format.isDelimited {
            return bytes == frame.body + layout.format.delimiters[0] ? nil : "not the body followed by the first delimiter"
        }
        if layout.isWalked { return walkedEncodingProblem(bytes, frame, layout) }
        let length = layout.headerLength + frame.body.count
        guard bytes.count == length else { return "encoded as \(bytes.count) bytes, expected \(length)" }
        guard bytes[layout.headerLength...].elementsEqual(frame.body) else { return "body bytes differ" }
        for (index, field) in layout.format.fields.enumerated() where field.role != .opaque {
            let value = layout.value(ofField: index, in: bytes, at: 0)
            if index == layout.lengthFieldIndex {
                let declared = layout.declaredValue(forFrameLength: length)
                if value != declared { return "length field \(value), expected \(declared.map(String.init) ?? "none")" }
            } else if let given = frame.fields[field.name], value != given {
                return "field \(field.name) is \(value), given \(given)"
            } else if let expected = field.expected, !expected.contains(value) {
                return "field \(field.name) is \(value), outside \(expected)"
            }
        }
        if layout.checksumOK(in: bytes, at: 0, length: length) == false { return "checksum does not match" }
        return nil
    }

    /// ``encodingProblem(_:_:_:)`` for a walked layout: the header read back field by field.
    private static func walkedEncodingProblem(_ bytes: [UInt8], _ frame: GeneratedFrame, _ layout: ReferenceLayout) -> String? {
        guard case .header(let header) = layout.read(bytes, at: 0, end: bytes.count) else { return "header does not read back" }
        guard bytes.count == header.length + frame.body.count else {
            return "encoded as \(bytes.count) bytes, expected \(header.length + frame.body.count)"
        }
        guard bytes[header.length...].elementsEqual(frame.body) else { return "body bytes differ" }
        guard layout.frameLength(declared: header.declared, headerLength: header.length) == bytes.count else {
            return "the length fields declare \(header.declared), not this \(bytes.count)-byte frame"
        }
        for (index, field) in layout.format.fields.enumerated() where field.role != .opaque {
            if let given = frame.fields[field.name], header.values[index] != given {
                return "field \(field.name) is \(header.values[index]), given \(given)"
            }
        }
        if layout.checksumOK(in: bytes, at: 0, length: bytes.count, header: header) == false { return "checksum does not match" }
        return nil
    }

    private func assemble(_ parts: [Part], _ layout: ReferenceLayout) -> RenderedCase {
        var bytes: [UInt8] = []
        var gaps: [(at: Int, count: UInt64)] = []
        var rendered = RenderedCase(input: DecoderInput(format: format, bytes: []))
        var offset: UInt64 = 0

        func markDamaged(_ range: Range<UInt64>) {
            if let last = rendered.damagedRanges.last, last.upperBound >= range.lowerBound {
                rendered.damagedRanges[rendered.damagedRanges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                rendered.damagedRanges.append(range)
            }
        }

        for part in parts {
            let start = offset
            let fedStart = bytes.count
            if let gap = part.gap {
                // A truncation may have cut the part short of where its gap was.
                let at = min(gap.at, part.bytes.count)
                bytes += part.bytes[..<at]
                if let last = gaps.last, last.at == bytes.count {
                    gaps[gaps.count - 1].count &+= gap.reported
                } else {
                    gaps.append((bytes.count, gap.reported))
                }
                bytes += part.bytes[at...]
                offset &+= UInt64(part.bytes.count) &+ gap.reported
            } else {
                bytes += part.bytes
                offset &+= UInt64(part.bytes.count)
            }
            if part.frame != nil {
                rendered.boundaries.append(fedStart)
                for fieldOffset in layout.fieldOffsets + [layout.headerLength - 1, layout.headerLength, layout.headerLength + 1, part.bytes.count - 1]
                where fieldOffset > 0 && fieldOffset < part.bytes.count {
                    rendered.boundaries.append(fedStart + fieldOffset)
                }
            }
            switch (part.frame, part.damageCount) {
            case (_?, 0):
                rendered.intactFrames.append(ReferenceDecoding.ExpectedFrame(
                    offset: start,
                    length: part.bytes.count,
                    crcOK: layout.checksumFieldIndex == nil ? nil : true
                ))
            case (_?, 1) where part.gap == nil:
                markDamaged(start..<offset)
                if let effect = Self.effect(of: part.bytes, at: start, layout) { rendered.effects.append(effect) }
            case (nil, _) where part.isEnd && part.damageCount == 0:
                break
            default:
                markDamaged(start..<offset)
            }
        }
        rendered.input = DecoderInput(format: format, bytes: bytes)
        rendered.input.pieces = pieces(bytes.count, gaps: gaps, boundaries: rendered.boundaries)
        return rendered
    }

    /// The output a once-damaged frame must still produce, when the contract fixes one.
    private static func effect(of bytes: [UInt8], at offset: UInt64, _ layout: ReferenceLayout) -> RenderedCase.Effect? {
        if layout.format.isDelimited { return nil }
        if layout.isWalked {
            switch layout.read(bytes, at: 0, end: bytes.count) {
            case .needMore, .invalid:
                return nil
            case .malformed:
                return .oversize(offset: offset, declaredLength: .max)
            case .header(let header):
                guard let length = layout.frameLength(declared: header.declared, headerLength: header.length) else {
                    return .oversize(offset: offset, declaredLength: header.declared)
                }
                guard length == bytes.count else { return nil }
                return .frame(offset: offset, length: length, crcOK: layout.checksumOK(in: bytes, at: 0, length: length, header: header))
            }
        }
        guard bytes.count >= layout.headerLength, layout.fieldsValid(in: bytes, at: 0) else { return nil }
        let raw = layout.value(ofField: layout.lengthFieldIndex, in: bytes, at: 0)
        guard layout.lengthValueExpected(raw) else { return nil }
        guard let length = layout.frameLength(declared: raw) else {
            return .oversize(offset: offset, declaredLength: raw)
        }
        guard length == bytes.count else { return nil }
        return .frame(offset: offset, length: length, crcOK: layout.checksumOK(in: bytes, at: 0, length: length))
    }

    /// The calls that feed `count` bytes cut as ``chunking`` says, with the gaps in place.
    private func pieces(_ count: Int, gaps: [(at: Int, count: UInt64)], boundaries: [Int]) -> [DecoderInput.Piece] {
        var cuts: [Int] = []
        switch chunking {
        case .whole:
            break
        case .bytewise:
            cuts = Array(0..<count)
        case .random(let seed, let maxSize):
            var random = FuzzRandom(seed: seed)
            var position = 0
            while position < count {
                position += random.chance(1, in: 16) ? 0 : Int.random(in: 1...max(1, maxSize), using: &random)
                cuts.append(min(position, count))
            }
        case .boundaries(let seed):
            var random = FuzzRandom(seed: seed)
            cuts = boundaries.filter { _ in random.chance(2, in: 3) }
            for _ in 0..<Int.random(in: 0...8, using: &random) where count > 0 {
                cuts.append(Int.random(in: 0...count, using: &random))
            }
            cuts.sort()
        }
        var pieces: [DecoderInput.Piece] = []
        var position = 0
        var nextGap = gaps[...]
        for cut in cuts + [count] {
            while let gap = nextGap.first, gap.at <= cut {
                if gap.at > position || pieces.isEmpty { pieces.append(.chunk(gap.at - position)) }
                pieces.append(.gap(gap.count))
                position = gap.at
                nextGap.removeFirst()
            }
            if cut > position || (cut == position && chunking != .bytewise) { pieces.append(.chunk(cut - position)) }
            position = cut
        }
        return pieces
    }
}

extension StreamDamage {
    /// Gaps and truncation apply after the byte edits, so edits never land in removed bytes.
    fileprivate var isDeferred: Bool {
        switch self {
        case .gap, .truncate: true
        default: false
        }
    }
}
