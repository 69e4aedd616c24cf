import FrameCodec

/// Reads what the policy needs from a frame of one format: its role (by the policy's field
/// value), a msg's or ack's id, and a session type from a client's first frame.
///
/// Made once per format. What the policy names that the format lacks (a field, a value name)
/// is in ``problems``; a role it leaves unresolved matches no frame.
struct FrameClassifier {
    let format: FrameFormat
    private let roleField: Int?
    /// Each role's conditions as (field index, value), in the order ping, pong, msg, ack; `nil`
    /// when one of them could not be resolved.
    private let roles: [(role: FrameRole, conditions: [(index: Int, value: UInt64)]?)]
    private let messageID: Location
    private let ackID: Location
    private let sessionField: (index: Int, types: [UInt64: String])?
    private let sessionBody: Location
    /// What of the policy this format cannot give: a field it lacks, a value name it does not
    /// define, each with the policy file's key path and place.
    private(set) var problems: [String] = []

    private enum Location {
        case field(Int)
        case json([String])
        case bodyInteger(Int)
        case protobuf([UInt32])
        case none
    }

    init(format: FrameFormat, policy: AnalyzePolicy) {
        self.format = format
        var problems: [String] = []
        func index(_ name: String) -> Int? { format.fields.firstIndex { $0.name == name } }
        func fieldIndex(_ name: String, path: String, location: AnalyzePolicy.SourceLocation? = nil) -> Int? {
            if let found = index(name) { return found }
            let fields = format.fields.map(\.name).joined(separator: ", ")
            problems.append("\(path): format \(format.name) has no field '\(name)' (its fields: \(fields))\(location.map { ", at \($0)" } ?? "")")
            return nil
        }
        func location(_ location: AnalyzePolicy.MessageIDLocation, path: String) -> Location {
            switch location {
            case .field(let name): fieldIndex(name, path: path).map(Location.field) ?? .none
            case .json(let keys): .json(keys)
            case .bodyInteger(let count): .bodyInteger(count)
            case .protobuf(let numbers): .protobuf(numbers)
            }
        }
        func resolve(_ conditions: [AnalyzePolicy.FieldCondition]) -> [(index: Int, value: UInt64)]? {
            var resolved: [(index: Int, value: UInt64)] = []
            for condition in conditions {
                guard let field = fieldIndex(condition.field, path: condition.path, location: condition.location) else { return nil }
                switch condition.value {
                case .number(let number):
                    resolved.append((field, number))
                case .name(let name):
                    let header = format.fields[field]
                    guard let number = header.value(named: name) else {
                        let names = header.valueNames.isEmpty ? "it names no values" : "its names: \(header.valueNames.map(\.name).joined(separator: ", "))"
                        problems.append("\(condition.path): \(header.name) of format \(format.name) has no value named '\(name)' (\(names))"
                                        + (condition.location.map { ", at \($0)" } ?? ""))
                        return nil
                    }
                    resolved.append((field, number))
                }
            }
            return resolved
        }
        roleField = index(policy.frames.field)
        roles = [(.ping, resolve(policy.frames.ping)), (.pong, resolve(policy.frames.pong)),
                 (.msg, resolve(policy.frames.msg)), (.ack, resolve(policy.frames.ack))]
        messageID = location(policy.messageID, path: "message_id.msg")
        ackID = location(policy.ackID, path: "message_id.ack")
        switch policy.sessions.typeBy {
        case .field(let name, let types):
            sessionField = fieldIndex(name, path: "sessions.type_by.field").map { ($0, types) }
            sessionBody = .none
        case .firstFrameJSON(let keys): sessionField = nil; sessionBody = .json(keys)
        case .firstFrameProtobuf(let numbers): sessionField = nil; sessionBody = .protobuf(numbers)
        case .serverPort: sessionField = nil; sessionBody = .none
        }
        self.problems = problems
    }

    /// The frame's role: the first of ping, pong, msg, ack whose every condition it meets.
    func role(of frame: Frame) -> FrameRole {
        for (role, conditions) in roles {
            guard let conditions else { continue }
            if conditions.allSatisfy({ format.value(ofField: $0.index, in: frame.header) == $0.value }) { return role }
        }
        return .other
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
        case .protobuf(let path):
            return ProtobufIDReader.value(at: path, in: frame.body)
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
        switch sessionBody {
        case .json(let path):
            if case .string(let text)? = Self.member(path, of: frame.body) { return text.value }
        case .protobuf(let path):
            if case .text(let text)? = ProtobufIDReader.value(at: path, in: frame.body) { return text }
        case .field, .bodyInteger, .none:
            break
        }
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
