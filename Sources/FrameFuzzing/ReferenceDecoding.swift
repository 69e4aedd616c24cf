import FrameCodec

/// What a correct ``FrameDecoder`` must report for an input, computed the slow, obvious way.
///
/// The model reads the contract literally, one position at a time: at a position with a
/// whole header that passes every `expected` check and declares a length within the limits
/// there is a frame (or, when the segment ends first, a `truncated` tail); a header that fails
/// a check is skipped one byte; a header whose only fault is its length is `oversize` — unless
/// the decoder is *resyncing* (after an oversize or a gap, until the next header that passes
/// every check), when it joins the skip instead, as ``FrameDecoder``'s resync policy says. A
/// decoder scanning for a magic must land on the same positions, since every position it
/// jumps over holds a header with a wrong magic. Where the contract leaves a choice, the model
/// allows each reading (see ``Label``).
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
    var frames: [ExpectedFrame] = []
    /// Allowed labels, one mask per captured byte (index into ``DecoderInput/bytes``).
    ///
    /// The choice the contract leaves open: the bytes after the last whole header of a segment
    /// may be `skip` or `truncated` (how much of a partial header a decoder can judge is its own
    /// business), or `oversize` where the length field is already complete and out of range.
    var allowed: [UInt8]
    /// Raw length values that an `oversize` at a byte index must carry.
    var declared: [Int: UInt64] = [:]

    init(_ input: DecoderInput) {
        let layout = ReferenceLayout(input.format)
        allowed = [UInt8](repeating: 0, count: input.bytes.count)
        for (index, segment) in input.segments.enumerated() {
            if input.format.isDelimited {
                decodeDelimited(segment, of: input.bytes, format: input.format, resyncing: index > 0)
            } else if layout.isWalked {
                decodeWalked(segment, of: input.bytes, layout: layout, resyncing: index > 0)
            } else {
                decode(segment, of: input.bytes, layout: layout, resyncing: index > 0)
            }
        }
    }

    private mutating func decode(_ segment: DecoderInput.Segment, of bytes: [UInt8], layout: ReferenceLayout, resyncing start: Bool) {
        var resyncing = start
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
                if lengthEnd <= end, !resyncing {
                    let raw = layout.value(ofField: layout.lengthFieldIndex, in: bytes, at: position)
                    if layout.frameLength(declared: raw) == nil {
                        allowed[position] |= Label.oversize.rawValue
                        declared[position] = raw
                    }
                }
                return
            }
            let raw = layout.value(ofField: layout.lengthFieldIndex, in: bytes, at: position)
            guard layout.fieldsValid(in: bytes, at: position), layout.lengthValueExpected(raw) else {
                allowed[position] = Label.skip.rawValue
                position += 1
                continue
            }
            guard let length = layout.frameLength(declared: raw) else {
                markBadLength(at: position, declared: raw, resyncing: &resyncing)
                position += 1
                continue
            }
            resyncing = false
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
        }
    }

    /// A header whose only fault is its length: `oversize` carrying `raw`, or — while
    /// resyncing — a skipped byte.
    mutating func markBadLength(at position: Int, declared raw: UInt64, resyncing: inout Bool) {
        if resyncing {
            allowed[position] = Label.skip.rawValue
        } else {
            allowed[position] = Label.oversize.rawValue
            declared[position] = raw
            resyncing = true
        }
    }
}
