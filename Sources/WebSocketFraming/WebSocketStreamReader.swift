import PacketDecoding
import StreamFraming

/// One direction of a ``WebSocketConnectionLayer``: its HTTP head, then its frames (RFC 6455
/// §5.2), read across chunks without holding more than a frame header, one frame's payload (up
/// to the limit) and one message's inflated bytes (up to the limit).
struct WebSocketStreamReader {
    typealias Emit = (ConnectionLayerOutput<WebSocketEvent>) throws -> Void

    enum Phase: Equatable {
        /// Reading the Upgrade head, up to its blank line.
        case head
        /// Reading frames.
        case frames
        /// Counting bytes that are not read, from `offset` on, for one ``WebSocketEvent/unread``.
        case unread(from: UInt64, reason: WebSocketUnreadReason)
        /// The direction ended.
        case ended
    }

    /// The parsed header of the frame being read.
    struct Header {
        var offset: UInt64
        var headerLength: Int
        var fin: Bool
        var rsv: UInt8
        var opcode: WebSocketOpcode
        var maskKey: UInt32?
        var payloadLength: UInt64
        /// Payload over the limit: counted, not kept.
        var skipped: Bool
    }

    /// The data message being reassembled.
    struct Message {
        var offset: UInt64
        var opcode: WebSocketOpcode
        var frames = 0
        var wireLength: UInt64 = 0
        var length: UInt64 = 0
        var compressed: Bool
        var inflated: [UInt8] = []
        var innerOffset: UInt64?
        /// Inflating failed: later frames of the message are not inflated.
        var broken = false
        var dropped: UInt64 = 0
    }

    let direction: StreamDirection
    let limits: WebSocketLimits
    var phase = Phase.head
    /// Bytes of the direction seen so far (gaps included): the next byte's offset.
    var offset: UInt64 = 0
    /// The head read so far.
    var head: [UInt8] = []
    /// The header bytes of the next frame read so far (at most 14).
    var headerBytes: [UInt8] = []
    var header: Header?
    var remaining: UInt64 = 0
    var payload: [UInt8] = []
    var message: Message?
    /// Where the next binary payload byte goes in the inner stream.
    var innerOffset: UInt64 = 0
    /// The agreed deflate parameters, once the response is read.
    var inflater: (any WebSocketInflater)?
    var resetsWindow = false
    var deflateAgreed = false

    init(direction: StreamDirection, limits: WebSocketLimits) {
        self.direction = direction
        self.limits = limits
        headerBytes.reserveCapacity(14)
    }

    /// Takes bytes of the Upgrade head from `bytes`, up to and including its blank line.
    ///
    /// - Returns: How many bytes it took, and whether the head is whole; a head over the limit
    ///   is `nil` (the direction is then unread), and all of `bytes` is counted in ``offset``,
    ///   so the chunk's bytes past the limit are in the unread range too.
    mutating func readHead(_ bytes: UnsafeRawBufferPointer) -> (taken: Int, complete: Bool)? {
        // Only the last 3 bytes already held can begin the blank line: no rescanning.
        var index = 0
        while index < bytes.count {
            head.append(bytes[index])
            index += 1
            let count = head.count
            // The bound covers the head through its blank line: a head one byte over it is refused
            // even when that byte ends it.
            if count > limits.maxHandshakeBytes {
                offset += UInt64(bytes.count)
                return nil
            }
            if count >= 4, head[count - 1] == 0x0A, head[count - 2] == 0x0D, head[count - 3] == 0x0A, head[count - 4] == 0x0D {
                offset += UInt64(index)
                return (index, true)
            }
        }
        offset += UInt64(index)
        return (index, false)
    }

    /// Reads `bytes` of frames (the head is the layer's), starting at ``offset``.
    mutating func readFrames(_ bytes: UnsafeRawBufferPointer, _ emit: Emit) throws {
        var index = 0
        while index < bytes.count {
            switch phase {
            case .frames:
                if header == nil {
                    index += try readHeader(bytes, from: index, emit)
                } else {
                    let take = Int(min(remaining, UInt64(bytes.count - index)))
                    if !header!.skipped { unmask(UnsafeRawBufferPointer(rebasing: bytes[index..<index + take])) }
                    index += take
                    offset += UInt64(take)
                    remaining -= UInt64(take)
                    if remaining == 0 { try finishFrame(emit) }
                }
            case .unread, .ended, .head:
                offset += UInt64(bytes.count - index)
                return
            }
        }
    }

    /// Takes header bytes from `bytes[from...]`; parses the header once it is whole.
    ///
    /// - Returns: How many bytes it took.
    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, from start: Int, _ emit: Emit) throws -> Int {
        var index = start
        while index < bytes.count {
            headerBytes.append(bytes[index])
            index += 1
            if headerBytes.count >= 2, headerBytes.count == Self.headerLength(headerBytes) { break }
        }
        offset += UInt64(index - start)
        if headerBytes.count >= 2, headerBytes.count == Self.headerLength(headerBytes) { try startFrame(emit) }
        return index - start
    }

    /// 2, plus 2 or 8 extended length bytes, plus 4 for a mask (§5.2).
    static func headerLength(_ bytes: [UInt8]) -> Int {
        let length7 = bytes[1] & 0x7F
        return 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + (bytes[1] & 0x80 != 0 ? 4 : 0)
    }

    private mutating func startFrame(_ emit: Emit) throws {
        let bytes = headerBytes
        headerBytes.removeAll(keepingCapacity: true)
        let frameOffset = offset - UInt64(bytes.count)
        var length = UInt64(bytes[1] & 0x7F)
        var position = 2
        if length == 126 {
            length = UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            position = 4
        } else if length == 127 {
            length = bytes[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            position = 10
            if length >> 63 != 0 {
                try violation(.lengthTopBitSet, at: frameOffset, emit)
                phase = .unread(from: frameOffset, reason: .afterError)
                return
            }
        }
        let maskKey = bytes[1] & 0x80 != 0 ? bytes[position..<position + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : nil
        let opcode = WebSocketOpcode(rawValue: bytes[0])
        let fin = bytes[0] & 0x80 != 0
        let rsv = (bytes[0] >> 4) & 0x07
        let frame = Header(offset: frameOffset, headerLength: bytes.count, fin: fin, rsv: rsv, opcode: opcode, maskKey: maskKey,
                           payloadLength: length, skipped: length > UInt64(limits.maxFramePayload))
        if direction == .clientToServer, maskKey == nil { try violation(.unmaskedClientFrame, at: frameOffset, emit) }
        if direction == .serverToClient, maskKey != nil { try violation(.maskedServerFrame, at: frameOffset, emit) }
        if !opcode.isDefined { try violation(.unknownOpcode(opcode.rawValue), at: frameOffset, emit) }
        if opcode.isControl {
            if !fin { try violation(.fragmentedControlFrame, at: frameOffset, emit) }
            if length > 125 { try violation(.controlPayloadTooLong(length), at: frameOffset, emit) }
        }
        // RFC 7692 §6: RSV1 marks a compressed message, on its first frame only.
        let allowed: UInt8 = deflateAgreed && (opcode == .text || opcode == .binary) ? 0b100 : 0
        if rsv & ~allowed != 0 { try violation(.reservedBits(rsv & ~allowed), at: frameOffset, emit) }
        if frame.skipped { try violation(.frameTooLong(length), at: frameOffset, emit) }
        if opcode == .continuation, message == nil { try violation(.unexpectedContinuation, at: frameOffset, emit) }
        if opcode == .text || opcode == .binary {
            if message != nil { try violation(.messageNotFinished, at: frameOffset, emit) }
            message = Message(offset: frameOffset, opcode: opcode, compressed: rsv & 0b100 != 0 && deflateAgreed,
                              innerOffset: opcode == .binary ? innerOffset : nil)
        }
        header = frame
        remaining = length
        payload = []
        if !frame.skipped { payload.reserveCapacity(Int(length)) }
        maskPhase = 0
        if length == 0 { try finishFrame(emit) }
    }

    /// Where in the 4-byte key the next payload byte is.
    private var maskPhase = 0

    /// Appends `chunk` to the payload, unmasked (§5.3: byte i XOR key byte i mod 4), eight bytes
    /// at a time once the key is in phase.
    private mutating func unmask(_ chunk: UnsafeRawBufferPointer) {
        let start = payload.count
        payload.append(contentsOf: chunk)
        guard let key = header!.maskKey else { return }
        let keyBytes: [UInt8] = [UInt8(key >> 24), UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key)]
        // The key twice, in memory order, as one word.
        let word = (keyBytes + keyBytes).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        var phase = maskPhase
        payload.withUnsafeMutableBytes { bytes in
            var index = start
            while index < bytes.count, phase != 0 {
                bytes[index] ^= keyBytes[phase]
                phase = (phase + 1) & 3
                index += 1
            }
            while index + 8 <= bytes.count {
                bytes.storeBytes(of: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ word, toByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < bytes.count {
                bytes[index] ^= keyBytes[phase]
                phase = (phase + 1) & 3
                index += 1
            }
        }
        maskPhase = phase
    }

    private mutating func finishFrame(_ emit: Emit) throws {
        let frame = header!
        header = nil
        var closeCode: UInt16?
        var closeReason: String?
        if frame.opcode == .close, !frame.skipped {
            if payload.count == 1 { try violation(.badClosePayload, at: frame.offset, emit) }
            if payload.count >= 2 {
                closeCode = UInt16(payload[0]) << 8 | UInt16(payload[1])
                closeReason = String(decoding: payload[2...], as: UTF8.self)
            }
        }
        let framePayload = payload
        payload = []
        try emit(.event(.frame(WebSocketFrame(
            direction: direction, offset: frame.offset, wireLength: UInt64(frame.headerLength) + frame.payloadLength, fin: frame.fin,
            rsv1: frame.rsv & 0b100 != 0, rsv2: frame.rsv & 0b010 != 0, rsv3: frame.rsv & 0b001 != 0, opcode: frame.opcode,
            maskKey: frame.maskKey, payloadLength: frame.payloadLength, payload: framePayload,
            closeCode: closeCode, closeReason: closeReason))))
        if !frame.opcode.isControl, frame.opcode.isDefined, message != nil {
            try addToMessage(frame, framePayload, emit)
        }
        if frame.opcode == .close { phase = .unread(from: offset, reason: .afterClose) }
    }

    private mutating func addToMessage(_ frame: Header, _ framePayload: [UInt8], _ emit: Emit) throws {
        message!.frames += 1
        message!.wireLength += frame.payloadLength
        let isBinary = message!.opcode == .binary
        if frame.skipped {
            // The payload is lost: the inner stream has a hole, and a compressed message cannot go on.
            if isBinary { try emit(.gap(byteCount: frame.payloadLength, direction)) }
            if message!.compressed { message!.broken = true }
            message!.length += message!.compressed ? 0 : frame.payloadLength
        } else if message!.compressed {
            if !message!.broken {
                try inflate(framePayload, at: frame.offset, emit)
                // RFC 7692 §7.2.2: the sender removed the empty stored block's 00 00 ff ff.
                if frame.fin, !message!.broken { try inflate([0x00, 0x00, 0xFF, 0xFF], at: frame.offset, emit) }
            }
        } else {
            message!.length += frame.payloadLength
            if isBinary { try framePayload.withUnsafeBytes { try emit(.data($0, direction)) } }
        }
        if isBinary, !message!.compressed { innerOffset += frame.payloadLength }
        guard frame.fin else { return }
        let done = message!
        message = nil
        if done.dropped > 0 { try violation(.messageTooLong(dropped: done.dropped), at: done.offset, emit) }
        try emit(.event(.message(WebSocketMessage(
            direction: direction, offset: done.offset, opcode: done.opcode, frames: done.frames, wireLength: done.wireLength,
            length: done.length, compressed: done.compressed, inflated: done.inflated, innerOffset: done.innerOffset))))
        if done.compressed, resetsWindow || done.broken { inflater?.reset() }
    }

    /// Inflates `input` into the message: kept up to the limit, passed on (binary) up to it,
    /// counted beyond it.
    private mutating func inflate(_ input: [UInt8], at frameOffset: UInt64, _ emit: Emit) throws {
        guard let inflater else {
            // No inflater (zlib could not start): the message's bytes are only in its frames.
            message!.broken = true
            try violation(.inflateFailed("no inflater"), at: frameOffset, emit)
            return
        }
        let isBinary = message!.opcode == .binary
        let limit = UInt64(limits.maxMessageLength)
        do {
            try input.withUnsafeBytes { input in
                try inflater.inflate(input, chunkLimit: 64 << 10) { chunk in
                    let kept = Int(min(UInt64(chunk.count), limit - min(limit, message!.length)))
                    message!.length += UInt64(chunk.count)
                    message!.dropped += UInt64(chunk.count - kept)
                    guard kept > 0 else { return }
                    message!.inflated.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<kept]))
                    if isBinary {
                        try emit(.data(UnsafeRawBufferPointer(rebasing: chunk[..<kept]), direction))
                        innerOffset += UInt64(kept)
                    }
                }
            }
        } catch let error as WebSocketInflateError {
            message!.broken = true
            try violation(.inflateFailed(error.message), at: frameOffset, emit)
        }
    }

    mutating func violation(_ kind: WebSocketViolation.Kind, at offset: UInt64, _ emit: Emit) throws {
        try emit(.event(.violation(WebSocketViolation(direction: direction, offset: offset, kind: kind))))
    }

    /// Where the frame being read began (its header may be partial): the first byte not yet in an event.
    var unfinishedFrameOffset: UInt64 { header?.offset ?? (offset - UInt64(headerBytes.count)) }

    /// Stops reading frames: the bytes from the unfinished frame on are unread, for `reason`.
    mutating func stopReading(_ reason: WebSocketUnreadReason) {
        phase = .unread(from: phase == .head ? 0 : unfinishedFrameOffset, reason: reason)
    }

    /// Takes `byteCount` bytes never captured: frame boundaries are lost from here on.
    mutating func noteGap(byteCount: UInt64) {
        switch phase {
        case .head, .frames:
            stopReading(.afterGap)
        case .unread, .ended:
            break
        }
        offset += byteCount
    }

    /// Ends the direction: what was not read is one event, then the inner stream ends.
    mutating func end(_ emit: Emit) throws {
        switch phase {
        case .ended:
            return
        case .head:
            if !head.isEmpty { try emit(.event(.unread(direction, offset: 0, length: offset, reason: .truncated))) }
        case .frames:
            let from = unfinishedFrameOffset
            if from < offset { try emit(.event(.unread(direction, offset: from, length: offset - from, reason: .truncated))) }
        case .unread(let from, let reason):
            if from < offset { try emit(.event(.unread(direction, offset: from, length: offset - from, reason: reason))) }
        }
        phase = .ended
        try emit(.end(direction))
    }
}
