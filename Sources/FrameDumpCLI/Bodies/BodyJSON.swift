import BodyViews

/// The JSON Lines `body` key: a frame's body decoded as its ``BodyView`` (shapes per view in
/// docs/bodies.md and docs/cli.md).
///
/// ```
/// {"view":"json","value":{"id":7}}
/// {"view":"text","text":"hello\n"}
/// {"view":"hex","hex":"00ff"}
/// {"view":"protobuf","fields":[…]}                  (ProtobufRawJSON)
/// {"view":"proto","type":"im.ChatMessage","value":{…}}   (proto3 JSON mapping)
/// {"view":"msgpack","value":…}                      (MessagePackRendering)
/// {"view":"protobuf","error":"truncated varint at byte 3","hex":"08"}
/// ```
///
/// A body that is not what its view expects gets `error` (one line: what and at which byte)
/// and `hex` instead of the decoded value, so it is never silently empty.
enum BodyJSON {
    /// Appends `,"body":{…}` for `body` shown as `view` (nothing for ``BodyView/none``).
    static func append(_ body: ArraySlice<UInt8>, view: BodyView, schema: ProtoSchema?, to output: inout [UInt8]) {
        guard view != .none else { return }
        output.append(contentsOf: ",\"body\":".utf8)
        switch BodyDecoding.decode(body, view: view, schema: schema) {
        case .json(let value):
            output.append(contentsOf: "{\"view\":\"json\",\"value\":".utf8)
            value.append(to: &output, layout: .compact)
            output.append(UInt8(ascii: "}"))
        case .text(let text):
            output.append(contentsOf: "{\"view\":\"text\",\"text\":".utf8)
            JSONString.append(text, to: &output)
            output.append(UInt8(ascii: "}"))
        case .hex:
            appendHex(body, to: &output)
        case .protobuf:
            var json = ProtobufRawJSON()
            do {
                try body.withUnsafeBytes { bytes in try ProtobufRawDecoder.decode(bytes, into: &json) }
                output.append(contentsOf: json.finish())
            } catch {
                appendFailure(body, view: view, reason: BodyDecoding.reason(view, error), to: &output)
            }
        case .proto(let message):
            output.append(contentsOf: "{\"view\":\"proto\",\"type\":".utf8)
            JSONString.append(message.type.fullName, to: &output)
            output.append(contentsOf: ",\"value\":".utf8)
            ProtoJSON.append(message, schema: schema ?? ProtoSchema(), to: &output)
            output.append(UInt8(ascii: "}"))
        case .msgpack(let value):
            output.append(contentsOf: "{\"view\":\"msgpack\",\"value\":".utf8)
            MessagePackRendering.appendJSON(value, to: &output)
            output.append(UInt8(ascii: "}"))
        case .failed(let reason):
            appendFailure(body, view: view, reason: reason, to: &output)
        }
    }

    private static func appendFailure(_ body: ArraySlice<UInt8>, view: BodyView, reason: String, to output: inout [UInt8]) {
        output.append(contentsOf: "{\"view\":".utf8)
        JSONString.append(view.jsonName, to: &output)
        output.append(contentsOf: ",\"error\":".utf8)
        JSONString.append(reason, to: &output)
        output.append(contentsOf: ",\"hex\":\"".utf8)
        ByteFormatting.appendHex(body, to: &output)
        output.append(contentsOf: "\"}".utf8)
    }

    private static func appendHex(_ body: ArraySlice<UInt8>, to output: inout [UInt8]) {
        output.append(contentsOf: "{\"view\":\"hex\",\"hex\":\"".utf8)
        ByteFormatting.appendHex(body, to: &output)
        output.append(contentsOf: "\"}".utf8)
    }

    /// A float as a JSON number in its shortest round-trip form (`1.5`, `1e-05`), or for the
    /// values JSON has no number for, the strings of the proto3 JSON mapping: `"NaN"`,
    /// `"Infinity"`, `"-Infinity"`.
    static func appendNumber<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number, to output: inout [UInt8]) {
        if value.isNaN {
            output.append(contentsOf: "\"NaN\"".utf8)
        } else if value.isInfinite {
            output.append(contentsOf: (value < 0 ? "\"-Infinity\"" : "\"Infinity\"").utf8)
        } else {
            output.append(contentsOf: value.description.utf8)
        }
    }
}
