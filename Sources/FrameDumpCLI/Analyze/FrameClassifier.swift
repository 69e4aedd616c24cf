import FrameCodec

/// Reads what the policy needs from a frame of one format: its role (by the policy's field
/// value), a msg's or ack's id, and a session type from a client's first frame.
///
/// Made once per format; a format without the policy's field gives every frame the role `other`.
struct FrameClassifier {
    let format: FrameFormat
    private let roleField: Int?
    private let roles: AnalyzePolicy.FrameRoles
    private let messageID: Location
    private let ackID: Location
    private let sessionField: (index: Int, types: [UInt64: String])?
    private let sessionJSON: [String]?

    private enum Location {
        case field(Int)
        case json([String])
        case bodyInteger(Int)
        case none
    }

    init(format: FrameFormat, policy: AnalyzePolicy) {
        self.format = format
        func index(_ name: String) -> Int? { format.fields.firstIndex { $0.name == name } }
        func location(_ location: AnalyzePolicy.MessageIDLocation) -> Location {
            switch location {
            case .field(let name): index(name).map(Location.field) ?? .none
            case .json(let path): .json(path)
            case .bodyInteger(let count): .bodyInteger(count)
            }
        }
        roleField = index(policy.frames.field)
        roles = policy.frames
        messageID = location(policy.messageID)
        ackID = location(policy.ackID)
        switch policy.sessions.typeBy {
        case .field(let name, let types): sessionField = index(name).map { ($0, types) }; sessionJSON = nil
        case .firstFrameJSON(let path): sessionField = nil; sessionJSON = path
        case .serverPort: sessionField = nil; sessionJSON = nil
        }
    }

    /// The frame's role.
    func role(of frame: Frame) -> FrameRole {
        guard let roleField else { return .other }
        switch format.value(ofField: roleField, in: frame.header) {
        case roles.ping: return .ping
        case roles.pong: return .pong
        case roles.msg: return .msg
        case roles.ack: return .ack
        default: return .other
        }
    }

    /// The role field's value, for labelling frames of no role (`cmd 9`).
    func roleValue(of frame: Frame) -> UInt64? {
        roleField.map { format.value(ofField: $0, in: frame.header) }
    }

    /// A msg's (`isAck: false`) or ack's id; `nil` when the frame does not hold one where the policy says.
    func id(of frame: Frame, isAck: Bool) -> MessageID? {
        switch isAck ? ackID : messageID {
        case .field(let index):
            return .number(format.value(ofField: index, in: frame.header))
        case .bodyInteger(let count):
            let body = frame.body
            guard body.count >= count else { return nil }
            return .number(body.prefix(count).reduce(0) { $0 << 8 | UInt64($1) })
        case .json(let path):
            switch Self.member(path, of: frame.body) {
            case .number(let text)?: return UInt64(text).map(MessageID.number) ?? .text(text)
            case .string(let text)?: return .text(text.value)
            default: return nil
            }
        case .none:
            return nil
        }
    }

    /// The session type a client's first frame gives; `nil` when it gives none.
    func sessionType(of frame: Frame) -> String? {
        if let (index, types) = sessionField {
            let value = format.value(ofField: index, in: frame.header)
            return types[value] ?? "\(format.fields[index].name)=\(value)"
        }
        if let sessionJSON, case .string(let text)? = Self.member(sessionJSON, of: frame.body) { return text.value }
        return nil
    }

    /// A 64-bit FNV-1a hash of a body: a pong is matched to the ping whose body it echoes.
    static func key(of body: ArraySlice<UInt8>) -> UInt64 {
        body.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The member at `path` of a JSON object body; `nil` when the body is not JSON or has none.
    private static func member(_ path: [String], of body: ArraySlice<UInt8>) -> JSONValue? {
        // Only an object can hold the path: other bodies are not parsed.
        guard body.first == UInt8(ascii: "{"), var value = try? JSONParser.parse(body) else { return nil }
        for key in path {
            guard let member = value[key] else { return nil }
            value = member
        }
        return value
    }
}
