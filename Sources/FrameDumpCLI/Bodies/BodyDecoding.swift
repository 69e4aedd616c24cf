import BodyViews

/// A body decoded as its ``BodyView``, before it is written as text or JSON: what both
/// renderers share, so text and JSON Lines always agree on what a body is.
enum BodyDecoding {
    enum Decoded {
        /// A JSON document (``BodyView/json``, or ``BodyView/auto`` finding an object or array).
        case json(JSONValue)
        /// Printable UTF-8 text.
        case text(String)
        /// Shown in hex: the hex view, or the automatic choice for binary bodies.
        case hex
        /// Protobuf without a schema; the renderer decodes it as it writes, and says why if
        /// the body is not protobuf.
        case protobuf
        case msgpack(MessagePackValue)
        /// Protobuf decoded as a message type of the `--proto-descriptors` schema.
        case proto(ProtoMessage)
        /// Not what the view expects: shown in hex with this one-line reason.
        case failed(String)
    }

    /// - Parameter schema: the `--proto-descriptors` types, for ``BodyView/proto(typeName:)``.
    static func decode(_ body: ArraySlice<UInt8>, view: BodyView, schema: ProtoSchema?) -> Decoded {
        switch view {
        case .auto:
            switch BodyPresentation(body) {
            case .json: return (try? JSONParser.parse(body)).map(Decoded.json) ?? .hex
            case .text: return .text(String(decoding: body, as: UTF8.self))
            case .binary: return .hex
            }
        case .json:
            do {
                return .json(try JSONParser.parse(body))
            } catch {
                return .failed("not JSON: \(error)")
            }
        case .text:
            guard case .text = BodyPresentation(body) else { return .failed("not text: not UTF-8, or control characters other than tab and line breaks") }
            return .text(String(decoding: body, as: UTF8.self))
        case .hex, .none:
            return .hex
        case .protobuf:
            return .protobuf
        case .msgpack:
            do {
                return .msgpack(try body.withUnsafeBytes { bytes in try MessagePackDecoder.value(of: bytes) })
            } catch {
                return .failed(reason(view, error))
            }
        case .proto(let typeName):
            guard let schema else { return .failed("no --proto-descriptors for '\(typeName)'") }
            do {
                return .proto(try body.withUnsafeBytes { bytes in try ProtoMessage(decoding: bytes, typeName: typeName, schema: schema) })
            } catch {
                return .failed("not \(typeName): \(error)")
            }
        }
    }

    /// `not protobuf: truncated varint at byte 3`.
    static func reason(_ view: BodyView, _ error: any Error) -> String {
        "not \(view.jsonName): \(error)"
    }
}
