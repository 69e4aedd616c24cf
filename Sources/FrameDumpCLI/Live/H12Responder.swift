import FrameCodec

/// The server half of h12's keep-alive and acknowledgement exchange, for `listen --respond`:
/// a ping is answered with a pong carrying the same body, a msg with an ack carrying the
/// msg's id — the behaviour of the protocol's server in scripts/traffic-generator.
///
/// ```
/// client → 55 AA 01 01 00000008 <crc> 00 00 01 93 7e 3a c4 e8   ping, 8-byte nonce
/// server ← 55 AA 01 02 00000008 <crc> 00 00 01 93 7e 3a c4 e8   pong, the same body
/// client → 55 AA 01 03 00000014 <crc> {"id":7,"text":"hi"}      msg
/// server ← 55 AA 01 04 00000004 <crc> 00 00 00 07               ack: the id, u32 big-endian
/// ```
///
/// The ack's body is the msg body's integer `"id"` (a JSON object's top-level key, 0...2³²-1)
/// as a big-endian u32; a msg whose body has no such id is acknowledged with its body length
/// instead. Replies copy the request's header fields (magic, version), change the command
/// field and let ``FrameEncoder`` fill in the length and checksum. Frames whose checksum does
/// not match are not answered, as a server would drop them. Works with any format that has a
/// field named `cmd`, not only h12.
struct H12Responder {
    /// Request → reply command numbers.
    struct CommandMap: Equatable {
        var ping: UInt64 = 1
        var pong: UInt64 = 2
        var msg: UInt64 = 3
        var ack: UInt64 = 4

        /// Parses `PING:PONG,MSG:ACK`, e.g. `1:2,3:4` (the default).
        ///
        /// - Throws: ``UsageError`` naming the part that is not a number pair.
        static func parse(_ text: String) throws(UsageError) -> CommandMap {
            let pairs = text.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.split(separator: ":", omittingEmptySubsequences: false).map { UInt64(Self.trimmingSpaces($0)) }
            }
            guard pairs.count == 2, pairs.allSatisfy({ $0.count == 2 && !$0.contains(nil) }) else {
                throw UsageError("invalid --respond-map '\(text)': expected PING:PONG,MSG:ACK command numbers, e.g. 1:2,3:4")
            }
            return CommandMap(ping: pairs[0][0]!, pong: pairs[0][1]!, msg: pairs[1][0]!, ack: pairs[1][1]!)
        }

        /// `text` without the spaces and tabs around it.
        private static func trimmingSpaces(_ text: Substring) -> Substring {
            var text = text
            while text.first == " " || text.first == "\t" { text.removeFirst() }
            while text.last == " " || text.last == "\t" { text.removeLast() }
            return text
        }
    }

    let map: CommandMap
    private let encoder: FrameEncoder
    private let commandField: Int
    /// Header fields copied from a request into its reply: those not filled in by the encoder.
    private let copiedFields: [(index: Int, name: String)]

    /// - Throws: ``UsageError`` when the format has no `cmd` field or a command number does not
    ///   fit in it.
    init(format: FrameFormat, map: CommandMap) throws(UsageError) {
        guard let commandField = format.fields.firstIndex(where: { $0.name == "cmd" && $0.role == .value }) else {
            throw UsageError("--respond needs a format with a 'cmd' field, such as h12 (format \(format.name) has none)")
        }
        self.map = map
        self.commandField = commandField
        encoder = FrameEncoder(format: format)
        copiedFields = format.fields.enumerated().compactMap { index, field in
            field.role == .value && index != commandField ? (index, field.name) : nil
        }
        for command in [map.pong, map.ack] {
            do {
                _ = try encoder.encode(fields: ["cmd": command], body: [])
            } catch {
                throw UsageError("invalid --respond-map: \(error)")
            }
        }
    }

    /// The reply to `frame`, or `nil` when it is not a ping or msg (or its checksum is bad).
    func response(to frame: Frame) -> [UInt8]? {
        guard frame.crcOK != false else { return nil }
        let format = encoder.format
        let command = format.value(ofField: commandField, in: frame.header)
        let reply: UInt64
        let body: [UInt8]
        switch command {
        case map.ping:
            reply = map.pong
            body = Array(frame.body)
        case map.msg:
            reply = map.ack
            let value = Self.messageID(frame.body) ?? UInt32(clamping: frame.body.count)
            body = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        default:
            return nil
        }
        var fields = ["cmd": reply]
        for (index, name) in copiedFields {
            fields[name] = format.value(ofField: index, in: frame.header)
        }
        return try? encoder.encode(fields: fields, body: body)
    }

    /// The integer `"id"` of a JSON object body, when it has one that fits a u32.
    ///
    /// The body is one JSON document (RFC 8259 §2: whitespace allowed around it) whose value is
    /// an object; its top-level `"id"` (the last, if given twice) counts when its number is
    /// exactly a whole number in 0...2³²−1: `7`, `7.0`, `70e-1` and `0.7e1` are 7, while
    /// `6.9999999999999999999` is not an id at all, although it rounds to 7 as a `Double`.
    static func messageID(_ body: ArraySlice<UInt8>) -> UInt32? {
        guard let document = try? JSONParser.parse(body), case .object = document,
              case .number(let text)? = document["id"]
        else { return nil }
        return exactUInt32(text)
    }

    /// The value of the JSON number `text` (RFC 8259 §6 syntax, as the parser checked it) when
    /// it is exactly a whole number in 0...2³²−1, worked out on its decimal digits (no rounding).
    static func exactUInt32(_ text: String) -> UInt32? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest.removeFirst() }
        let integerDigits = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integerDigits.count)
        var fractionDigits = Substring()
        if rest.first == "." {
            rest.removeFirst()
            fractionDigits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(fractionDigits.count)
        }
        var exponent = 0
        if rest.first == "e" || rest.first == "E" {
            rest.removeFirst()
            let exponentNegative = rest.first == "-"
            if rest.first == "-" || rest.first == "+" { rest.removeFirst() }
            // Beyond ±10⁶ only zero digits can give a u32 (or a whole number) anyway.
            let magnitude = rest.reduce(0) { min($0 * 10 + Int($1.asciiValue! - 48), 1_000_000) }
            exponent = exponentNegative ? -magnitude : magnitude
        }
        // digits × 10^(exponent − fraction digits): the decimal point sits after `point` digits.
        let digits = Array((integerDigits + fractionDigits).utf8)
        let point = integerDigits.count + exponent
        var value: UInt64 = 0
        for (index, digit) in digits.enumerated() {
            let digit = UInt64(digit - UInt8(ascii: "0"))
            if index >= point {
                guard digit == 0 else { return nil }
                continue
            }
            value = value * 10 + digit
            guard value <= UInt64(UInt32.max) else { return nil }
        }
        if point > digits.count, value != 0 {
            for _ in digits.count..<point {
                value *= 10
                guard value <= UInt64(UInt32.max) else { return nil }
            }
        }
        guard !negative || value == 0 else { return nil }
        return UInt32(value)
    }
}
