/// A random WebSocket conversation as `framedump encode --format websocket` input (JSON Lines,
/// one frame a line), with the generator's own record of what each line asks for: the frames and
/// messages a decoder must give back. Both directions' messages interleave in the lines' order;
/// control frames come between fragments; payloads cross the 7-, 16- and 64-bit length forms.
package struct WebSocketScript {
    /// One frame as the lines ask for it.
    package struct Frame {
        package var opcode: String
        package var fin: Bool
        /// Whether its message is compressed (`--deflate`) and this is its first frame: RSV1.
        package var rsv1: Bool
        /// The masking key given, or `nil` when the line leaves it out (c2s: encode's own key).
        package var maskKey: UInt32?
        /// The payload before compression.
        package var payload: [UInt8]
        /// Whether the frame's payload goes compressed.
        package var compressed: Bool
        package var closeCode: Int?
        package var closeReason: String?
    }

    /// One data message: its opcode, frame count and payload (uncompressed).
    package struct Message {
        package var opcode: String
        package var frames: Int
        package var payload: [UInt8]
        package var compressed: Bool
    }

    /// The JSON Lines, in order.
    package private(set) var lines: [String] = []
    /// By direction (`c2s`, `s2c`): the frames and messages, in order.
    package private(set) var frames: [String: [Frame]] = ["c2s": [], "s2c": []]
    package private(set) var messages: [String: [Message]] = ["c2s": [], "s2c": []]

    /// Draws a conversation from `seed`: about `steps` frames, compressed messages when `deflate`.
    package init(seed: UInt64, deflate: Bool, steps: Int = 40) {
        var random = FuzzRandom(seed: seed)
        /// The open message of each direction: its opcode, compressed, frame count, payload so far.
        var open: [String: Message] = [:]
        func payload() -> [UInt8] {
            let length: Int = switch Int.random(in: 0..<12, using: &random) {
            case 0: Int.random(in: 125...127, using: &random)
            case 1: Int.random(in: 65_535...66_000, using: &random)
            default: Int.random(in: 0...300, using: &random)
            }
            // Half repeat a short pattern, so compression has something to find.
            guard random.chance(1, in: 2) else { return random.bytes(length) }
            let pattern = random.bytes(Int.random(in: 1...8, using: &random))
            return (0..<length).map { pattern[$0 % pattern.count] }
        }
        func emit(_ direction: String, _ opcode: String, fin: Bool, payload: [UInt8], compressed: Bool, first: Bool,
                  close: (Int, String)? = nil) {
            var json = "{\"direction\":\"\(direction)\",\"opcode\":\"\(opcode)\""
            if !fin { json += ",\"fin\":false" }
            if deflate, first, !compressed { json += ",\"rsv1\":false" }
            var maskKey: UInt32?
            if direction == "c2s", random.chance(2, in: 3) {
                maskKey = UInt32(truncatingIfNeeded: random.next())
                json += random.chance(1, in: 2) ? ",\"mask\":\"0x\(String(maskKey!, radix: 16))\"" : ",\"mask\":\(maskKey!)"
            }
            if let (code, reason) = close {
                json += ",\"code\":\(code)" + (reason.isEmpty ? "" : ",\"reason\":\"\(reason)\"")
            } else if opcode == "text", random.chance(1, in: 2), payload.allSatisfy({ (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }) {
                json += ",\"payload_text\":\"\(String(decoding: payload, as: UTF8.self))\""
            } else {
                json += ",\"payload_hex\":\"" + payload.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
            }
            lines.append(json + "}")
            let bytes = close.map { [UInt8($0.0 >> 8), UInt8($0.0 & 0xFF)] + Array($0.1.utf8) } ?? payload
            frames[direction]!.append(Frame(opcode: opcode, fin: fin, rsv1: compressed && first, maskKey: maskKey, payload: bytes,
                                            compressed: compressed, closeCode: close?.0, closeReason: close?.1))
        }
        func control(_ direction: String) {
            let bytes = random.bytes(Int.random(in: 0...125, using: &random))
            emit(direction, random.chance(1, in: 2) ? "ping" : "pong", fin: true, payload: bytes, compressed: false, first: false)
        }
        for _ in 0..<steps {
            let direction = random.chance(1, in: 2) ? "c2s" : "s2c"
            if random.chance(1, in: 5) {
                control(direction)
            } else if var message = open[direction] {
                let fin = random.chance(1, in: 2)
                let piece = payload()
                emit(direction, "continuation", fin: fin, payload: piece, compressed: message.compressed, first: false)
                message.frames += 1
                message.payload += piece
                if fin { messages[direction]!.append(message); open[direction] = nil } else { open[direction] = message }
            } else {
                let opcode = random.chance(1, in: 2) ? "binary" : "text"
                let compressed = deflate && random.chance(3, in: 4)
                let fin = random.chance(1, in: 2)
                let piece = payload()
                emit(direction, opcode, fin: fin, payload: piece, compressed: compressed, first: true)
                let message = Message(opcode: opcode, frames: 1, payload: piece, compressed: compressed)
                if fin { messages[direction]!.append(message) } else { open[direction] = message }
            }
        }
        for direction in ["c2s", "s2c"] {
            if var message = open[direction] {
                emit(direction, "continuation", fin: true, payload: [], compressed: message.compressed, first: false)
                message.frames += 1
                messages[direction]!.append(message)
            }
            if random.chance(2, in: 3) {
                emit(direction, "close", fin: true, payload: [], compressed: false, first: false,
                     close: (Int.random(in: 1000...4999, using: &random), random.chance(1, in: 2) ? "bye" : ""))
            }
        }
    }
}
