/// The reassembly buffer: turns one stream's chunks into frames. One instance per TCP direction.
///
/// Feed it the stream's bytes in chunks of any size, from one byte to megabytes; it calls back
/// with every frame a chunk completes, in stream order, and holds partial frames until the rest
/// arrives. With the `fefd` layout (`FE FD`, then a big-endian u16 body length):
///
/// ```
/// chunks:   | FE FD 00 02 AA | BB FE FD 00 | 00 FE FD 00 05 01 |   finish
/// outputs:                   frame@0 (6 B)  frame@6 (4 B)        truncated@10 (5 B)
/// ```
///
/// This mirrors swift-nio-extras' `LengthFieldBasedFrameDecoder` (Netty's
/// `LengthFieldBasedFrameDecoder`) driven by `NIOSingleStepByteToMessageProcessor`, with the
/// parts a capture tool needs on top: absolute offsets, resync after garbage, and events for
/// every byte that is not in a frame.
///
/// ### Accounting
/// Every byte fed is in exactly one ``FrameDecoderOutput``: a frame, a `skip`, an `oversize`
/// (its one byte), a `truncated` tail, or a `gap`. Offsets are absolute `UInt64` positions in
/// the stream, counted from `startOffset` (they wrap modulo 2⁶⁴ rather than trap).
///
/// ### Resync policy
/// - **Bad magic** (the format's single-valued field, at any header offset): the decoder scans
///   forward for the magic's bytes, eight bytes at a time, and resumes at the match minus the
///   magic's offset. The bytes passed over are one `skip` event, however many chunks the run
///   of garbage spans; it is reported just before the next frame or event.
/// - **Other checked fields** (an ``HeaderField/expected`` range): a header that fails one is
///   passed over one byte at a time, those bytes joining the same `skip`.
/// - **Bad length**: a declared frame length (header included, after ``FrameFormat/lengthAdjustment``)
///   above ``FrameFormat/maxFrameLength``, below the header length, or whose arithmetic
///   overflows is one `oversize` event for the header's first byte; nothing of the declared
///   size is allocated and decoding resumes at the next byte. The decoder is then
///   *resyncing*: until a header passes every check, further bad lengths are not reported one
///   by one but join a single `skip`. Without that, a magic-less format (`u16`, `u32`) would
///   turn a run of garbage into one `oversize` per byte.
/// - **Gap** (``noteGap(byteCount:_:)``): the buffered unfinished bytes are reported as
///   `truncated`, then the `gap`; the decoder is then resyncing, as after an oversize.
///
/// The decoder never stalls: every pass over the buffer either emits a frame, passes over at
/// least one byte, or waits for more input.
///
/// ### Checksums
/// A frame whose checksum does not match is still delivered, with ``Frame/crcOK`` `false`.
/// The checksum is computed over the frame's bytes in place (for
/// ``ChecksumCoverage/headerAndBody``: the header before the checksum field, four zero bytes,
/// then the rest), never copied. A frame still missing many bytes when its header is read
/// (``defaultRunningChecksumMinimum``) has its checksum carried forward over each chunk as the
/// chunk arrives, so its completion checksums only the last chunk's bytes.
///
/// ### Memory and cost
/// The chunk is appended to one growing buffer and frames are handed out as zero-copy slices
/// of it (see ``Frame``); with ``BodyRetention/headersOnly`` it is framed where it lies instead
/// (below). The consumed prefix is reclaimed only when that is cheap relative to
/// the work done: the buffer is emptied in place when everything in it was consumed, and
/// otherwise compacted (the unconsumed tail moved to the front) only once the consumed prefix
/// is at least 2 KiB *and* at least as long as the tail it moves, so total bytes moved stay
/// below total bytes fed — cost is linear in the input. The unconsumed bytes never exceed
/// ``FrameFormat/maxFrameLength`` plus one chunk, whatever the input declares. A decoder that
/// holds no unfinished bytes after a call holds no buffer at all (its storage is released), so
/// an idle stream costs only the decoder's own fields (with headers only: a header's worth of
/// storage, below).
///
/// ### Bodies a consumer does not read
/// With ``BodyRetention/headersOnly`` no frame of a length-field format is assembled: each
/// chunk is framed where it lies, a frame inside it is checksummed in place and handed out
/// holding a copy of its header, and a frame it leaves unfinished keeps its header while the
/// checksum runs over each later chunk in place (see ``Frame``, "A frame without its body", and
/// FrameDecoder-droppedBodies.swift). Every output — offsets, lengths, checksum verdicts,
/// events — is the same as with ``BodyRetention/always``; only the bytes a frame holds differ,
/// and the decoder holds at most a header between calls (``bufferedByteCount``).
public struct FrameDecoder: Sendable {
    /// The layout frames are decoded with.
    public let format: FrameFormat

    /// Consumed bytes the buffer must hold before it is compacted (swift-nio's reclaim threshold).
    static let compactionThreshold = 2048

    /// Bytes an awaited frame must still miss for its checksum to run forward chunk by chunk
    /// (``runningChecksumMinimum``'s default). A frame that spans only a few chunks costs less
    /// checksummed once at its completion: each update has a fixed cost, and a short piece
    /// takes the table path (docs/performance.md).
    static let defaultRunningChecksumMinimum = 16 << 10

    let layout: FrameLayout
    /// ``BodyRetention/headersOnly`` for a length-field format: chunks are framed in place and
    /// frames hold their headers only (a delimiter format's frames are held whole either way).
    let holdsHeadersOnly: Bool
    /// Fed bytes; `buffer[readIndex...]` are not yet in a frame or event.
    @usableFromInline var buffer: [UInt8] = []
    @usableFromInline var readIndex = 0
    /// Absolute stream offset of `buffer[0]`.
    var bufferOffset: UInt64
    /// Start of a run of passed-over bytes not yet reported; the run ends at `readIndex`.
    var skipStart: UInt64?
    /// Set after an oversize header or a gap: bad lengths join the skip run until a valid header.
    /// For a delimiter format: bytes up to and including the next delimiter join the skip run
    /// (after a gap, or in a frame already longer than the max).
    var resyncing = false
    /// For a delimiter format: bytes from `readIndex` already scanned and holding no
    /// delimiter start, so that no byte is scanned twice while a long frame arrives.
    var delimiterScanned = 0
    /// For a delimiter format: bytes the delimiter search has examined; tests check it stays
    /// linear in the input.
    internal var bytesExamined = 0
    /// Bytes still missing from the frame at `readIndex`, whose header has been read: chunks
    /// shorter than this are only appended, not re-parsed (a 64 KiB frame arriving in
    /// segments would otherwise have its header re-read once per segment).
    var bytesAwaited = 0
    /// The checksum of the awaited frame's first ``checksummedCount`` bytes (the checksum field
    /// counted as the coverage says), carried forward over each chunk as it arrives: a frame
    /// that spans many segments is checksummed while each segment is in cache, and its
    /// completion checksums only the bytes the last chunk brought. Reduced once, when the frame
    /// completes (``CRC32/Running``), so a segment costs little more than the CRC of its bytes.
    var runningChecksum = CRC32.Running()
    /// Bytes of the frame at ``runningChecksumOffset`` that ``runningChecksum`` covers; 0 when
    /// no checksum is running.
    var checksummedCount = 0
    /// Absolute stream offset of the frame ``runningChecksum`` belongs to.
    var runningChecksumOffset: UInt64 = 0
    /// ``defaultRunningChecksumMinimum``; tests lower it to run every chunking through the
    /// running checksum.
    var runningChecksumMinimum = FrameDecoder.defaultRunningChecksumMinimum
    /// The header length of the awaited frame whose body is being dropped
    /// (``BodyRetention/headersOnly``): the buffer holds that header alone, at `readIndex`; 0
    /// when no body is being dropped.
    var droppingHeaderLength = 0
    /// Bytes of the awaited frame after its header that were checksummed and dropped so far.
    @usableFromInline var droppedByteCount = 0
    /// The checksum the awaited frame's header stores, read when its body began to be dropped.
    var droppingStoredChecksum: UInt64 = 0
    /// With ``BodyRetention/headersOnly``: the header of the last frame handed out from the
    /// bytes decoded (a chunk framed in place, or the buffer), of which that frame's
    /// ``Frame/bytes`` is a slice; as long as the layout's longest header (empty until the first
    /// frame), and reused for the next frame unless a receiver kept the last.
    var headerScratch: [UInt8] = []
    /// Events decided by ``noteGap(byteCount:_:)``, ``finish(_:)`` or
    /// ``abandonPartialFrame(_:)`` but not yet received because `receive` threw: the next call
    /// delivers them first. Empty unless a receiver threw.
    var undelivered: [FrameDecoderOutput] = []
    /// Bytes moved to the buffer's front by compaction so far; tests check it stays linear.
    internal private(set) var bytesMovedByCompaction = 0

    /// Creates a decoder for one stream.
    ///
    /// - Parameters:
    ///   - format: the frame layout; its field layout is precomputed once here.
    ///   - startOffset: the absolute stream offset of the first byte to be fed, in bytes.
    ///   - bodyRetention: whether frames are handed out whole (``BodyRetention/always``, the
    ///     default) or, for a length-field format, with their headers only.
    public init(format: FrameFormat, startOffset: UInt64 = 0, bodyRetention: BodyRetention = .always) {
        self.format = format
        self.layout = FrameLayout(format)
        self.bufferOffset = startOffset
        self.holdsHeadersOnly = bodyRetention == .headersOnly && layout.delimiters == nil
    }

    /// Total bytes fed so far, plus `startOffset` and gaps: the stream offset the next chunk starts at.
    public var streamOffset: UInt64 { bufferOffset &+ UInt64(buffer.count &+ droppedByteCount) }

    /// Bytes currently held waiting for the rest of a frame or header (for a frame whose body is
    /// being dropped, its header).
    @inlinable
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Bytes fed of the unfinished frame or header, held or dropped: ``bufferedByteCount`` plus
    /// the body bytes of an awaited frame that ``BodyRetention/headersOnly`` dropped. The same
    /// whatever the retention, so a budget over it (`--max-buffered`) is reached at the same
    /// place either way.
    /// Inlinable, so that the engine reads the three fields where the decoder is stored instead
    /// of copying the decoder out of its optional.
    @inlinable
    public var pendingByteCount: Int { bufferedByteCount &+ droppedByteCount }

    /// Bytes of storage the buffer has allocated; tests check an idle decoder holds none.
    internal var bufferCapacity: Int { buffer.capacity }

    /// Appends a chunk and calls `receive` for every frame and event it completes, in stream order.
    ///
    /// With ``BodyRetention/headersOnly`` (a length-field format) the chunk is framed where it
    /// lies instead, and only what it leaves unfinished is kept: a frame's header, or a header's
    /// first bytes.
    ///
    /// If `receive` throws, the error propagates and the decoder stays consistent: outputs
    /// already received are not repeated, and the rest are produced by the next call.
    ///
    /// - Parameters:
    ///   - chunk: the stream's next bytes; any size, including empty.
    ///   - receive: called once per frame or event, synchronously.
    /// - Throws: Rethrows what `receive` throws; the decoder itself never throws.
    public mutating func process(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        if holdsHeadersOnly { return try processHeadersOnly(chunk, receive) }
        try appendAndDecode(chunk, receive)
    }

    /// Appends `chunk` to the buffer and decodes what it completes there.
    mutating func appendAndDecode(_ chunk: UnsafeRawBufferPointer, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        reclaimConsumedPrefix()
        // Inside an awaited frame the chunk is checksummed before it is copied, so that the
        // checksum's loads take the bytes' first touch and the copy reads them from the cache
        // (the other order leaves a segment fresh from memory to memmove: docs/performance.md,
        // "Checksum, then copy").
        let insideAwaitedFrame = bytesAwaited > chunk.count
        if insideAwaitedFrame { continueAwaitedFrame(chunk) }
        chunk.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
        if !undelivered.isEmpty { try deliverUndelivered(receive) }
        if insideAwaitedFrame { return }
        bytesAwaited = 0
        try decodeBuffered(receive)
        keepAwaitedHeaderOnly()
        reclaimConsumedPrefix()
    }

    /// Counts `chunk`, which the awaited frame's missing bytes outnumber, towards that frame,
    /// carrying its running checksum over it.
    @inline(__always)
    mutating func continueAwaitedFrame(_ chunk: UnsafeRawBufferPointer) {
        bytesAwaited &-= chunk.count
        if checksummedCount > 0, layout.checksum != nil {
            runningChecksum.update(chunk)
            checksummedCount &+= chunk.count
        }
    }

    /// Takes a chunk held in an array, like ``process(_:_:)-(UnsafeRawBufferPointer,_)``, but
    /// without copying what it can avoid: the frames wholly inside `chunk` are handed out as
    /// slices of `chunk` itself, and only the unfinished tail is copied in. A frame the decoder
    /// was already holding is completed first from the head of `chunk` (copying just the bytes
    /// it awaited). Netty's `ByteToMessageDecoder` likewise decodes straight from the incoming
    /// buffer when its cumulation is empty. Large reads — a file read, a big socket read — are
    /// then framed with one copy per chunk boundary, not one per byte.
    ///
    /// A frame kept past `receive` keeps `chunk`'s storage alive, as a slice does. With
    /// ``BodyRetention/headersOnly`` (a length-field format) frames hold copies of their
    /// headers, so `chunk` is framed as its raw bytes are.
    ///
    /// - Parameters:
    ///   - chunk: the stream's next bytes; any size, including empty.
    ///   - receive: called once per frame or event, synchronously.
    /// - Throws: Rethrows what `receive` throws; the decoder itself never throws.
    public mutating func process(_ chunk: [UInt8], _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        if holdsHeadersOnly { return try chunk.withUnsafeBytes { try processHeadersOnly($0, receive) } }
        var start = 0
        if bufferedByteCount > 0 || !undelivered.isEmpty {
            // Only the rest of a frame whose header is in hand can be completed by itself.
            guard bytesAwaited > 0, bytesAwaited < chunk.count, undelivered.isEmpty else {
                return try chunk.withUnsafeBytes { try process($0, receive) }
            }
            start = bytesAwaited
            do {
                try chunk.withUnsafeBytes { try process(UnsafeRawBufferPointer(rebasing: $0[..<start]), receive) }
            } catch {
                // The whole chunk is taken whatever `receive` does: the rest waits in the buffer.
                chunk.withUnsafeBytes { buffer.append(contentsOf: $0[start...]) }
                throw error
            }
            guard bufferedByteCount == 0, undelivered.isEmpty else {
                return try chunk.withUnsafeBytes { try process(UnsafeRawBufferPointer(rebasing: $0[start...]), receive) }
            }
        }
        guard start < chunk.count else { return }
        reclaimConsumedPrefix()
        bufferOffset &-= UInt64(start)
        buffer = chunk  // shares the caller's storage: nothing is copied
        readIndex = start
        bytesAwaited = 0
        defer { chunk.withUnsafeBytes { keepTail(of: $0) } }
        try decodeBuffered(receive)
    }

    /// Appends a chunk from any byte collection, like ``process(_:_:)-(UnsafeRawBufferPointer,_)``;
    /// arrays and slices are read in place.
    ///
    /// - Parameters:
    ///   - chunk: the stream's next bytes; any size, including empty.
    ///   - receive: called once per frame or event, synchronously.
    /// - Throws: Rethrows what `receive` throws; the decoder itself never throws.
    @inlinable
    public mutating func process(_ chunk: some Collection<UInt8>, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        let done: Void? = try chunk.withContiguousStorageIfAvailable {
            try process(UnsafeRawBufferPointer($0), receive)
        }
        if done == nil {
            try Array(chunk).withUnsafeBytes { try process($0, receive) }
        }
    }

    /// Reports `byteCount` bytes that were never captured at the current stream offset.
    ///
    /// Buffered bytes that cannot finish a frame any more are reported first (a `skip` for
    /// bytes that cannot start a header, then `truncated`), then the `gap`; the decoder then
    /// resyncs on the next valid header. A gap of 0 bytes does nothing.
    ///
    /// - Parameters:
    ///   - byteCount: the hole's length in bytes.
    ///   - receive: called for each event, in stream order.
    /// - Throws: Rethrows what `receive` throws; the decoder itself never throws. Its state is
    ///   final before the first event is received, and events not yet received come first
    ///   from the next call.
    public mutating func noteGap(byteCount: UInt64, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        guard byteCount > 0 else { return try deliverUndelivered(receive) }
        takeTail()
        let offset = streamOffset
        bufferOffset = offset &+ byteCount
        resyncing = true
        undelivered.append(.gap(offset: offset, byteCount: byteCount))
        try deliverUndelivered(receive)
    }

    /// End of stream: reports the unfinished tail, if any, as `truncated`.
    ///
    /// Leading tail bytes that cannot start a header (a partial magic that does not match) are
    /// reported as `skip` instead. Afterwards the decoder is empty and may be fed again, as a
    /// fresh stream continuing at ``streamOffset``.
    ///
    /// - Parameters:
    ///   - receive: called for each event, in stream order.
    /// - Throws: Rethrows what `receive` throws; the decoder itself never throws. Its state is
    ///   final before the first event is received, and events not yet received come first
    ///   from the next call.
    public mutating func finish(_ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        takeTail()
        resyncing = false
        try deliverUndelivered(receive)
    }

    /// Gives up the unfinished frame the decoder holds, to free its memory, and resyncs.
    ///
    /// The buffered bytes are reported as ``finish(_:)`` reports a tail — `skip` for leading
    /// bytes that cannot start a header, then `truncated` — and the buffer is released. Decoding
    /// then resyncs at the next byte fed, as after a gap: a bad length there joins a `skip`
    /// rather than being one `oversize` per byte. ``streamOffset`` does not move, so every byte
    /// stays accounted for. With nothing buffered it does nothing.
    ///
    /// For a caller that bounds the memory of many decoders together (`framedump decode
    /// --max-buffered`): each decoder alone is bounded by ``FrameFormat/maxFrameLength``, but
    /// thousands of streams each holding most of a large frame are not.
    ///
    /// - Parameters:
    ///   - receive: called for each event, in stream order.
    /// - Throws: Rethrows what `receive` throws; the decoder itself never throws. Its state is
    ///   final before the first event is received, and events not yet received come first
    ///   from the next call.
    public mutating func abandonPartialFrame(_ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        guard bufferedByteCount > 0 else { return try deliverUndelivered(receive) }
        takeTail()
        resyncing = true
        try deliverUndelivered(receive)
    }

    // MARK: - Decoding

    mutating func decodeBuffered(_ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        // A second reference keeps `buffer` readable (and sliceable) while `self` is mutated.
        let storage = buffer
        try storage.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            if layout.delimiters != nil {
                try decodeDelimitedFrames(storage, base, end: raw.count, receive)
            } else {
                try decodeLengthFieldFrames(storage, base, end: raw.count, receive)
            }
        }
    }

    /// Frames and events of a length-field layout from `readIndex` up to `end`.
    ///
    /// - Parameter storage: the array `base` points into, of which frames are slices; unused
    ///   (empty for a chunk framed in place) when frames hold their headers only
    ///   (``BodyRetention/headersOnly``).
    @inline(__always)
    mutating func decodeLengthFieldFrames(
        _ storage: [UInt8],
        _ base: UnsafeRawPointer,
        end: Int,
        _ receive: (FrameDecoderOutput) throws -> Void
    ) rethrows {
        if let steps = layout.steps {
            try decodeWalkedFrames(storage, base, end: end, steps: steps, receive)
        } else {
            try decodeFrames(storage, base, end: end, receive)
        }
    }

    /// The hot loop: frames and events from `readIndex` up to `end`.
    ///
    /// State (`readIndex`, `skipStart`, `resyncing`) is stored before each `receive` call, so
    /// a throwing `receive` leaves the decoder ready to carry on.
    private mutating func decodeFrames(
        _ storage: [UInt8],
        _ base: UnsafeRawPointer,
        end: Int,
        _ receive: (FrameDecoderOutput) throws -> Void
    ) rethrows {
        let layout = self.layout
        let headersOnly = holdsHeadersOnly
        var position = readIndex
        defer { readIndex = position }
        while true {
            let available = end &- position
            if let magic = layout.magic {
                switch checkMagic(magic, base, at: &position, end: end) {
                case .inPlace: break
                case .passedOver: continue
                case .notYetReadable: return
                }
            }
            guard available >= layout.headerLength else { break }
            let header = base + position
            if !layout.checks.isEmpty, !layout.checksValid(header, available: available) {
                beginSkip(at: position)
                position &+= 1
                continue
            }
            let declared = header.loadInteger(fromByteOffset: layout.lengthOffset, width: layout.lengthWidth,
                                              byteOrder: layout.lengthByteOrder, readableCount: available)
            let frameLength: Int
            switch try judgeLength(declared: declared, headerLength: layout.headerLength, available: available, at: &position, receive) {
            case .whole(let length): frameLength = length
            case .passedOver: continue
            case .awaited:
                let drops = dropsBody(available: available, headerLength: layout.headerLength)
                if let checksum = layout.checksum, drops || bytesAwaited >= runningChecksumMinimum {
                    startRunningChecksum(Self.checksum(header, count: available, checksum, fieldOffset: checksum.offset,
                                                       headerLength: layout.headerLength), checksum.tables, count: available, at: position)
                }
                if drops { startDroppingBody(header, available: available, headerLength: layout.headerLength, checksumOffset: layout.checksum?.offset) }
                return
            }
            var crcOK: Bool?
            if let checksum = layout.checksum {
                crcOK = Self.checksumMatches(header, frameLength: frameLength, checksum, fieldOffset: checksum.offset,
                                             headerLength: layout.headerLength, resuming: takeRunningChecksum(at: position))
            }
            try emitFrame(storage, base, headersOnly: headersOnly, at: &position, length: frameLength, headerLength: layout.headerLength, crcOK: crcOK, receive)
        }
    }

    /// What ``judgeLength(declared:headerLength:available:at:_:)`` made of a header's length.
    enum LengthJudgement {
        /// A frame of this many bytes, all readable.
        case whole(Int)
        /// A bad length: `oversize` (or a skipped byte while resyncing); the position moved on.
        case passedOver
        /// A good length whose frame is not all here: ``bytesAwaited`` says how much is missing.
        case awaited
    }

    /// Judges the length a header that passed its checks declares, as the resync policy says.
    @inline(__always)
    mutating func judgeLength(
        declared: UInt64,
        headerLength: Int,
        available: Int,
        at position: inout Int,
        _ receive: (FrameDecoderOutput) throws -> Void
    ) rethrows -> LengthJudgement {
        guard let frameLength = layout.frameLength(declared: declared, headerLength: headerLength) else {
            try passBadLength(at: &position, declared: declared, receive)
            return .passedOver
        }
        resyncing = false
        guard available >= frameLength else {
            bytesAwaited = frameLength &- available
            return .awaited
        }
        return .whole(frameLength)
    }

    /// What ``checkMagic(_:_:at:end:)`` found at a position.
    enum MagicCheck {
        /// The magic is there: read the header.
        case inPlace
        /// It is not: the position moved to the next candidate, the bytes passed over joining the skip run.
        case passedOver
        /// Its bytes are not all readable yet: wait for more.
        case notYetReadable
    }

    /// Checks the magic at `position`, scanning ahead for the next candidate when it is not there.
    @inline(__always)
    mutating func checkMagic(_ magic: FrameLayout.Magic, _ base: UnsafeRawPointer, at position: inout Int, end: Int) -> MagicCheck {
        let available = end &- position
        guard available >= magic.end else { return .notYetReadable }
        let value = (base + position).loadInteger(fromByteOffset: magic.offset, width: magic.width, byteOrder: magic.byteOrder,
                                                  readableCount: available)
        guard value != magic.value else { return .inPlace }
        beginSkip(at: position)
        position = Self.nextMagicCandidate(base, from: position &+ 1, end: end, magic: magic)
        return .passedOver
    }

    /// Reports the open skip run, then the frame of `length` bytes at `position`; moves
    /// `position` past it (state stored first, so a throwing `receive` leaves the decoder ready
    /// to carry on).
    ///
    /// - Parameters:
    ///   - storage: the array `base` points into, of which the frame is a slice unless
    ///     `headersOnly`.
    ///   - headersOnly: ``holdsHeadersOnly``, read once by the loop rather than per frame: the
    ///     frame holds its header only, copied from `base` (``scratchHeader(_:count:)``).
    @inline(__always)
    mutating func emitFrame(
        _ storage: [UInt8],
        _ base: UnsafeRawPointer,
        headersOnly: Bool,
        at position: inout Int,
        length: Int,
        headerLength: Int,
        crcOK: Bool?,
        trailerLength: Int = 0,
        _ receive: (FrameDecoderOutput) throws -> Void
    ) rethrows {
        try reportSkip(endingAt: position, receive)
        let start = position
        position &+= length
        readIndex = position
        // Each frame made in the call, not bound first: a local frame costs a retain and release.
        if headersOnly {
            try receive(.frame(Frame(offset: absoluteOffset(start), header: scratchHeader(base + start, count: headerLength),
                                     droppedByteCount: length &- headerLength, crcOK: crcOK)))
        } else {
            try receive(.frame(Frame(offset: absoluteOffset(start), bytes: storage[start..<position], headerLength: headerLength,
                                     crcOK: crcOK, trailerLength: trailerLength)))
        }
    }

    /// Passes over the first byte of a header whose declared length is out of range: one
    /// `oversize` event, or — while resyncing — one more byte of the skip run.
    @inline(__always)
    mutating func passBadLength(at position: inout Int, declared: UInt64, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        if resyncing {
            beginSkip(at: position)
            position &+= 1
        } else {
            try reportSkip(endingAt: position, receive)
            position &+= 1
            readIndex = position
            resyncing = true
            try receive(.oversize(offset: absoluteOffset(position &- 1), declaredLength: declared))
        }
    }

    /// The smallest frame start at or after `from` whose magic is in place, among starts whose
    /// magic lies wholly before `end`; when there is none, the first start whose magic is not
    /// yet readable (to be checked when more bytes arrive).
    ///
    /// The magic's first byte is searched eight bytes at a time with the classic "has a zero
    /// byte" word trick (Mycroft, 1987) on the input XORed with that byte repeated; the lowest
    /// flagged byte is always a true match, so the first hit is exact.
    @inline(__always)
    static func nextMagicCandidate(_ base: UnsafeRawPointer, from: Int, end: Int, magic: FrameLayout.Magic) -> Int {
        let repeated = 0x0101_0101_0101_0101 &* UInt64(magic.firstByte)
        var position = from &+ magic.offset
        let last = end &- magic.width
        while position <= last {
            if position &+ 8 <= end {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self)) ^ repeated
                let hits = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                guard hits != 0 else {
                    position &+= 8
                    continue
                }
                position &+= hits.trailingZeroBitCount &>> 3
                guard position <= last else { break }
            } else if base.load(fromByteOffset: position, as: UInt8.self) != magic.firstByte {
                position &+= 1
                continue
            }
            if base.loadInteger(fromByteOffset: position, width: magic.width, byteOrder: magic.byteOrder) == magic.value {
                return position &- magic.offset
            }
            position &+= 1
        }
        return Swift.max(from, end &- magic.end &+ 1)
    }

    /// Whether the checksum stored in the header matches the frame's bytes.
    ///
    /// - Parameters:
    ///   - fieldOffset: the checksum field's offset in this frame's header.
    ///   - headerLength: this frame's header length (a walked layout's own).
    ///   - resuming: the running checksum of the frame's first bytes and their count, from
    ///     ``takeRunningChecksum(at:)``; `nil` to checksum the whole frame.
    @inline(__always)
    static func checksumMatches(
        _ frame: UnsafeRawPointer,
        frameLength: Int,
        _ checksum: FrameLayout.Checksum,
        fieldOffset: Int,
        headerLength: Int,
        resuming: (crc: UInt32, count: Int)?
    ) -> Bool {
        let crc = if let resuming {
            checksum.tables.update(resuming.crc, UnsafeRawBufferPointer(start: frame + resuming.count, count: frameLength &- resuming.count))
        } else {
            Self.checksum(frame, count: frameLength, checksum, fieldOffset: fieldOffset, headerLength: headerLength)
        }
        let stored = frame.loadInteger(fromByteOffset: fieldOffset, width: FrameLayout.Checksum.width, byteOrder: checksum.byteOrder)
        return UInt64(crc) == stored
    }

    /// Starts the running checksum of the awaited frame at `position`: `crc` (of `tables`'
    /// polynomial) of its first `count` bytes (its whole header among them). It folds when the
    /// frame misses ``runningChecksumMinimum`` bytes or more (a frame whose body is dropped may
    /// miss fewer, and then spans only a few more chunks).
    @inline(__always)
    mutating func startRunningChecksum(_ crc: UInt32, _ tables: CRC32Tables, count: Int, at position: Int) {
        runningChecksum = CRC32.Running(tables, continuing: crc, folding: bytesAwaited >= runningChecksumMinimum)
        checksummedCount = count
        runningChecksumOffset = absoluteOffset(position)
    }

    /// The running checksum and the bytes it covers when it belongs to the frame at `position`,
    /// which is then complete (the checksum stops running); `nil` otherwise.
    @inline(__always)
    mutating func takeRunningChecksum(at position: Int) -> (crc: UInt32, count: Int)? {
        guard checksummedCount > 0, runningChecksumOffset == absoluteOffset(position) else { return nil }
        defer { checksummedCount = 0 }
        return (runningChecksum.finish(), checksummedCount)
    }

    /// The checksum of a frame's first `count` bytes (at least its header), as the field's
    /// coverage says: the body only, or the header with the field taken as four zero bytes,
    /// then the body. Computed in place, never copied.
    @inline(__always)
    static func checksum(
        _ frame: UnsafeRawPointer,
        count: Int,
        _ checksum: FrameLayout.Checksum,
        fieldOffset: Int,
        headerLength: Int
    ) -> UInt32 {
        let tables = checksum.tables
        switch checksum.coverage {
        case .body:
            return tables.update(0, UnsafeRawBufferPointer(start: frame + headerLength, count: count &- headerLength))
        case .headerAndBody:
            let afterField = fieldOffset &+ FrameLayout.Checksum.width
            var crc = tables.update(0, UnsafeRawBufferPointer(start: frame, count: fieldOffset))
            crc = withUnsafeBytes(of: UInt32(0)) { tables.update(crc, $0) }
            return tables.update(crc, UnsafeRawBufferPointer(start: frame + afterField, count: count &- afterField))
        }
    }

    // MARK: - Events and buffer upkeep

    @inline(__always)
    func absoluteOffset(_ index: Int) -> UInt64 {
        bufferOffset &+ UInt64(truncatingIfNeeded: index)
    }

    /// Starts a skip run at `index` unless one is already open (runs are contiguous: bytes are
    /// only ever passed over at the read position).
    @inline(__always)
    mutating func beginSkip(at index: Int) {
        if skipStart == nil { skipStart = absoluteOffset(index) }
    }

    /// Reports the open skip run, if any, as ending just before `index`.
    @inline(__always)
    mutating func reportSkip(endingAt index: Int, _ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        guard let start = skipStart else { return }
        skipStart = nil
        readIndex = index
        try receive(.skip(offset: start, byteCount: absoluteOffset(index) &- start))
    }

    /// Queues the events for everything still buffered (skip for bytes that cannot start a
    /// header, then truncated) in ``undelivered`` and empties the buffer, so that the decoder's
    /// state is final before any of them is received.
    private mutating func takeTail() {
        bytesAwaited = 0
        checksummedCount = 0
        let dropped = droppedByteCount
        droppingHeaderLength = 0
        droppedByteCount = 0
        let storage = buffer
        let end = storage.count
        var position = readIndex
        delimiterScanned = 0
        if layout.delimiters != nil, resyncing, position < end {
            // The rest of a frame already too long, or whose start was never captured.
            beginSkip(at: position)
            position = end
        }
        storage.withUnsafeBytes { raw in
            while position < end, !layout.couldStartHeader(raw.baseAddress! + position, available: end &- position) {
                beginSkip(at: position)
                position &+= 1
            }
        }
        if let start = skipStart {
            skipStart = nil
            undelivered.append(.skip(offset: start, byteCount: absoluteOffset(position) &- start))
        }
        readIndex = end
        if position < end {
            undelivered.append(.truncated(offset: absoluteOffset(position), byteCount: UInt64(end &- position &+ dropped)))
        }
        bufferOffset &+= UInt64(dropped)
        reclaimConsumedPrefix()
    }

    /// Hands ``undelivered`` to `receive` in order, each removed before it is received.
    mutating func deliverUndelivered(_ receive: (FrameDecoderOutput) throws -> Void) rethrows {
        var index = 0
        defer { undelivered.removeFirst(index) }
        while index < undelivered.count {
            let output = undelivered[index]
            index += 1
            try receive(output)
        }
    }

    /// After decoding straight from a caller's bytes (`bytes`, at positions `bufferOffset` on):
    /// keeps only the unconsumed tail — of a frame whose body is being dropped, its header —
    /// copied into storage of the decoder's own, so that the next append does not copy a
    /// caller's whole array on write and the decoder holds no more than it needs.
    mutating func keepTail(of bytes: UnsafeRawBufferPointer) {
        let tail = UnsafeRawBufferPointer(rebasing: bytes[readIndex..<(droppingHeaderLength > 0 ? readIndex &+ droppingHeaderLength : bytes.count)])
        bufferOffset = absoluteOffset(readIndex)
        readIndex = 0
        if holdsHeadersOnly, buffer.count == tail.count, buffer.capacity <= Self.keptHeaderCapacity {
            // One header in place of the last (`bytes` is then a chunk, never the buffer).
            buffer.withUnsafeMutableBytes { $0.copyMemory(from: tail) }
            return
        }
        emptyBuffer()
        tail.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
    }

    /// Empties the buffer (its positions then start at `bufferOffset`). The storage is released,
    /// not kept: an idle stream holds no storage (thousands of open connections each keeping
    /// their largest segment's capacity add up), for one allocation per chunk; with headers only,
    /// a header's worth is kept (``keptHeaderCapacity``).
    @inline(__always)
    mutating func emptyBuffer() {
        if holdsHeadersOnly, buffer.capacity <= Self.keptHeaderCapacity {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer = []
        }
    }

    /// Frees the consumed prefix when that is cheap; see "Memory and cost" in the type's docs.
    mutating func reclaimConsumedPrefix() {
        guard readIndex > 0 else { return }
        let unconsumed = buffer.count &- readIndex
        if unconsumed == 0 {
            bufferOffset = absoluteOffset(readIndex)
            emptyBuffer()
            readIndex = 0
        } else if readIndex >= Self.compactionThreshold, readIndex >= unconsumed {
            bufferOffset = absoluteOffset(readIndex)
            buffer.removeSubrange(0..<readIndex)
            bytesMovedByCompaction &+= unconsumed
            readIndex = 0
        }
    }
}
