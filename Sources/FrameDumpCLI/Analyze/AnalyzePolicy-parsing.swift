import BodyViews

/// Reading a policy file: a JSON object (docs/analyze.md), parsed by ``JSONParser``.
extension AnalyzePolicy {
    /// Why a policy file cannot be used: the key path, what was expected there and where the
    /// key is, e.g. `heartbeat.pong_timeout_s: expected a number of seconds ≥ 0 and under 1000000000, at line 4, column 5`.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var path: String
        var expected: String
        /// The key's place in the file; `nil` for the whole file or a built-in policy.
        var location: SourceLocation? = nil

        var description: String {
            let what = path.isEmpty ? "expected \(expected)" : "\(path): expected \(expected)"
            return location.map { "\(what), at \($0)" } ?? what
        }
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
        let root = try Reader(value, path: "", text: text)
        try root.only(["name", "frames", "message_id", "tolerance", "heartbeat", "reconnect", "delivery", "sessions", "limits"])
        if let name = try root.string("name") { policy.name = name }
        if let tolerance = try root.number("tolerance") {
            // A fraction of the expected time: more than 1 would let a deadline pass before it is due
            // (and, times the longest time allowed, overflow the nanosecond arithmetic).
            guard tolerance <= 1 else { throw root.error("tolerance", expected: "a fraction from 0 to 1") }
            policy.tolerance = tolerance
        }
        if let frames = try root.object("frames") {
            try frames.only(["field", "ping", "pong", "msg", "ack"])
            let field = try frames.string("field") ?? policy.frames.field
            // A role left out keeps im-default's value, of the field this file names.
            policy.frames = FrameRoles(field: field, ping: 1, pong: 2, msg: 3, ack: 4)
            policy.frames.ping = try frames.conditions("ping", field: field) ?? policy.frames.ping
            policy.frames.pong = try frames.conditions("pong", field: field) ?? policy.frames.pong
            policy.frames.msg = try frames.conditions("msg", field: field) ?? policy.frames.msg
            policy.frames.ack = try frames.conditions("ack", field: field) ?? policy.frames.ack
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
                if policy.heartbeat.intervals.isEmpty { throw ParseError(path: intervals.path, expected: "at least one interval", location: intervals.location) }
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
        /// The whole file, for the line and column of a key.
        let text: ArraySlice<UInt8>
        /// Where this object's key is (the file's start for the root).
        let location: SourceLocation?

        init(_ value: JSONValue, path: String, text: ArraySlice<UInt8>, location: SourceLocation? = nil) throws(ParseError) {
            guard case .object(let members) = value else { throw ParseError(path: path, expected: "a JSON object", location: location) }
            // RFC 8259 §4 leaves repeated names to the reader; a policy's second `pong_timeout_s`
            // is far likelier a slip than a wish to override the first, so it is an error.
            var seen = Set<String>()
            for member in members where !seen.insert(member.key.value).inserted {
                let key = member.key.value
                throw ParseError(path: path.isEmpty ? key : "\(path).\(key)", expected: "each key once in an object ('\(key)' is repeated)",
                                 location: SourceLocation(member.key.literal.startIndex, in: text))
            }
            self.members = members
            self.path = path
            self.text = text
            self.location = location
        }

        func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        /// Where member `key` (the last of that name, as ``JSONValue`` reads it) starts.
        func location(of key: String) -> SourceLocation? {
            members.last { $0.key.value == key }.map { SourceLocation($0.key.literal.startIndex, in: text) }
        }

        /// The error for member `key`: its path, its place, what was expected.
        func error(_ key: String, expected: String) -> ParseError {
            ParseError(path: at(key), expected: expected, location: location(of: key))
        }

        func only(_ keys: [String]) throws(ParseError) {
            if let unknown = members.first(where: { !keys.contains($0.key.value) }) {
                throw ParseError(path: at(unknown.key.value), expected: "a known key (\(keys.joined(separator: ", ")))",
                                 location: SourceLocation(unknown.key.literal.startIndex, in: text))
            }
        }

        func object(_ key: String) throws(ParseError) -> Reader? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            return try Reader(value, path: at(key), text: text, location: location(of: key))
        }

        func string(_ key: String) throws(ParseError) -> String? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .string(let text) = value else { throw error(key, expected: "a string") }
            return text.value
        }

        /// A frame role: a value of `field` (a number, or a value name as a string), or an
        /// object of header fields and their values, all of which a frame of the role has.
        func conditions(_ key: String, field: String) throws(ParseError) -> [FieldCondition]? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            if let single = Self.fieldValue(value) {
                return [FieldCondition(field: field, value: single, path: at(key), location: location(of: key))]
            }
            let expected = "a value of \(field) (a number or a value name), or an object of header fields and their values"
            guard case .object(let fields) = value, !fields.isEmpty else { throw error(key, expected: expected) }
            let reader = try Reader(value, path: at(key), text: text, location: location(of: key))
            return try fields.map { member throws(ParseError) in
                guard let single = Self.fieldValue(member.value) else {
                    throw reader.error(member.key.value, expected: "a value of \(member.key.value) (a number or a value name)")
                }
                return FieldCondition(field: member.key.value, value: single, path: reader.at(member.key.value),
                                      location: SourceLocation(member.key.literal.startIndex, in: text))
            }
        }

        /// A header field's value: a whole number, that number as a string, or a value name.
        private static func fieldValue(_ value: JSONValue) -> FieldValue? {
            switch value {
            case .number(let text): return UInt64(text).map(FieldValue.number)
            case .string(let text) where !text.value.isEmpty: return UInt64(text.value).map(FieldValue.number) ?? .name(text.value)
            default: return nil
            }
        }

        func number(_ key: String) throws(ParseError) -> Double? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .number(let text) = value, let number = Double(text), number >= 0 else {
                throw error(key, expected: "a number ≥ 0")
            }
            return number
        }

        func seconds(_ key: String) throws(ParseError) -> Int64? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .number(let text) = value, let seconds = Double(text), seconds >= 0, seconds < 1e9 else {
                throw error(key, expected: "a number of seconds ≥ 0 and under 1000000000")
            }
            return Int64((seconds * 1e9).rounded())
        }

        func count(_ key: String) throws(ParseError) -> Int? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            guard case .number(let text) = value, let count = Int(text), count >= 1 else {
                throw error(key, expected: "a whole number from 1 to \(Int.max)")
            }
            return count
        }

        func keyPath(_ key: String) throws(ParseError) -> [String]? {
            guard let text = try string(key) else { return nil }
            let path = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else { throw error(key, expected: "a key path such as 'id' or 'meta.id'") }
            return path
        }

        /// A protobuf field number path: `[2, 1]`, field 1 of the message in field 2.
        func fieldNumbers(_ key: String) throws(ParseError) -> [UInt32]? {
            guard let value = JSONValue.object(members)[key] else { return nil }
            let expected = "a list of protobuf field numbers (1 to 536870911) from the outer message in, such as [1] or [2, 1]"
            guard case .array(let items) = value, !items.isEmpty, items.count <= ProtobufRawDecoder.guessDepth else {
                throw error(key, expected: expected)
            }
            return try items.map { item throws(ParseError) in
                // 2^29 − 1: the largest field number a tag holds (protobuf's encoding guide).
                guard case .number(let text) = item, let number = UInt32(text), (1...536_870_911).contains(number) else {
                    throw error(key, expected: expected)
                }
                return number
            }
        }

        /// `{"field": NAME}`, `{"json": "a.b"}`, `{"body_uint": BYTES}` or `{"protobuf": [N, …]}`.
        func idLocation() throws(ParseError) -> MessageIDLocation {
            try only(["field", "json", "body_uint", "protobuf"])
            guard members.count == 1 else { throw ParseError(path: path, expected: "one of field, json, body_uint, protobuf", location: location) }
            if let field = try string("field") { return .field(field) }
            if let keyPath = try keyPath("json") { return .json(keyPath) }
            if let numbers = try fieldNumbers("protobuf") { return .protobuf(numbers) }
            let count = try self.count("body_uint")!
            guard count <= 8 else { throw error("body_uint", expected: "a byte count from 1 to 8") }
            return .bodyInteger(count: count)
        }

        /// `{"server_port": {"5222": "chat"}}`, `{"field": NAME, "values": {"1": "chat"}}`, `{"json": "a.b"}`
        /// or `{"protobuf": [N, …]}`.
        func sessionTypeSource() throws(ParseError) -> SessionTypeSource {
            try only(["server_port", "field", "values", "json", "protobuf"])
            if let ports = try object("server_port") {
                var types: [UInt16: String] = [:]
                for member in ports.members {
                    guard let port = UInt16(member.key.value), let type = try ports.string(member.key.value) else {
                        throw ports.error(member.key.value, expected: "a port number as key and a type name")
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
                            throw values.error(member.key.value, expected: "a field value as key and a type name")
                        }
                        types[number] = type
                    }
                }
                return .field(field, types)
            }
            if let keyPath = try keyPath("json") { return .firstFrameJSON(keyPath) }
            if let numbers = try fieldNumbers("protobuf") { return .firstFrameProtobuf(numbers) }
            throw ParseError(path: path, expected: "one of server_port, field (with values), json, protobuf", location: location)
        }
    }
}
