import FrameCodec

/// Checks one decoder run against the contract properties that need nothing but the input:
/// the outputs tile the stream, every byte is accounted for once, frames and events match the
/// reference model, memory stays bounded; and a decoder that holds headers only gives the same
/// outputs, holding no more, whether its receiver returns or throws now and then.
///
/// Case-specific expectations (the encoded frames come back; frames after damage are
/// recovered) are checked by ``FuzzCase``, which knows how its stream was made.
public enum DecoderOracle {
    /// Runs the decoder over `input` and returns every property it broke (empty when none).
    public static func check(_ input: DecoderInput) -> [FuzzFailure] {
        decode(input).failures
    }

    /// The decoder's outputs, for case-specific checks, and the general properties it broke.
    static func decode(_ input: DecoderInput) -> (outputs: [DecoderRun.Output], failures: [FuzzFailure]) {
        let run = DecoderRun(input)
        var failures = run.failures
        if let failure = tilingFailure(run.outputs, input) {
            failures.append(failure)
        } else if let failure = referenceFailure(run.outputs, input) {
            failures.append(failure)
        }
        let dropping = DecoderRun(input, bodyRetention: .headersOnly)
        failures += dropping.failures
        if let failure = droppedBodiesFailure(dropping, against: run) { failures.append(failure) }
        let interrupted = DecoderRun(input, bodyRetention: .headersOnly, throwing: true)
        failures += interrupted.failures
        if let failure = outputsFailure(interrupted, against: run, .throwingReceiver, "with a receiver that throws") {
            failures.append(failure)
        }
        return (run.outputs, failures)
    }

    /// A run with ``FrameDecoder/BodyRetention/headersOnly`` against one with `.always` over the
    /// same input: the same outputs, and after every call no more bytes held and as many pending.
    static func droppedBodiesFailure(_ dropping: DecoderRun, against holding: DecoderRun) -> FuzzFailure? {
        if let failure = outputsFailure(dropping, against: holding, .droppedBodies, "holding headers only") { return failure }
        for (call, (dropped, held)) in zip(dropping.bufferedAfterEachCall, holding.bufferedAfterEachCall).enumerated()
        where dropped.held > held.held || dropped.pending != held.held {
            return FuzzFailure(.droppedBodies, "after call \(call) the decoder holding headers only holds \(dropped.held) bytes of \(dropped.pending) pending; holding bodies, \(held.held)")
        }
        return nil
    }

    /// The first output where `run` differs from `reference`, as a failure of `property`.
    ///
    /// - Parameter what: how `run` was made, for the failure's detail.
    /// - Returns: `nil` when the outputs are the same.
    static func outputsFailure(_ run: DecoderRun, against reference: DecoderRun, _ property: FuzzFailure.Property, _ what: String) -> FuzzFailure? {
        let common = min(run.outputs.count, reference.outputs.count)
        let differing = (0..<common).first { run.outputs[$0] != reference.outputs[$0] }
        guard let index = differing ?? (run.outputs.count != reference.outputs.count ? common : nil) else { return nil }
        let got = index < run.outputs.count ? "\(run.outputs[index])" : "nothing"
        let expected = index < reference.outputs.count ? "\(reference.outputs[index])" : "nothing"
        return FuzzFailure(property, "output \(index) \(what) is \(got); holding bodies, with a receiver that returns, \(expected)")
    }

    /// Every output starts where the previous one ended, none is empty, none crosses a gap,
    /// each gap is reported once at its place, and together they cover the whole stream.
    static func tilingFailure(_ outputs: [DecoderRun.Output], _ input: DecoderInput) -> FuzzFailure? {
        var cursor: UInt64 = 0
        var remaining = outputs[...]
        for segment in input.segments {
            let segmentEnd = segment.offset + UInt64(segment.range.count)
            while cursor < segmentEnd {
                guard let output = remaining.popFirst() else {
                    return FuzzFailure(.accounting, "bytes \(cursor)..<\(segmentEnd) are in no output (outputs end there)")
                }
                if case .gap = output {
                    return FuzzFailure(.accounting, "\(output) at stream offset \(cursor), where bytes were captured up to \(segmentEnd)")
                }
                guard output.offset == cursor else {
                    return FuzzFailure(.accounting, "\(output) does not start where the previous output ended (\(cursor))")
                }
                guard output.byteCount > 0 else {
                    return FuzzFailure(.accounting, "\(output) accounts for no bytes")
                }
                guard output.byteCount <= segmentEnd - cursor else {
                    return FuzzFailure(.accounting, "\(output) runs past the captured bytes, which end at \(segmentEnd)")
                }
                cursor += output.byteCount
            }
            if let gap = segment.gapAfter {
                let expected = DecoderRun.Output.gap(offset: cursor, byteCount: gap)
                guard let output = remaining.popFirst(), output == expected else {
                    return FuzzFailure(.accounting, "expected \(expected) after the bytes before it, got \(remaining.first.map { "\($0)" } ?? "nothing")")
                }
                cursor &+= gap
            }
        }
        if let extra = remaining.first {
            return FuzzFailure(.accounting, "\(extra) after the end of the stream (\(cursor) bytes)")
        }
        return nil
    }

    /// Compares tiled outputs with ``ReferenceDecoding``: the same frames, and every other
    /// byte reported as something the model allows there.
    static func referenceFailure(_ outputs: [DecoderRun.Output], _ input: DecoderInput) -> FuzzFailure? {
        let reference = ReferenceDecoding(input)
        var frames = reference.frames[...]
        let segments = input.segments
        var segmentIndex = 0
        for output in outputs {
            if case .gap = output {
                segmentIndex += 1
                continue
            }
            while output.offset >= segments[segmentIndex].offset + UInt64(segments[segmentIndex].range.count) {
                segmentIndex += 1
            }
            let segment = segments[segmentIndex]
            let first = segment.range.lowerBound + Int(output.offset - segment.offset)
            let label: ReferenceDecoding.Label
            switch output {
            case .frame(let offset, let length, let crcOK):
                let expected = frames.popFirst()
                guard let expected, expected == ReferenceDecoding.ExpectedFrame(offset: offset, length: length, crcOK: crcOK) else {
                    return FuzzFailure(.reference, "decoder reported \(output); the reference expects \(describe(expected, reference, at: first, output.offset))")
                }
                continue
            case .skip: label = .skip
            case .truncated: label = .truncated
            case .oversize(_, let declaredLength):
                label = .oversize
                if reference.allowed[first] & label.rawValue != 0, reference.declared[first] != declaredLength {
                    return FuzzFailure(.reference, "decoder reported \(output); the header there declares \(reference.declared[first].map(String.init) ?? "no length")")
                }
            case .gap: continue
            }
            for index in first..<(first + Int(output.byteCount)) where reference.allowed[index] & label.rawValue == 0 {
                let offset = output.offset + UInt64(index - first)
                return FuzzFailure(.reference, "decoder reported \(output), so byte \(offset) as \(label); the reference expects \(describe(frames.first, reference, at: index, offset))")
            }
        }
        if let missing = frames.first {
            return FuzzFailure(.reference, "decoder never reported the reference's \(missing)")
        }
        return nil
    }

    private static func describe(
        _ frame: ReferenceDecoding.ExpectedFrame?,
        _ reference: ReferenceDecoding,
        at index: Int,
        _ offset: UInt64
    ) -> String {
        let mask = index < reference.allowed.count ? reference.allowed[index] : 0
        if mask & ReferenceDecoding.Label.frame.rawValue != 0, let frame {
            return "\(frame)"
        }
        let names = [ReferenceDecoding.Label.skip, .oversize, .truncated].filter { mask & $0.rawValue != 0 }
        return "byte \(offset) to be \(names.map { "\($0)" }.joined(separator: " or "))"
    }
}
