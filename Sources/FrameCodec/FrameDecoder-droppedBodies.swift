/// Frames whose bodies nobody reads: ``FrameDecoder/BodyRetention/headersOnly``.
///
/// ```
/// h12, frames of 1,000 and 3,000 bytes in 1,448-byte segments:
/// chunks:   | 1,000 B frame, header + 436 B | 1,448 body bytes | 1,104 body bytes, next … |
/// held:       header (12 B)                   header (12 B)      …
/// outputs:    frame@0 (1,000 B, holds 12 B)                      frame@1000 (3,000 B, holds 12 B), …
/// ```
///
/// A chunk is framed where it lies: a frame wholly inside it is checksummed in place and handed
/// out with its header copied into a small array the decoder reuses (``FrameDecoder/headerScratch``);
/// a frame it leaves unfinished keeps its header in the buffer, its checksum run over the
/// body bytes the chunk holds and then over each later chunk in place (``CRC32/Running``), and
/// is handed out holding its header once the chunk that completes it arrives. Only a header
/// that a chunk cuts is copied into the buffer, with as many of the next chunk's bytes as
/// complete it; no body byte is ever copied. Every output is the one a decoder holding bodies
/// gives, apart from the bytes a frame holds.
///
/// After a receiver threw, the rest of the chunk waits in the buffer (as it would holding
/// bodies) and is decoded from there, its frames holding their headers alike, until the
/// decoder holds no more than a header again.
extension FrameDecoder {
    /// Whether a ``FrameDecoder`` hands out every frame whole, or frames of a length-field
    /// format with their headers only.
    public enum BodyRetention: Sendable, Hashable {
        /// Every frame holds all its bytes (the default).
        case always
        /// Every frame of a length-field format holds its header only (``Frame/holdsBody``
        /// `false`, ``Frame/droppedByteCount`` its body's length), whether it lies inside one
        /// chunk or spans many; every frame of a delimiter format holds all its bytes. For a
        /// consumer that reads headers, lengths and checksum verdicts but never a body: no body
        /// byte is copied or held, each checksummed where the chunk that brought it lies.
        case headersOnly
    }

    /// Bytes of storage an emptied buffer keeps when frames hold their headers only: enough for
    /// the header of a frame a chunk leaves unfinished, so that such a frame, one in almost
    /// every segment of a capture, costs no allocation. Larger storage (a chunk kept after a
    /// receiver threw) is released, as with bodies held.
    static let keptHeaderCapacity = 64

    /// Whether the body of the frame now awaited, of which `available` bytes are in the buffer,
    /// is to be dropped (the caller has set ``bytesAwaited``). Not mutating, so that the decode
    /// loops keep their layout borrowed rather than copied.
    @inline(__always)
    func dropsBody(available: Int, headerLength: Int) -> Bool {
        holdsHeadersOnly && headerLength > 0 && available &+ bytesAwaited <= Int(Frame.headerMask)
    }

    /// Starts dropping the body of the awaited frame, whose first `available` bytes are in the
    /// buffer and whose checksum the caller has started running: the stored checksum is read
    /// now, and the bytes after the header are dropped once decoding stops
    /// (``keepAwaitedHeaderOnly()`` or ``keepTail(of:)``).
    ///
    /// - Parameter checksumOffset: the checksum field's offset in the header; `nil` without one.
    @inline(__always)
    mutating func startDroppingBody(_ header: UnsafeRawPointer, available: Int, headerLength: Int, checksumOffset: Int?) {
        if let checksumOffset, let checksum = layout.checksum {
            droppingStoredChecksum = header.loadInteger(fromByteOffset: checksumOffset, width: FrameLayout.Checksum.width,
                                                        byteOrder: checksum.byteOrder)
        }
        droppingHeaderLength = headerLength
        droppedByteCount = available &- headerLength
    }

    /// Cuts the buffer back to the awaited frame's header when its body is being dropped. The
    /// bytes cut are the buffer's last, so nothing moves.
    @inline(__always)
    mutating func keepAwaitedHeaderOnly() {
        guard droppingHeaderLength > 0 else { return }
        let headerEnd = readIndex &+ droppingHeaderLength
        if headerEnd < buffer.count { buffer.removeSubrange(headerEnd...) }
    }

    /// ``process(_:_:)-(UnsafeRawBufferPointer,_)`` with ``BodyRetention/headersOnly``, for a
    /// length-field format.
    mutating func processHeadersOnly(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        if droppingHeaderLength > 0 {
            guard bytesAwaited > chunk.count else { return try completeDroppedBody(chunk, receive) }
            // Body only, the common case: checksummed where it lies, nothing kept.
            bytesAwaited &-= chunk.count
            droppedByteCount &+= chunk.count
            if layout.checksum != nil { runningChecksum.update(chunk) }
            return
        }
        if undelivered.isEmpty, bytesAwaited == 0 {
            if bufferedByteCount == 0 { return try decodeInPlace(chunk, from: 0, receive) }
            if bufferedByteCount < layout.headerLength { return try completeHeader(chunk, receive) }
        }
        try appendAndDecode(chunk, receive)
    }

    /// Frames `chunk[start...]` where it lies, then keeps what it leaves unfinished: a frame's
    /// header, or an unfinished header. The decoder's unconsumed bytes, if any, are copies of
    /// the chunk's bytes from `start` on (a header the chunk's head completed), and are let go.
    mutating func decodeInPlace(_ chunk: UnsafeRawBufferPointer, from start: Int, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        // Positions are the chunk's, as if it were the buffer; what the buffer holds is not read
        // until ``keepTail(of:)`` replaces it.
        bufferOffset = absoluteOffset(readIndex) &- UInt64(truncatingIfNeeded: start)
        readIndex = start
        defer { keepTail(of: chunk) }
        guard let base = chunk.baseAddress else { return }
        try decodeLengthFieldFrames([], base, end: chunk.count, receive)
    }

    /// The chunk after an unfinished header the buffer holds: only the bytes that complete the
    /// header are appended and decoded there, then the rest is taken as the state left says —
    /// as the body of a frame now awaited, or framed in place. A header that fails its checks
    /// moves decoding on by a byte, to a candidate that may need more: a second round appends a
    /// header's length, after which decoding has moved into the chunk (with a header's worth of
    /// bytes past each position before it) unless the chunk is shorter.
    private mutating func completeHeader(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        var taken = 0
        var wanted = layout.headerLength &- bufferedByteCount
        while true {
            let more = Swift.min(chunk.count &- taken, wanted)
            UnsafeRawBufferPointer(rebasing: chunk[taken..<(taken &+ more)]).withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
            taken &+= more
            let rest = UnsafeRawBufferPointer(rebasing: chunk[taken...])
            bytesAwaited = 0
            do {
                try decodeBuffered(receive)
            } catch {
                // The whole chunk is taken whatever `receive` does: the rest waits in the buffer.
                rest.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
                throw error
            }
            if droppingHeaderLength > 0 {
                keepAwaitedHeaderOnly()
                return try processHeadersOnly(rest, receive)
            }
            let chunkStart = buffer.count &- taken
            if readIndex >= chunkStart { return try decodeInPlace(chunk, from: readIndex &- chunkStart, receive) }
            if rest.isEmpty { return reclaimConsumedPrefix() }
            // Not decided within a header's length: only a frame too long to drop (above 2⁵⁶
            // bytes) is, and it is held as with bodies held.
            guard wanted < layout.headerLength else { return try appendAndDecode(rest, receive) }
            wanted = layout.headerLength
        }
    }

    /// The chunk that completes a frame whose body is being dropped: checksummed in place up to
    /// the frame's end, the frame handed out with its header, and the rest of the chunk framed
    /// in place.
    private mutating func completeDroppedBody(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        let taken = bytesAwaited
        if layout.checksum != nil { runningChecksum.update(UnsafeRawBufferPointer(rebasing: chunk[..<taken])) }
        droppedByteCount &+= taken
        bytesAwaited = 0
        // State first, so that a throwing `receive` leaves the decoder ready to carry on; the
        // stream offsets from the header's end on move by the bytes dropped.
        let headerStart = readIndex
        let headerEnd = headerStart &+ droppingHeaderLength
        let offset = absoluteOffset(headerStart)
        let dropped = droppedByteCount
        let crcOK = layout.checksum.map { _ in UInt64(runningChecksum.finish()) == droppingStoredChecksum }
        bufferOffset &+= UInt64(dropped)
        readIndex = headerEnd
        droppingHeaderLength = 0
        droppedByteCount = 0
        checksummedCount = 0
        do {
            // The frame, a slice of the buffer, lives only in here: once a receiver that does
            // not keep it returns, the buffer is again the only reference to its storage.
            let frame = Frame(offset: offset, header: buffer[headerStart..<headerEnd], droppedByteCount: dropped, crcOK: crcOK)
            if let start = skipStart {
                // Reported just before the frame, as a frame held whole reports it.
                skipStart = nil
                undelivered.append(.skip(offset: start, byteCount: offset &- start))
                undelivered.append(.frame(frame))
                try deliverUndelivered(receive)
            } else {
                try receive(.frame(frame))
            }
        } catch {
            UnsafeRawBufferPointer(rebasing: chunk[taken...]).withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
            throw error
        }
        try decodeInPlace(chunk, from: taken, receive)
    }

    /// The header at `header`, `count` bytes, copied into ``headerScratch``: written in place
    /// unless a receiver kept the previous frame, so a frame costs no allocation.
    ///
    /// - Returns: the scratch's first `count` bytes.
    ///
    /// Out of line, so that the decode loops stay as small as they were for frames held whole.
    @inline(never)
    mutating func scratchHeader(_ header: UnsafeRawPointer, count: Int) -> ArraySlice<UInt8> {
        // As long as the layout's longest header, so that a walked layout's headers of several
        // lengths share it.
        if headerScratch.count < count { headerScratch = Array(repeating: 0, count: Swift.max(count, layout.headerLength)) }
        headerScratch.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: header, byteCount: count) }
        return headerScratch[..<count]
    }
}
