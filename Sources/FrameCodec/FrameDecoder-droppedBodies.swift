/// Frames whose bodies nobody reads: ``FrameDecoder/BodyRetention/withinChunk``.
///
/// ```
/// h12, a 3,000-byte frame in 1,448-byte segments:
/// chunks:   | header + 1,436 body bytes | 1,448 body bytes | 104 body bytes, next frame … |
/// held:       header (12 B)               header (12 B)      next frame …
/// outputs:                                                    frame@0 (3,000 B, holds 12 B), …
/// ```
///
/// The frame's checksum runs over each chunk in place as the chunk arrives (the running checksum
/// that long frames use anyway), so no body byte is copied into the decoder's buffer; the bytes
/// that follow the frame in its last chunk are decoded as usual.
///
/// Only a frame that still misses many bytes when its header is read is dropped: one that
/// spans two or three segments costs fewer instructions copied and checksummed once than
/// checksummed piece by piece (the running checksum's start and finish, and each chunk's
/// update, have a fixed cost; docs/performance.md).
extension FrameDecoder {
    /// Whether a ``FrameDecoder`` hands out every frame whole, or drops the bodies it would
    /// otherwise have to assemble from many chunks.
    public struct BodyRetention: Sendable, Hashable {
        /// Bytes a frame must still miss when its header is read for its body to be dropped;
        /// `nil` when every frame holds all its bytes.
        public var droppingMinimum: Int?

        /// Every frame holds all its bytes (the default).
        public static let always = BodyRetention(droppingMinimum: nil)

        /// A frame of a length-field format that, when its header is read, still misses at
        /// least 16 KiB (the running checksum's threshold) holds its header
        /// only (``Frame/holdsBody`` `false`); every other frame, and every frame of a delimiter
        /// format, holds all its bytes. For a consumer that reads headers, lengths and checksum
        /// verdicts but never a body: nothing of a long frame's body is copied or held.
        public static let withinChunk = dropping(fromMissing: FrameDecoder.defaultRunningChecksumMinimum)

        /// Like ``withinChunk``, from another number of missing bytes.
        ///
        /// - Parameter minimum: bytes a frame must still miss when its header is read for its
        ///   body to be dropped; 1 drops every frame that spans chunks.
        /// - Returns: the retention.
        public static func dropping(fromMissing minimum: Int) -> BodyRetention {
            BodyRetention(droppingMinimum: Swift.max(1, minimum))
        }
    }

    /// Whether the body of the frame now awaited, of which `available` bytes are in the buffer,
    /// is to be dropped (the caller has set ``bytesAwaited``). Not mutating, so that the decode
    /// loops keep their layout borrowed rather than copied.
    @inline(__always)
    func dropsBody(available: Int, headerLength: Int) -> Bool {
        guard let minimum = bodyRetention.droppingMinimum else { return false }
        return bytesAwaited >= minimum && headerLength > 0 && available &+ bytesAwaited <= Int(Frame.headerMask)
    }

    /// Starts dropping the body of the awaited frame, whose first `available` bytes are in the
    /// buffer and whose checksum the caller has started running: the stored checksum is read
    /// now, and the bytes after the header are dropped once decoding stops
    /// (``keepAwaitedHeaderOnly()``).
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

    /// The next chunk of a frame whose body is being dropped: checksummed in place, and once
    /// the frame is complete, the frame handed out with its header and the rest of the chunk
    /// appended to the buffer.
    ///
    /// - Returns: whether the buffer holds bytes to decode (the rest of the chunk), which the
    ///   caller decodes as usual.
    mutating func continueDroppedBody(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows -> Bool {
        let taken = Swift.min(chunk.count, bytesAwaited)
        if layout.checksum != nil { runningChecksum.update(UnsafeRawBufferPointer(rebasing: chunk[..<taken])) }
        droppedByteCount &+= taken
        bytesAwaited &-= taken
        guard bytesAwaited == 0 else { return false }
        // State first, so that a throwing `receive` leaves the decoder ready to carry on. The rest
        // of the chunk goes right after the header, before the frame's slice shares the buffer
        // (nothing is copied on write); the stream offsets from the header's end on move by the
        // bytes dropped.
        let headerStart = readIndex
        let headerEnd = headerStart &+ droppingHeaderLength
        let offset = absoluteOffset(headerStart)
        UnsafeRawBufferPointer(rebasing: chunk[taken...]).withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
        bufferOffset &+= UInt64(droppedByteCount)
        let frame = Frame(offset: offset, header: buffer[headerStart..<headerEnd], droppedByteCount: droppedByteCount,
                          crcOK: layout.checksum.map { _ in UInt64(runningChecksum.finish()) == droppingStoredChecksum })
        readIndex = headerEnd
        droppingHeaderLength = 0
        droppedByteCount = 0
        checksummedCount = 0
        if let start = skipStart {
            // Reported just before the frame, as a frame held whole reports it.
            skipStart = nil
            undelivered.append(.skip(offset: start, byteCount: frame.offset &- start))
            undelivered.append(.frame(frame))
            try deliverUndelivered(receive)
        } else {
            try receive(.frame(frame))
        }
        guard readIndex < buffer.count else {
            reclaimConsumedPrefix()
            return false
        }
        return true
    }
}
