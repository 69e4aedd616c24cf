import BodyViews

/// A frame's body for people, under its heading: each line indented, as its ``BodyView``
/// shows it; a body that is not what its view expects gets a one-line reason in parentheses,
/// then its hex dump.
///
/// ```
///   (not protobuf: truncated varint at byte 3)
///   00000000  08                                                |.|
/// ```
enum BodyText {
    static func append(_ body: ArraySlice<UInt8>, view: BodyView, schema: ProtoSchema?, indent: String, to buffer: inout [UInt8]) {
        if view == .auto {
            appendAutomatic(body, indent: indent, to: &buffer)
            return
        }
        switch BodyDecoding.decode(body, view: view, schema: schema) {
        case .json(let value):
            var pretty: [UInt8] = []
            value.append(to: &pretty, layout: .indented)
            appendLines(pretty, indent: indent, to: &buffer)
        case .text:
            appendAutomatic(body, indent: indent, to: &buffer)
        case .hex:
            HexASCIIDump.append(body, indent: indent, to: &buffer)
        case .protobuf:
            var text = ProtobufRawText(indent: indent)
            do {
                try body.withUnsafeBytes { bytes in try ProtobufRawDecoder.decode(bytes, into: &text) }
                buffer.append(contentsOf: text.output)
            } catch {
                appendFailure(body, reason: BodyDecoding.reason(view, error), indent: indent, to: &buffer)
            }
        case .msgpack(let value):
            MessagePackRendering.appendText(value, indent: indent, to: &buffer)
        case .proto(let message):
            ProtoText.append(message, schema: schema ?? ProtoSchema(), indent: indent, to: &buffer)
        case .failed(let reason):
            appendFailure(body, reason: reason, indent: indent, to: &buffer)
        }
    }

    /// The automatic choice (``BodyPresentation``): pretty JSON, text lines, or hex.
    private static func appendAutomatic(_ body: ArraySlice<UInt8>, indent: String, to buffer: inout [UInt8]) {
        switch BodyPresentation(body) {
        case .json(let pretty):
            appendLines(pretty, indent: indent, to: &buffer)
        case .text(let lines):
            for line in lines {
                buffer.append(contentsOf: indent.utf8)
                buffer.append(contentsOf: line.utf8)
                buffer.append(UInt8(ascii: "\n"))
            }
        case .binary:
            HexASCIIDump.append(body, indent: indent, to: &buffer)
        }
    }

    private static func appendLines(_ text: [UInt8], indent: String, to buffer: inout [UInt8]) {
        for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            buffer.append(contentsOf: indent.utf8)
            buffer.append(contentsOf: line)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    private static func appendFailure(_ body: ArraySlice<UInt8>, reason: String, indent: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "\(indent)(\(reason))\n".utf8)
        HexASCIIDump.append(body, indent: indent, to: &buffer)
    }
}
