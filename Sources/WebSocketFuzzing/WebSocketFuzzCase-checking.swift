import PacketDecoding
import StreamFraming
import WebSocketFraming

extension WebSocketFuzzCase {
    /// Feeds the case to a new ``WebSocketConnectionLayer`` in its chunks, ends both directions,
    /// and checks what came out (see the type's summary).
    ///
    /// - Parameter makeInflater: The layer's inflater for each direction.
    /// - Returns: What went wrong, one line each; empty when the case passed.
    public func run(makeInflater: @escaping () -> (any WebSocketInflater)?) -> [String] {
        let layer = WebSocketConnectionLayer(limits: Self.limits, makeInflater: makeInflater)
        var failures: [String] = []
        var events: [WebSocketEvent] = []
        var innerSeen: [[UInt8]] = [[], []]
        var ended = [0, 0]
        func receive(_ output: ConnectionLayerOutput<WebSocketEvent>) {
            switch output {
            case .data(let bytes, let direction):
                if ended[direction.rawValue] > 0 { failures.append("\(direction): inner bytes after the end") }
                innerSeen[direction.rawValue] += bytes
            case .gap(_, let direction):
                if ended[direction.rawValue] > 0 { failures.append("\(direction): a gap after the end") }
                if damage.isEmpty { failures.append("\(direction): a gap in the inner stream of a valid case") }
            case .end(let direction):
                ended[direction.rawValue] += 1
            case .event(let event):
                events.append(event)
            }
        }
        var positions = [0, 0]
        do {
            for chunk in chunks {
                let side = chunk.direction.rawValue
                try streams[side][positions[side]..<positions[side] + chunk.count].withUnsafeBytes {
                    try layer.receive($0, from: chunk.direction, receive)
                }
                positions[side] += chunk.count
            }
            for direction in StreamDirection.allCases { try layer.endStream(direction, receive) }
        } catch {
            failures.append("the layer threw \(error)")
        }
        if ended != [1, 1] { failures.append("directions ended \(ended) times, not once each") }
        failures += accounting(events)
        if damage.isEmpty { failures += comparison(events, inner: innerSeen) }
        return failures
    }

    /// Every byte in a head, a frame or an unread range, exactly once; nothing kept over a limit.
    private func accounting(_ events: [WebSocketEvent]) -> [String] {
        var covered: [UInt64] = [0, 0]
        var failures: [String] = []
        var handshakes = 0
        for event in events {
            switch event {
            case .handshake(let handshake):
                handshakes += 1
                covered[0] += UInt64(handshake.requestLength)
                covered[1] += UInt64(handshake.responseLength)
            case .frame(let frame):
                covered[frame.direction.rawValue] += frame.wireLength
                if frame.payload.count > Self.limits.maxFramePayload { failures.append("\(frame.direction) frame at \(frame.offset): \(frame.payload.count) payload bytes kept, over the limit") }
            case .message(let message):
                if message.inflated.count > Self.limits.maxMessageLength { failures.append("\(message.direction) message at \(message.offset): \(message.inflated.count) inflated bytes kept, over the limit") }
            case .unread(let direction, _, let length, _):
                covered[direction.rawValue] += length
            case .violation(let violation):
                if violation.offset > UInt64(streams[violation.direction.rawValue].count) {
                    failures.append("\(violation.direction) violation at \(violation.offset), beyond the stream's \(streams[violation.direction.rawValue].count) bytes")
                }
            }
        }
        if handshakes != 1 { failures.append("\(handshakes) handshake events, not 1") }
        for direction in StreamDirection.allCases where covered[direction.rawValue] != UInt64(streams[direction.rawValue].count) {
            failures.append("\(direction): \(covered[direction.rawValue]) bytes accounted for, of \(streams[direction.rawValue].count)")
        }
        return failures
    }

    /// A valid case: exactly the frames, messages and inner bytes written.
    private func comparison(_ events: [WebSocketEvent], inner innerSeen: [[UInt8]]) -> [String] {
        var failures: [String] = []
        var seenFrames: [[ExpectedFrame]] = [[], []]
        var seenMessages: [[ExpectedMessage]] = [[], []]
        for event in events {
            switch event {
            case .handshake(let handshake):
                if handshake.status != 101 || handshake.deflate != deflate || handshake.requestLength != headLengths[0] || handshake.responseLength != headLengths[1] {
                    failures.append("handshake \(handshake), expected 101, deflate \(deflate), heads \(headLengths)")
                }
            case .frame(let frame):
                seenFrames[frame.direction.rawValue].append(ExpectedFrame(
                    offset: Int(frame.offset), wireLength: Int(frame.wireLength), fin: frame.fin,
                    rsv: (frame.rsv1 ? 0b100 : 0) | (frame.rsv2 ? 0b010 : 0) | (frame.rsv3 ? 0b001 : 0),
                    opcode: frame.opcode, maskKey: frame.maskKey, payload: frame.payload))
            case .message(let message):
                seenMessages[message.direction.rawValue].append(ExpectedMessage(
                    offset: Int(message.offset), opcode: message.opcode, frames: message.frames, wireLength: Int(message.wireLength),
                    length: Int(message.length), compressed: message.compressed, inflated: message.inflated,
                    innerOffset: message.innerOffset.map { Int($0) }))
            case .violation(let violation):
                failures.append("\(violation.direction) violation \(violation.kind) at \(violation.offset) in a valid case")
            case .unread(let direction, let offset, let length, let reason):
                failures.append("\(direction): \(length) bytes unread (\(reason.rawValue)) from \(offset) in a valid case")
            }
        }
        for direction in StreamDirection.allCases {
            let side = direction.rawValue
            failures += Self.differences("\(direction) frame", written: frames[side], decoded: seenFrames[side])
            failures += Self.differences("\(direction) message", written: messages[side], decoded: seenMessages[side])
            if innerSeen[side] != inner[side] {
                failures.append("\(direction) inner stream: \(innerSeen[side].count) bytes, expected \(inner[side].count)\(innerSeen[side].count == inner[side].count ? " (they differ)" : "")")
            }
        }
        return failures
    }

    /// The first difference between what was written and what was decoded, and a count mismatch.
    private static func differences<T: Equatable>(_ what: String, written: [T], decoded: [T]) -> [String] {
        var failures: [String] = []
        if let index = (0..<min(written.count, decoded.count)).first(where: { written[$0] != decoded[$0] }) {
            failures.append("\(what) \(index): decoded \(Self.describe(decoded[index])), written \(Self.describe(written[index]))")
        }
        if written.count != decoded.count { failures.append("\(written.count) \(what)s written, \(decoded.count) decoded") }
        return failures
    }

    private static func describe(_ value: some Any) -> String {
        let text = "\(value)"
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
