/// How a frame body is shown: `--body VIEW` (docs/bodies.md).
enum BodyView: Equatable {
    /// Today's choice: pretty JSON, else text, else hex (``BodyPresentation``).
    case auto
    /// The body as JSON; a body that is not JSON is shown in hex with the reason.
    case json
    /// The body as UTF-8 text; a body that is not printable text is shown in hex.
    case text
    /// A hex+ASCII dump, whatever the body is.
    case hex
    /// Protobuf without a schema, like `protoc --decode_raw`.
    case protobuf
    /// Protobuf decoded as the named message type of `--proto-descriptors`
    /// (`proto:im.ChatMessage`), like `protoc --decode=TYPE`.
    case proto(typeName: String)
    /// MessagePack.
    case msgpack
    /// No body at all.
    case none

    /// The words `--body` takes, for messages.
    static let names = "auto, json, text, hex, protobuf, proto:TYPE, msgpack or none"

    /// The view `text` names: one of ``names``.
    ///
    /// - Returns: the view, or `nil` when `text` names none.
    init?(_ text: Substring) {
        switch text {
        case "auto": self = .auto
        case "json": self = .json
        case "text": self = .text
        case "hex": self = .hex
        case "protobuf": self = .protobuf
        case "msgpack": self = .msgpack
        case "none": self = .none
        default:
            guard text.hasPrefix("proto:"), text.count > "proto:".count else { return nil }
            self = .proto(typeName: String(text.dropFirst("proto:".count)))
        }
    }

    /// The `view` value of JSON Lines' `body` key.
    var jsonName: String {
        switch self {
        case .auto: "auto"
        case .json: "json"
        case .text: "text"
        case .hex: "hex"
        case .protobuf: "protobuf"
        case .proto: "proto"
        case .msgpack: "msgpack"
        case .none: "none"
        }
    }
}
