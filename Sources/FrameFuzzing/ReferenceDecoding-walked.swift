import FrameCodec

/// The reference model for walked layouts (varints, bit fields, computed lengths) and for
/// delimiter formats, position by position like ``ReferenceDecoding``'s fixed-layout model.
extension ReferenceDecoding {
    /// As the fixed-layout model, with each header read by ``ReferenceLayout/read(_:at:end:)``:
    /// a check that fails is a skipped byte, a malformed varint a bad length (`oversize` with
    /// declared `UInt64.max`, or a skipped byte while resyncing), and a header the segment
    /// ends in is a tail that may be `skip` or `truncated`.
    mutating func decodeWalked(_ segment: DecoderInput.Segment, of bytes: [UInt8], layout: ReferenceLayout, resyncing start: Bool) {
        var resyncing = start
        let end = segment.range.upperBound
        var position = segment.range.lowerBound
        while position < end {
            let read = layout.read(bytes, at: position, end: end)
            var declaredLength: UInt64 = .max
            switch read {
            case .needMore:
                for index in position..<end { allowed[index] = Label.skip.rawValue | Label.truncated.rawValue }
                return
            case .invalid:
                allowed[position] = Label.skip.rawValue
                position += 1
                continue
            case .malformed:
                break
            case .header(let header):
                declaredLength = header.declared
                if let length = layout.frameLength(declared: header.declared, headerLength: header.length) {
                    resyncing = false
                    guard end - position >= length else {
                        for index in position..<end { allowed[index] = Label.truncated.rawValue }
                        return
                    }
                    frames.append(ExpectedFrame(
                        offset: segment.offset + UInt64(position - segment.range.lowerBound),
                        length: length,
                        crcOK: layout.checksumOK(in: bytes, at: position, length: length, header: header)
                    ))
                    for index in position..<(position + length) { allowed[index] = Label.frame.rawValue }
                    position += length
                    continue
                }
            }
            markBadLength(at: position, declared: declaredLength, resyncing: &resyncing)
            position += 1
        }
    }

    /// Netty's delimiter semantics, read straight off the segment: the frame from a position
    /// ends at the earliest delimiter wholly inside the segment, the one listed first on a tie;
    /// a frame longer than the max is skipped through its delimiter; after a gap, the bytes
    /// through the first delimiter are skipped. Where an earlier-listed delimiter could still
    /// match past the segment's end, the decoder waits, so the rest is the tail: `truncated`,
    /// or `skip` when already longer than the max or resyncing.
    mutating func decodeDelimited(_ segment: DecoderInput.Segment, of bytes: [UInt8], format: FrameFormat, resyncing start: Bool) {
        var resyncing = start
        let end = segment.range.upperBound
        var position = segment.range.lowerBound
        while position < end {
            var match: (start: Int, length: Int)?
            var waitAt: Int?
            search: for candidate in position..<end {
                for delimiter in format.delimiters {
                    if candidate + delimiter.count <= end {
                        if bytes[candidate..<(candidate + delimiter.count)].elementsEqual(delimiter) {
                            match = (candidate, delimiter.count)
                            break search
                        }
                    } else if bytes[candidate..<end].elementsEqual(delimiter.prefix(end - candidate)) {
                        waitAt = candidate
                        break search
                    }
                }
            }
            guard let match else {
                let known = waitAt ?? end
                let label = resyncing || known - position > format.maxFrameLength ? Label.skip : Label.truncated
                for index in position..<end { allowed[index] = label.rawValue }
                return
            }
            let frameEnd = match.start + match.length
            if resyncing || match.start - position > format.maxFrameLength {
                for index in position..<frameEnd { allowed[index] = Label.skip.rawValue }
                resyncing = false
            } else {
                frames.append(ExpectedFrame(
                    offset: segment.offset + UInt64(position - segment.range.lowerBound),
                    length: frameEnd - position,
                    crcOK: nil
                ))
                for index in position..<frameEnd { allowed[index] = Label.frame.rawValue }
            }
            position = frameEnd
        }
    }
}

extension ReferenceLayout {
    /// ``checksumOK(in:at:length:)`` for a walked header: the field at its read offset.
    func checksumOK(in bytes: [UInt8], at start: Int, length: Int, header: Header) -> Bool? {
        guard let index = checksumFieldIndex, case .checksum(let algorithm, let coverage) = format.fields[index].role else {
            return nil
        }
        let fieldStart = start + header.offsets[index]
        let covered = coverage == .body ? (start + header.length)..<(start + length) : start..<(start + length)
        let computed = ReferenceChecksum.checksum(algorithm, of: bytes, range: covered, zeroed: fieldStart..<(fieldStart + 4))
        return UInt64(computed) == header.values[index]
    }
}
