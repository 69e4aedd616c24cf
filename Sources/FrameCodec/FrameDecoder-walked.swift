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
        let headersOnly = holdsHeadersOnly
        var position = readIndex
        defer { readIndex = position }
        while position < end {
            let available = end &- position
            if let magic = layout.magic {
                switch checkMagic(magic, base, at: &position, end: end) {
                case .inPlace: break
                case .passedOver: continue
                case .notYetReadable: return
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
                let frameLength: Int
                switch try judgeLength(declared: declared, headerLength: headerLength, available: available, at: &position, receive) {
                case .whole(let length): frameLength = length
                case .passedOver: continue
                case .awaited:
                    let drops = dropsBody(available: available, headerLength: headerLength)
                    if let checksum = layout.checksum, drops || bytesAwaited >= runningChecksumMinimum {
                        startRunningChecksum(Self.checksum(header, count: available, checksum, fieldOffset: checksumOffset,
                                                           headerLength: headerLength), checksum.tables, count: available, at: position)
                    }
                    if drops { startDroppingBody(header, available: available, headerLength: headerLength, checksumOffset: checksumOffset) }
                    return
                }
                var crcOK: Bool?
                if let checksum = layout.checksum {
                    crcOK = Self.checksumMatches(header, frameLength: frameLength, checksum, fieldOffset: checksumOffset,
                                                 headerLength: headerLength, resuming: takeRunningChecksum(at: position))
                }
                try emitFrame(storage, base, headersOnly: headersOnly, at: &position, length: frameLength, headerLength: headerLength, crcOK: crcOK, receive)
            }
        }
    }
}
