import FrameCodec
import PacketDecoding
import WebSocketFraming

/// One line of `encode --format websocket` input: one WebSocket frame (RFC 6455 §5.2), as a
/// JSON object (JSON Lines; the schema is in docs/cli.md, encode, "WebSocket").
///
/// ```
/// {"direction":"c2s","opcode":"text","payload_text":"hello"}
/// {"opcode":"binary","fin":false,"mask":"0x37fa213d","payload_hex":"0001"}
/// {"opcode":"ping","payload_text":"p"}
/// {"opcode":"continuation","inner":[{"fields":{"cmd":3},"body_text":"hi"}]}
/// {"direction":"s2c","opcode":"close","code":1000,"reason":"bye"}
/// ```
///
/// - `direction`: `c2s` (default) or `s2c`.
/// - `opcode`: a name (`continuation`, `text`, `binary`, `close`, `ping`, `pong`) or a number
///   0-15; default `binary`.
/// - `fin`: default `true`. `rsv1`, `rsv2`, `rsv3`: default `false`; with `--deflate`, `rsv1`
///   on a message's first frame defaults to `true` and means "compress this message".
/// - `mask`: the masking key, `"0x…"` or a number up to 2³²−1, or `null` for none; left out: a
///   key made from the line's number for c2s (§5.3: clients mask), none for s2c.
/// - `fragments`: 1 (default) to 65535: the line is that many frames, its payload cut into
///   near-equal pieces (a text or binary line: the first has the opcode, the others are
///   continuations; `fin` is the last one's), so inner frames can cross frame boundaries.
/// - The payload: `payload_hex` or `payload_text`; `code` (0-65535) and `reason` (text) for a
///   close frame; or, with `--inner FORMAT`, `inner`: one frame object of that format's encode
///   input (`fields`, `body_*`) or an array of them, encoded back to back. None: empty.
///
/// Other keys are refused, as in ``FrameSpecLine``.
struct WebSocketFrameLine: Equatable {
    var direction = StreamDirection.clientToServer
    var opcode = WebSocketOpcode.binary
    var fin = true
    /// RSV1-3 as given (0b100 is RSV1), with RSV1's default applied by the caller.
    var rsv: UInt8 = 0
    /// Whether `rsv1` was given: with `--deflate`, a message is compressed unless its first line says `"rsv1":false`.
    var givesRSV1 = false
    /// `.some(nil)`: `"mask":null`; `nil`: left out.
    var mask: UInt32??
    var payload: [UInt8] = []
    /// `fragments`: how many frames the line is.
    var fragments = 1

    private static let keys = ["direction", "opcode", "fin", "rsv1", "rsv2", "rsv3", "mask", "payload_hex", "payload_text", "code", "reason", "inner", "fragments"]
    private static let payloadKeys = ["payload_hex", "payload_text", "code", "inner"]

    /// Parses one line (without its line break).
    ///
    /// - Parameters:
    ///   - line: The line's bytes.
    ///   - inner: `--inner`'s encoder for `inner` frames; `nil`: `inner` is refused.
    /// - Throws: ``FrameSpecLine/ParseError`` saying what was expected.
    static func parse(_ line: ArraySlice<UInt8>, inner: FrameEncoder?) throws(FrameSpecLine.ParseError) -> WebSocketFrameLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw .init(message: "expected a JSON object (\(error))")
        }
        guard case .object(let members) = value else {
            throw .init(message: "expected a JSON object, e.g. {\"direction\":\"c2s\",\"opcode\":\"text\",\"payload_text\":\"hi\"}")
        }
        var seen: Set<String> = []
        for member in members {
            let key = member.key.value
            guard keys.contains(key) else {
                throw .init(message: "unknown key '\(key)'; expected \(keys.joined(separator: ", "))")
            }
            guard seen.insert(key).inserted else { throw .init(message: "expected each key once in the line, found '\(key)' twice") }
        }
        let payloads = payloadKeys.filter(seen.contains)
        guard payloads.count <= 1 else {
            throw .init(message: "expected one payload, found \(payloads.joined(separator: " and "))")
        }
        var frame = WebSocketFrameLine()
        if let direction = value["direction"] {
            switch direction {
            case .string(let text) where text.value == "c2s": frame.direction = .clientToServer
            case .string(let text) where text.value == "s2c": frame.direction = .serverToClient
            default: throw .init(message: "expected \"direction\" to be \"c2s\" or \"s2c\"")
            }
        }
        if let opcode = value["opcode"] { frame.opcode = try Self.opcode(opcode) }
        frame.fin = try flag(value, "fin") ?? true
        for (bit, key) in [(UInt8(0b100), "rsv1"), (0b010, "rsv2"), (0b001, "rsv3")] where try flag(value, key) == true {
            frame.rsv |= bit
        }
        frame.givesRSV1 = seen.contains("rsv1")
        if let mask = value["mask"] {
            if case .null = mask { frame.mask = .some(nil) } else { frame.mask = .some(try number(mask, "mask", max: UInt64(UInt32.max)).map(UInt32.init)) }
        }
        if let fragments = value["fragments"] {
            frame.fragments = Int(try number(fragments, "fragments", min: 1, max: 0xFFFF)!)
            guard frame.fragments == 1 || !frame.opcode.isControl else {
                throw .init(message: "\"fragments\" cuts a data frame; a control frame is never fragmented (RFC 6455 §5.5)")
            }
        }
        if seen.contains("reason"), !seen.contains("code") { throw .init(message: "\"reason\" needs a \"code\" (RFC 6455 §5.5.1)") }
        switch payloads.first {
        case "payload_hex":
            guard case .string(let text) = value["payload_hex"]! else { throw .init(message: "expected \"payload_hex\" to be a string") }
            frame.payload = try FrameSpecLine.hexBytes(text.value, key: "payload_hex")
        case "payload_text":
            guard case .string(let text) = value["payload_text"]! else { throw .init(message: "expected \"payload_text\" to be a string") }
            frame.payload = Array(text.value.utf8)
        case "code":
            let code = try number(value["code"]!, "code", max: 0xFFFF)!
            frame.payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            if let reason = value["reason"] {
                guard case .string(let text) = reason else { throw .init(message: "expected \"reason\" to be a string") }
                frame.payload += Array(text.value.utf8)
            }
        case "inner":
            guard let inner else { throw .init(message: "\"inner\" needs --inner FORMAT: the format its frames are encoded with") }
            frame.payload = try innerFrames(value["inner"]!, encoder: inner)
        default:
            break
        }
        return frame
    }

    private static let opcodeNames: [String: WebSocketOpcode] = [
        "continuation": .continuation, "text": .text, "binary": .binary, "close": .close, "ping": .ping, "pong": .pong,
    ]

    private static func opcode(_ value: JSONValue) throws(FrameSpecLine.ParseError) -> WebSocketOpcode {
        if case .string(let name) = value, let opcode = opcodeNames[name.value] { return opcode }
        if case .number = value, let number = try? number(value, "opcode", max: 15) { return WebSocketOpcode(rawValue: UInt8(number)) }
        throw .init(message: "expected \"opcode\" to be continuation, text, binary, close, ping, pong or a number 0-15")
    }

    private static func flag(_ object: JSONValue, _ key: String) throws(FrameSpecLine.ParseError) -> Bool? {
        switch object[key] {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw .init(message: "expected \"\(key)\" to be true or false")
        }
    }

    /// The frames the line stands for: its payload cut into ``fragments`` near-equal pieces,
    /// the first with the line's opcode, the rest continuations, FIN on the last as the line says.
    var pieces: [(opcode: WebSocketOpcode, fin: Bool, payload: ArraySlice<UInt8>)] {
        (0..<fragments).map { index in
            let bounds = (payload.count * index / fragments, payload.count * (index + 1) / fragments)
            return (index == 0 ? opcode : .continuation, index == fragments - 1 ? fin : false, payload[bounds.0..<bounds.1])
        }
    }

    /// An integer from `min` to `max`, as a number or a `"0x…"` string; out of range, the error
    /// names the range the key takes.
    private static func number(_ value: JSONValue, _ key: String, min: UInt64 = 0, max: UInt64) throws(FrameSpecLine.ParseError) -> UInt64? {
        let parsed: UInt64? = switch value {
        case .number(let text) where text.first != "-": UInt64(text)
        case .string(let text) where text.value.hasPrefix("0x") || text.value.hasPrefix("0X"): UInt64(text.value.dropFirst(2), radix: 16)
        default: nil
        }
        guard let parsed, parsed >= min, parsed <= max else {
            throw .init(message: "expected \"\(key)\" to be an integer \(min)...\(max), decimal or \"0x\" hex")
        }
        return parsed
    }

    /// `inner`: one frame object or an array of them, each a line of the inner format's encode input.
    private static func innerFrames(_ value: JSONValue, encoder: FrameEncoder) throws(FrameSpecLine.ParseError) -> [UInt8] {
        let frames: [JSONValue]
        if case .array(let elements) = value { frames = elements } else { frames = [value] }
        var bytes: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            var text: [UInt8] = []
            frame.append(to: &text, layout: .compactSorted)
            let place = frames.count == 1 ? "\"inner\"" : "\"inner\"[\(index)]"
            do {
                let line = try FrameSpecLine.parse(text[...], format: encoder.format)
                try encoder.encode(fields: line.fields, body: line.body, into: &bytes)
            } catch let error as FrameSpecLine.ParseError {
                throw .init(message: "\(place): \(error.message)")
            } catch {
                throw .init(message: "\(place): cannot encode: \(error)")
            }
        }
        return bytes
    }
}
