import FrameCodec
import PacketDecoding

/// Renders frames and events for people: one block per frame, one line per event, a summary.
///
/// ```
/// frame  offset 0  body 249 bytes  magic=0xfefd len=249
///   {
///     "id": 7,
///     …
///   }
///
/// frame  offset 253  body 5 bytes  magic=0x55aa ver=1 cmd=msg(3) len=5 crc=0x3610a686  crc ok
///   hello
///
/// skip  offset 275  7 bytes with no valid header
///
/// 2 frames; 7 bytes skipped
/// ```
///
/// The heading gives the frame's offset in its stream, the body length, every integer header
/// field (magic and checksum fields in hex, others in decimal; a named value as `msg(3)`) and,
/// for formats with a checksum, `crc ok` or `crc MISMATCH`. The body follows, indented, as `--body` chooses
/// (``BodyText``): by default pretty JSON, text, or a `hexdump -C` style dump (``BodyPresentation``).
///
/// Outputs of labelled streams (captures, sockets) start with the connection, direction and
/// endpoints, the arrow pointing the way the bytes went, and the time when known:
/// `conn 3 s2c 127.0.0.1:9000 → 127.0.0.1:51000  2024-05-01T12:00:00.123456789Z  frame  offset 0  …`.
struct TextRenderer {
    let format: FrameFormat
    let style: TextStyle
    /// Whether bodies are shown under their headings (`--payload hex`) or left out (`none`).
    let showsBody: Bool
    /// How each frame's body is shown (`--body`).
    private let bodies: BodySelection.Resolved
    private let payloadStart: Int?
    /// Whether a block was written, so the next one is preceded by a blank line. Renderers that
    /// share one output (a capture has one per frame format) keep it in step.
    var wroteBlock = false

    init(format: FrameFormat, style: TextStyle, showsBody: Bool = true, bodies: BodySelection = BodySelection()) {
        self.format = format
        self.style = style
        self.showsBody = showsBody
        self.bodies = bodies.resolved(for: format)
        payloadStart = format.payloadOffset
    }

    mutating func render(_ output: FrameDecoderOutput, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8]) {
        if wroteBlock { buffer.append(UInt8(ascii: "\n")) }
        wroteBlock = true
        if let label {
            buffer.append(contentsOf: "conn \(label.connection) \(label.direction) \(label.sourceText) → \(label.destinationText)  ".utf8)
            if let time {
                RFC3339Timestamp.append(time, to: &buffer)
                buffer.append(contentsOf: "  ".utf8)
            }
        }
        switch output {
        case .frame(let frame):
            appendFrame(frame, to: &buffer)
        case .skip(let offset, let byteCount):
            // A delimiter format skips only frames over the max, or the rest of one after a gap.
            let why = format.isDelimited ? " in a frame over the max or after a gap, through its delimiter" : " with no valid header"
            appendEvent("skip", .warning, offset: offset, counted(byteCount, "byte") + why, to: &buffer)
        case .oversize(let offset, let declaredLength):
            appendEvent(
                "oversize", .bad, offset: offset,
                "length field says \(declaredLength), over the \(format.maxFrameLength)-byte frame limit; skipped 1 byte to resync",
                to: &buffer
            )
        case .truncated(let offset, let byteCount):
            appendEvent("truncated", .warning, offset: offset, counted(byteCount, "byte") + " at end of stream, not a whole frame", to: &buffer)
        case .gap(let offset, let byteCount):
            appendEvent("gap", .bad, offset: offset, counted(byteCount, "byte") + " never captured", to: &buffer)
        }
    }

    func finish(_ summary: DecodeSummary, into buffer: inout [UInt8]) {
        var parts = [counted(summary.frames, "frame")]
        if summary.checksumMismatches > 0 {
            parts[0] += " (\(style.apply(.bad, "\(summary.checksumMismatches) crc MISMATCH")))"
        }
        if summary.skips > 0 { parts.append(counted(summary.skippedBytes, "byte") + " skipped") }
        if summary.oversizeHeaders > 0 {
            parts.append(counted(summary.oversizeHeaders, "oversize header"))
        }
        if summary.truncations > 0 { parts.append(counted(summary.truncatedBytes, "byte") + " truncated") }
        if summary.gaps > 0 { parts.append(counted(summary.gapBytes, "byte") + " never captured") }
        if summary.discards > 0 { parts.append(counted(summary.discardedBytes, "byte") + " discarded behind unacknowledged holes") }
        if summary.notices > 0 { parts.append(counted(summary.notices, "reassembly notice")) }
        if wroteBlock { buffer.append(UInt8(ascii: "\n")) }
        buffer.append(contentsOf: (parts.joined(separator: "; ") + "\n").utf8)
    }

    private func appendEvent(_ name: String, _ tone: TextStyle.Tone, offset: UInt64, _ detail: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "\(style.apply(tone, name))  offset \(offset)  \(detail)\n".utf8)
    }

    private func appendFrame(_ frame: Frame, to buffer: inout [UInt8]) {
        let body = frame.payload(from: payloadStart)
        var heading = "\(style.apply(.heading, "frame"))  offset \(frame.offset)  body \(counted(body.count, "byte"))"
        let header = frame.header
        var fieldText: [String] = []
        let values = format.hasVariableLayout ? format.fieldValues(in: header) : []
        for (index, field) in format.fields.enumerated() where field.role != .opaque {
            let value = values.isEmpty ? format.value(ofField: index, in: header) : values[index]
            var number = "\(value)"
            if index == format.magicFieldIndex || index == format.checksumFieldIndex {
                var hex: [UInt8] = []
                ByteFormatting.appendHex(value, digits: field.width * 2, to: &hex)
                number = "0x" + String(decoding: hex, as: UTF8.self)
            }
            if let name = field.name(ofValue: value) {
                fieldText.append("\(field.name)=\(name)(\(number))")
            } else {
                fieldText.append("\(field.name)=\(number)")
            }
        }
        if !fieldText.isEmpty { heading += "  " + fieldText.joined(separator: " ") }
        switch frame.crcOK {
        case true?: heading += "  " + style.apply(.good, "crc ok")
        case false?: heading += "  " + style.apply(.bad, "crc MISMATCH")
        case nil: break
        }
        buffer.append(contentsOf: heading.utf8)
        buffer.append(UInt8(ascii: "\n"))
        guard showsBody, !body.isEmpty else { return }
        let view = bodies.view(for: frame)
        guard view != .none else { return }
        BodyText.append(body, view: view, schema: bodies.schema, indent: "  ", to: &buffer)
    }
}
