/// Reading a policy file: a JSON object (docs/analyze.md), parsed by ``JSONParser``.
extension AnalyzePolicy {
    /// Why a policy file cannot be used: the key path and what was expected there, e.g.
    /// `heartbeat.pong_timeout_s: expected a number of seconds ≥ 0`.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var path: String
        var expected: String
        var description: String { path.isEmpty ? "expected \(expected)" : "\(path): expected \(expected)" }
    }

    /// Parses a policy file's text.
    ///
    /// Every key is optional but `frames`; a missing one takes `im-default`'s value. Unknown keys
    /// are errors, so a misspelt key is not silently ignored.
    ///
    /// - Parameter text: The file's bytes.
    /// - Returns: The policy, times in nanoseconds.
    /// - Throws: ``ParseError``: not JSON (line and column), an unknown key, a value of the wrong kind.
    static func parse(_ text: ArraySlice<UInt8>) throws(ParseError) -> AnalyzePolicy {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw ParseError(path: "", expected: "a JSON object (\(error))")
        }
        var policy = AnalyzePolicy.imDefault
        let root = try Reader(value, path: "")
        try root.only(["name", "frames", "message_id", "tolerance", "heartbeat", "reconnect", "delivery", "sessions", "limits"])
        if let name = try root.string("name") { policy.name = name }
        if let tolerance = try root.number("tolerance") {
            // A fraction of the expected time: more than 1 would let a deadline pass before it is due
            // (and, times the longest time allowed, overflow the nanosecond arithmetic).
            guard tolerance <= 1 else { throw ParseError(path: "tolerance", expected: "a fraction from 0 to 1") }
            policy.tolerance = tolerance
        }
        if let frames = try root.object("frames") {
            try frames.only(["field", "ping", "pong", "msg", "ack"])
            policy.frames.field = try frames.string("field") ?? policy.frames.field
            policy.frames.ping = try frames.unsigned("ping") ?? policy.frames.ping
            policy.frames.pong = try frames.unsigned("pong") ?? policy.frames.pong
            policy.frames.msg = try frames.unsigned("msg") ?? policy.frames.msg
            policy.frames.ack = try frames.unsigned("ack") ?? policy.frames.ack
        }
        if let ids = try root.object("message_id") {
            try ids.only(["msg", "ack"])
            if let msg = try ids.object("msg") { policy.messageID = try msg.idLocation() }
            if let ack = try ids.object("ack") { policy.ackID = try ack.idLocation() }
        }
        if let heartbeat = try root.object("heartbeat") {
            try heartbeat.only(["intervals_s", "pong_timeout_s", "missed_pongs"])
            if let intervals = try heartbeat.object("intervals_s") {
                policy.heartbeat.intervals = try intervals.members.map { member throws(ParseError) in
                    (member.key.value, try intervals.seconds(member.key.value)!)
                }
                if policy.heartbeat.intervals.isEmpty { throw ParseError(path: intervals.path, expected: "at least one interval") }
            }
            policy.heartbeat.pongTimeout = try heartbeat.seconds("pong_timeout_s") ?? policy.heartbeat.pongTimeout
            policy.heartbeat.missedPongs = try heartbeat.count("missed_pongs") ?? policy.heartbeat.missedPongs
        }
        if let reconnect = try root.object("reconnect") {
            try reconnect.only(["base_s", "factor", "cap_s", "jitter_s"])
            policy.reconnect.base = try reconnect.seconds("base_s") ?? policy.reconnect.base
            policy.reconnect.factor = try reconnect.number("factor") ?? policy.reconnect.factor
            policy.reconnect.cap = try reconnect.seconds("cap_s") ?? policy.reconnect.cap
            policy.reconnect.jitter = try reconnect.seconds("jitter_s") ?? policy.reconnect.jitter
        }
        if let delivery = try root.object("delivery") {
            try delivery.only(["ack_timeout_s", "offline_queue"])
            policy.delivery.ackTimeout = try delivery.seconds("ack_timeout_s") ?? policy.delivery.ackTimeout
            policy.delivery.offlineQueue = try delivery.count("offline_queue") ?? policy.delivery.offlineQueue
        }
        if let sessions = try root.object("sessions") {
            try sessions.only(["type_by", "max_per_type", "idle_timeout_s"])
            if let typeBy = try sessions.object("type_by") { policy.sessions.typeBy = try typeBy.sessionTypeSource() }
            policy.sessions.maxPerType = try sessions.count("max_per_type") ?? policy.sessions.maxPerType
            policy.sessions.idleTimeout = try sessions.seconds("idle_timeout_s") ?? policy.sessions.idleTimeout
        }
        if let limits = try root.object("limits") {
            try limits.only(["message_ids", "samples", "connections"])
            policy.limits.messageIDs = try limits.count("message_ids") ?? policy.limits.messageIDs
            policy.limits.samples = try limits.count("samples") ?? policy.limits.samples
            policy.limits.connections = try limits.count("connections") ?? policy.limits.connections
        }
        return policy
    }

    /// One JSON object of the policy, with its key path for messages.
    private struct Reader {
        let members: [JSONValue.Member]
        let path: String

        init(_ value: JSONValue, path: String) throws(ParseError) {
            guard case .object(let members) = value else { throw ParseError(path: path, expected: "a JSON object") }
            self.members = members
            self.path = path
        }

        func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        func only(_ keys: [String]) throws(ParseError) {
            if let unknown = members.first(where: { !keys.contains($0.key.value) }) {
                throw ParseError(path: at(unknown.key.value), expected: "a known key (\(keys.joined(separator: ", ")))")
            }
        }

        func object(_ key: String) throws(ParseError) -> Reader? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            return try Reader(value, path: at(key))
        }

        func string(_ key: String) throws(ParseError) -> String? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .string(let text) = value else { throw ParseError(path: at(key), expected: "a string") }
            return text.value
        }

        func number(_ key: String) throws(ParseError) -> Double? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .number(let text) = value, let number = Double(text), number >= 0 else {
                throw ParseError(path: at(key), expected: "a number ≥ 0")
            }
            return number
        }

        func seconds(_ key: String) throws(ParseError) -> Int64? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .number(let text) = value, let seconds = Double(text), seconds >= 0, seconds < 1e9 else {
                throw ParseError(path: at(key), expected: "a number of seconds ≥ 0")
            }
            return Int64((seconds * 1e9).rounded())
        }

        func unsigned(_ key: String) throws(ParseError) -> UInt64? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            // A frame's named value (`cmd:u8{1=ping}`) is accepted as its number written as a string.
            switch value {
            case .number(let text): if let number = UInt64(text) { return number }
            case .string(let text): if let number = UInt64(text.value) { return number }
            default: break
            }
            throw ParseError(path: at(key), expected: "a field value (a whole number ≥ 0)")
        }

        func count(_ key: String) throws(ParseError) -> Int? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .number(let text) = value, let count = Int(text), count >= 1 else {
                throw ParseError(path: at(key), expected: "a whole number ≥ 1")
            }
            return count
        }

        func keyPath(_ key: String) throws(ParseError) -> [String]? {
            guard let text = try string(key) else { return nil }
            let path = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else { throw ParseError(path: at(key), expected: "a key path such as 'id' or 'meta.id'") }
            return path
        }

        /// `{"field": NAME}`, `{"json": "a.b"}` or `{"body_uint": BYTES}`.
        func idLocation() throws(ParseError) -> MessageIDLocation {
            try only(["field", "json", "body_uint"])
            guard members.count == 1 else { throw ParseError(path: path, expected: "one of field, json, body_uint") }
            if let field = try string("field") { return .field(field) }
            if let keyPath = try keyPath("json") { return .json(keyPath) }
            let count = try self.count("body_uint")!
            guard count <= 8 else { throw ParseError(path: at("body_uint"), expected: "a byte count from 1 to 8") }
            return .bodyInteger(count: count)
        }

        /// `{"server_port": {"5222": "chat"}}`, `{"field": NAME, "values": {"1": "chat"}}` or `{"json": "a.b"}`.
        func sessionTypeSource() throws(ParseError) -> SessionTypeSource {
            try only(["server_port", "field", "values", "json"])
            if let ports = try object("server_port") {
                var types: [UInt16: String] = [:]
                for member in ports.members {
                    guard let port = UInt16(member.key.value), let type = try ports.string(member.key.value) else {
                        throw ParseError(path: ports.at(member.key.value), expected: "a port number as key and a type name")
                    }
                    types[port] = type
                }
                return .serverPort(types)
            }
            if let field = try string("field") {
                var types: [UInt64: String] = [:]
                if let values = try object("values") {
                    for member in values.members {
                        guard let number = UInt64(member.key.value), let type = try values.string(member.key.value) else {
                            throw ParseError(path: values.at(member.key.value), expected: "a field value as key and a type name")
                        }
                        types[number] = type
                    }
                }
                return .field(field, types)
            }
            if let keyPath = try keyPath("json") { return .firstFrameJSON(keyPath) }
            throw ParseError(path: path, expected: "one of server_port, field (with values), json")
        }
    }
}
