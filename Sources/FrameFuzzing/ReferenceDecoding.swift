import FrameCodec

/// What a correct ``FrameDecoder`` must report for an input, computed the slow, obvious way.
///
/// The model reads the contract literally, one position at a time: at a position with a
/// whole, valid header whose declared length fits the limits there is a frame (or, when the
/// stream or segment ends first, a `truncated` tail); a header that fails an `expected` check
/// is skipped one byte; a header whose only fault is its length is `oversize`. A decoder
/// scanning for a magic must land on the same positions, since every position it jumps over
/// holds a header with a wrong magic. Where the contract leaves a choice, the model allows
/// each reading (see ``Label``).
struct ReferenceDecoding {
    /// What a stream position may be reported as; a position's allowed set is a bit mask.
    enum Label: UInt8 {
        case frame = 1
        case skip = 2
        case oversize = 4
        case truncated = 8
    }

    struct ExpectedFrame: Hashable {
        var offset: UInt64
        var length: Int
        var crcOK: Bool?
    }

    /// Frames in stream order.
    private(set) var frames: [ExpectedFrame] = []
    /// Allowed labels, one mask per captured byte (index into ``DecoderInput/bytes``).
    ///
    /// Choices the contract leaves open:
    /// - a header with both a bad field and a bad length, or a length value outside the length
    ///   field's own `expected` range, may be `skip` or `oversize`;
    /// - fewer bytes than a header at the end of a segment may be `skip` or `truncated`
    ///   (how much of a partial header a decoder can judge is its own business), or
    ///   `oversize` when the length field is already complete and out of range.
    private(set) var allowed: [UInt8]
    /// Raw length values that an `oversize` at a byte index must carry.
    private(set) var declared: [Int: UInt64] = [:]

    init(_ input: DecoderInput) {
        let layout = ReferenceLayout(input.format)
        allowed = [UInt8](repeating: 0, count: input.bytes.count)
        for segment in input.segments {
            decode(segment, of: input.bytes, layout: layout)
        }
    }

    private mutating func decode(_ segment: DecoderInput.Segment, of bytes: [UInt8], layout: ReferenceLayout) {
        let end = segment.range.upperBound
        let headerLength = layout.headerLength
        let lengthField = layout.format.fields[layout.lengthFieldIndex]
        var position = segment.range.lowerBound
        while position < end {
            guard end - position >= headerLength else {
                let lengthEnd = position + layout.fieldOffsets[layout.lengthFieldIndex] + lengthField.width
                for index in position..<end {
                    allowed[index] = Label.skip.rawValue | Label.truncated.rawValue
                }
                if lengthEnd <= end {
                    let raw = layout.value(ofField: layout.lengthFieldIndex, in: bytes, at: position)
                    if layout.frameLength(declared: raw) == nil {
                        allowed[position] |= Label.oversize.rawValue
                        declared[position] = raw
                    }
                }
                return
            }
            let raw = layout.value(ofField: layout.lengthFieldIndex, in: bytes, at: position)
            let otherFieldsValid = layout.fieldsValid(in: bytes, at: position)
            let lengthExpected = layout.lengthValueExpected(raw)
            switch (otherFieldsValid, lengthExpected, layout.frameLength(declared: raw)) {
            case (true, true, let length?):
                guard end - position >= length else {
                    for index in position..<end { allowed[index] = Label.truncated.rawValue }
                    return
                }
                let offset = segment.offset + UInt64(position - segment.range.lowerBound)
                frames.append(ExpectedFrame(
                    offset: offset,
                    length: length,
                    crcOK: layout.checksumOK(in: bytes, at: position, length: length)
                ))
                for index in position..<(position + length) { allowed[index] = Label.frame.rawValue }
                position += length
            case (false, true, _?):
                allowed[position] = Label.skip.rawValue
                position += 1
            case (true, true, nil):
                allowed[position] = Label.oversize.rawValue
                declared[position] = raw
                position += 1
            default:
                allowed[position] = Label.skip.rawValue | Label.oversize.rawValue
                declared[position] = raw
                position += 1
            }
        }
    }
}
