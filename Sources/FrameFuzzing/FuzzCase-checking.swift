import FrameCodec

extension FuzzCase {
    /// Renders the case, runs the decoder with the case's chunking and with the whole stream
    /// in one call (byte by byte when small), and returns every property broken.
    ///
    /// Beyond ``DecoderOracle``'s general properties it checks what the case's construction
    /// promises: a clean stream decodes to exactly its frames; frames before any damage come
    /// back intact; a damaged header whose only fault is its length is `oversize` (when the
    /// decoder meets it in step, not resyncing after an earlier oversize or gap); a damaged
    /// frame that still has a valid header of its length comes back with `crc_ok` recomputed;
    /// and, for formats with a magic, every intact frame after a damaged stretch is
    /// recovered once the decoder has passed the stretch and met the next magic, which the
    /// generator keeps out of bodies in most damaged cases.
    public func check() -> [FuzzFailure] {
        let rendered: RenderedCase
        do {
            rendered = try render()
        } catch {
            return [error]
        }
        let alternative: DecoderInput
        if chunking != .whole {
            alternative = rendered.input.rechunked { [$0] }
        } else if rendered.input.bytes.count <= 4096 {
            alternative = rendered.input.rechunked { Array(repeating: 1, count: $0) }
        } else {
            alternative = rendered.input
        }
        var failures: [FuzzFailure] = []
        for input in chunking == .whole && alternative == rendered.input ? [rendered.input] : [rendered.input, alternative] {
            let (outputs, general) = DecoderOracle.decode(input)
            failures += general
            if general.isEmpty { failures += promisedOutputFailures(outputs, rendered) }
            if !failures.isEmpty { break }
        }
        return failures
    }

    /// The input as the decoder is first fed it (for printing), or `nil` when encoding fails.
    public var decoderInput: DecoderInput? { try? render().input }

    /// Bytes of the frames before damage: what the case roughly feeds the decoder.
    public var approximateByteCount: Int {
        let header = format.headerLength
        return frames.reduce(0) { $0 + header + $1.body.count }
    }

    /// Whether the case damages its stream.
    public var isDamaged: Bool { !damage.isEmpty }

    private func promisedOutputFailures(_ outputs: [DecoderRun.Output], _ rendered: RenderedCase) -> [FuzzFailure] {
        let frames: [DecoderRun.Output] = rendered.intactFrames.map { .frame(offset: $0.offset, length: $0.length, crcOK: $0.crcOK) }
        if damage.isEmpty {
            guard outputs == frames else {
                let difference = zip(outputs, frames).enumerated().first { $1.0 != $1.1 }?.offset ?? min(outputs.count, frames.count)
                let got = difference < outputs.count ? "\(outputs[difference])" : "nothing"
                let wanted = difference < frames.count ? "\(frames[difference])" : "nothing"
                return [FuzzFailure(.roundTrip, "output \(difference): got \(got), encoded \(wanted) (\(frames.count) frames encoded, \(outputs.count) outputs)")]
            }
            return []
        }
        var failures: [FuzzFailure] = []
        let reported = Set(outputs)
        // Whether the decoder judged a header at `offset` (an output starts there, or a skip
        // passes it) while in step: the last output before it other than a skip is a frame.
        func judgedInStep(_ offset: UInt64) -> Bool {
            var inStep = true
            for output in outputs {
                switch output {
                case .skip(let start, let count) where start <= offset && offset - start < count:
                    return inStep
                case _ where output.offset == offset:
                    return inStep
                case _ where output.offset > offset:
                    return false
                case .frame:
                    inStep = true
                case .skip:
                    break
                default:
                    inStep = false
                }
            }
            return false
        }
        for effect in rendered.effects where judgedInStep(effect.offset) {
            let expected: DecoderRun.Output
            switch effect {
            case .frame(let offset, let length, let crcOK): expected = .frame(offset: offset, length: length, crcOK: crcOK)
            case .oversize(let offset, let declared): expected = .oversize(offset: offset, declaredLength: declared)
            }
            if !reported.contains(expected) {
                failures.append(FuzzFailure(.recovery, "damaged frame at \(effect.offset) must come out as \(expected); outputs there: \(outputs.filter { $0.offset == effect.offset })"))
            }
        }
        for required in recoverableFrames(outputs, rendered) where !reported.contains(required) {
            failures.append(FuzzFailure(.recovery, "intact \(required) after damage at \(rendered.damagedRanges.map { "\($0)" }) was not recovered"))
            break
        }
        return failures
    }

    /// Intact frames the decoder must report: those before the first damage, and, for a
    /// format with a magic, those from the first real magic after each damaged stretch (and
    /// after any frame or tail that swallowed it or that magic) up to the next stretch.
    private func recoverableFrames(_ outputs: [DecoderRun.Output], _ rendered: RenderedCase) -> [DecoderRun.Output] {
        let intact = rendered.intactFrames
        let ranges = rendered.damagedRanges
        func frames(from start: UInt64, before end: UInt64?) -> [DecoderRun.Output] {
            intact.filter { frame in
                frame.offset >= start && end.map { frame.offset + UInt64(frame.length) <= $0 } ?? true
            }
            .map { .frame(offset: $0.offset, length: $0.length, crcOK: $0.crcOK) }
        }
        var required = frames(from: 0, before: ranges.first?.lowerBound ?? .max)
        let layout = ReferenceLayout(format)
        guard let magic = layout.magicBytes else { return required }
        // The end of a frame or tail that begins before `offset` and reaches `at`: a frame read
        // with a damaged length, a tail waiting for one, or a frame that happens to parse out of
        // step in the bytes after the damage (a magic of zeros in zeros) legitimately swallows
        // what follows; a skip must not pass over a real magic.
        func swallowingEnd(at offset: UInt64, reaching: (UInt64, UInt64) -> Bool) -> UInt64? {
            for output in outputs where output.offset < offset && reaching(output.offset, output.byteCount) {
                switch output {
                case .frame, .truncated: return output.offset + output.byteCount
                default: continue
                }
            }
            return nil
        }
        for (index, range) in ranges.enumerated() {
            var resume = range.upperBound
            if range.upperBound > 0,
               let end = swallowingEnd(at: range.upperBound, reaching: { range.upperBound - $0 <= $1 }) {
                resume = max(resume, end)
            }
            var candidate = firstMagic(magic, layout, in: rendered.input, from: resume)
            while let start = candidate, let end = swallowingEnd(at: start, reaching: { start - $0 < $1 }) {
                candidate = firstMagic(magic, layout, in: rendered.input, from: end)
            }
            guard let start = candidate, intact.contains(where: { $0.offset == start }) else { continue }
            required += frames(from: start, before: index + 1 < ranges.count ? ranges[index + 1].lowerBound : nil)
        }
        return required
    }

    /// Stream offset of the first header position at or after `offset` whose magic bytes
    /// are in place, or `nil`.
    private func firstMagic(_ magic: [UInt8], _ layout: ReferenceLayout, in input: DecoderInput, from offset: UInt64) -> UInt64? {
        for segment in input.segments {
            let end = segment.offset + UInt64(segment.range.count)
            guard end > offset else { continue }
            let startOffset = max(offset, segment.offset)
            var index = segment.range.lowerBound + Int(startOffset - segment.offset) + layout.magicOffset
            while index + magic.count <= segment.range.upperBound {
                if input.bytes[index..<(index + magic.count)].elementsEqual(magic) {
                    return segment.offset + UInt64(index - layout.magicOffset - segment.range.lowerBound)
                }
                index += 1
            }
        }
        return nil
    }
}
