/// Decoding delimiter formats: Netty's `DelimiterBasedFrameDecoder` and `LineBasedFrameDecoder`.
///
/// ```
/// delimiters \r\n and \n:
/// chunks:   | f i r s t \r | \n s e c o n d \n t h | i r d |   finish
/// outputs:                   frame@0 (7 B)  frame@7 (7 B)     truncated@14 (5 B)
/// ```
///
/// - A frame ends at the earliest delimiter (with several delimiters, the shortest frame wins;
///   on a tie, the delimiter listed first). The frame includes its delimiter; the payload
///   stops before it unless the format keeps it (``Frame/trailerLength``).
/// - A frame longer than ``FrameFormat/maxFrameLength`` (without its delimiter) is one `skip`
///   event, reported when the delimiter that ends it arrives; decoding resumes after that
///   delimiter. Its bytes are not held meanwhile: a too-long frame costs no memory.
/// - After a gap (or an abandoned frame), the bytes up to and including the next delimiter are
///   the rest of a frame whose start was never captured: a `skip`.
/// - A delimiter split across chunks is found; no byte is scanned twice except the few at a
///   chunk's end that may start a delimiter (``DelimiterSet/scan(_:from:end:examined:)``).
extension FrameDecoder {
    mutating func decodeDelimitedFrames(
        _ storage: [UInt8],
        _ base: UnsafeRawPointer,
        end: Int,
        _ receive: (FrameDecoderOutput) throws -> Void
    ) rethrows {
        let delimiters = layout.delimiters!
        let maxFrameLength = layout.maxFrameLength
        var position = readIndex
        defer { readIndex = position }
        while position < end {
            let scanFrom = position &+ delimiterScanned
            switch delimiters.scan(base, from: scanFrom, end: end, examined: &bytesExamined) {
            case .notFound(let resume):
                if resyncing {
                    // Bytes that cannot start a delimiter join the skip run now.
                    beginSkip(at: position)
                    position = resume
                    delimiterScanned = 0
                } else if resume &- position > maxFrameLength {
                    beginSkip(at: position)
                    position = resume
                    delimiterScanned = 0
                    resyncing = true
                } else {
                    delimiterScanned = resume &- position
                }
                return
            case .found(let match):
                delimiterScanned = 0
                let frameEnd = match.start &+ match.length
                if resyncing || match.start &- position > maxFrameLength {
                    beginSkip(at: position)
                    resyncing = false
                    position = frameEnd
                    try reportSkip(endingAt: frameEnd, receive)
                    continue
                }
                try emitFrame(storage, base, headersOnly: false, at: &position, length: frameEnd &- position, headerLength: 0, crcOK: nil,
                              trailerLength: delimiters.keeps ? 0 : match.length, receive)
            }
        }
    }
}
