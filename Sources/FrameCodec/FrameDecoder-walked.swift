/// Decoding layouts read field by field: varints (protobuf's delimited streams, MQTT's
/// remaining length), bit fields, and lengths computed from several fields.
extension FrameDecoder {
    /// The loop of ``decodeFrames(_:_:end:_:)`` for a layout with ``FrameLayout/steps``: each
    /// candidate header is walked field by field, so a varint shifts the fields after it and
    /// the header length is the frame's own. The resync policy is the same; a malformed varint
    /// (longer than its width, or over 64 bits) is a bad length: `oversize`, with a declared
    /// length of `UInt64.max`.
    mutating func decodeWalkedFrames(
        _ storage: [UInt8],
        _ base: UnsafeRawPointer,
        end: Int,
        steps: [FrameLayout.Step],
        _ receive: (FrameDecoderOutput) throws -> Void
    ) rethrows {
        let layout = self.layout
        var position = readIndex
        defer { readIndex = position }
        while position < end {
            let available = end &- position
            if let magic = layout.magic {
                guard available >= magic.end else { break }
                let value = (base + position).loadInteger(fromByteOffset: magic.offset, width: magic.width, byteOrder: magic.byteOrder,
                                                          readableCount: available)
                if value != magic.value {
                    beginSkip(at: position)
                    position = Self.nextMagicCandidate(base, from: position &+ 1, end: end, magic: magic)
                    continue
                }
            }
            let header = base + position
            let scan = layout.soleVarintWidth > 0
                ? FrameLayout.scanSoleVarint(header, available: available, width: layout.soleVarintWidth)
                : FrameLayout.scan(steps, header, available: available)
            switch scan {
            case .needMore:
                return
            case .invalid:
                beginSkip(at: position)
                position &+= 1
            case .malformed:
                try passBadLength(at: &position, declared: .max, receive)
            case .header(let headerLength, let declared, let checksumOffset):
                guard let frameLength = layout.frameLength(declared: declared, headerLength: headerLength) else {
                    try passBadLength(at: &position, declared: declared, receive)
                    continue
                }
                resyncing = false
                guard available >= frameLength else {
                    bytesAwaited = frameLength &- available
                    return
                }
                let crcOK: Bool? = layout.checksum.map {
                    Self.checksumMatches(header, frameLength: frameLength, $0, fieldOffset: checksumOffset, headerLength: headerLength)
                }
                try reportSkip(endingAt: position, receive)
                let start = position
                position &+= frameLength
                readIndex = position
                try receive(.frame(Frame(
                    offset: absoluteOffset(start),
                    bytes: storage[start..<position],
                    headerLength: headerLength,
                    crcOK: crcOK
                )))
            }
        }
    }
}
