import FrameCodec
import PacketDecoding

/// Renders frames and events as JSON Lines (https://jsonlines.org): one object per line.
///
/// The schema is documented in docs/cli.md and stable: keys are only ever added, never renamed.
/// Keys appear in this fixed order:
///
/// ```
/// {"type":"frame","offset":0,"length":249,"fields":{"magic":65277,"len":249},"payload_hex":"7b22…","frame_length":253}
/// {"type":"skip","offset":253,"length":7}
/// {"type":"oversize","offset":260,"length":1,"declared":4294967295}
/// {"type":"truncated","offset":261,"length":12}
/// {"type":"gap","offset":273,"length":1000}
/// ```
///
/// - `length` is the payload's byte count for a frame, and the bytes accounted for by an event.
/// - `fields` holds every integer header field, magic, length and checksum included, in header
///   order; opaque fields carry no integer and are left out.
/// - `crc_ok` is present only when the format has a checksum field.
/// - `payload_hex` (lower-case hex of the payload) is left out with `--payload none`.
/// - `frame_length` is the whole frame, header included: `offset + frame_length` is where the
///   next record starts, whatever `strip=` makes the payload (and so `length`) be. It came after
///   the other keys were published, so it is last.
/// - Outputs of labelled streams (captures, sockets) carry `conn`, `src` and `dst` right after
///   `type`, and `ts` (RFC 3339, UTC, nanoseconds) when the time is known:
///   `{"type":"frame","conn":1,"src":"127.0.0.1:51000","dst":"127.0.0.1:9000","ts":"2024-05-01T12:00:00.123456789Z","offset":0,…}`
///
/// The JSON is written by hand into the output buffer: the field-name keys are escaped once per
/// format, numbers and hex go straight into the buffer, and nothing allocates per frame.
struct JSONLinesWriter: FrameRenderer {
    let format: FrameFormat
    /// Whether frames carry `payload_hex`.
    let includesPayload: Bool
    /// `"name":` for each field in ``format``, or `nil` for opaque fields; escaped once.
    private let fieldKeys: [[UInt8]?]
    private let payloadStart: Int?

    init(format: FrameFormat, includesPayload: Bool) {
        self.format = format
        self.includesPayload = includesPayload
        payloadStart = format.payloadOffset
        fieldKeys = format.fields.map { field in
            guard field.role != .opaque else { return nil }
            var key: [UInt8] = []
            JSONString.append(field.name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    mutating func render(_ output: FrameDecoderOutput, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8]) {
        switch output {
        case .frame:
            appendOpening("{\"type\":\"frame\"", label: label, time: time, to: &buffer)
        case .skip:
            appendOpening("{\"type\":\"skip\"", label: label, time: time, to: &buffer)
        case .oversize:
            appendOpening("{\"type\":\"oversize\"", label: label, time: time, to: &buffer)
        case .truncated:
            appendOpening("{\"type\":\"truncated\"", label: label, time: time, to: &buffer)
        case .gap:
            appendOpening("{\"type\":\"gap\"", label: label, time: time, to: &buffer)
        }
        switch output {
        case .frame(let frame):
            appendFrame(frame, to: &buffer)
        case .oversize(let offset, let declaredLength):
            appendEvent(offset: offset, length: 1, declared: declaredLength, to: &buffer)
        case .skip(let offset, let byteCount), .truncated(let offset, let byteCount), .gap(let offset, let byteCount):
            appendEvent(offset: offset, length: byteCount, to: &buffer)
        }
    }

    func finish(_ summary: DecodeSummary, into buffer: inout [UInt8]) {}

    /// Appends `opening` (the object's start up to the type's closing quote), then the stream's
    /// `conn`, `src`, `dst` and `ts` when known.
    private func appendOpening(_ opening: StaticString, label: StreamLabel?, time: Timestamp?, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
        Self.appendStreamKeys(label: label, time: time, to: &buffer)
    }

    /// Appends `,"conn":…,"src":…,"dst":…` when `label` is known and `,"ts":…` when `time` is:
    /// the keys that follow `type` for labelled streams (capture events use them too).
    static func appendStreamKeys(label: StreamLabel?, time: Timestamp?, to buffer: inout [UInt8]) {
        if let label {
            buffer.append(contentsOf: ",\"conn\":".utf8)
            ByteFormatting.appendDecimal(UInt64(label.connection), to: &buffer)
            buffer.append(contentsOf: ",\"src\":\"".utf8)
            buffer.append(contentsOf: label.sourceText.utf8)
            buffer.append(contentsOf: "\",\"dst\":\"".utf8)
            buffer.append(contentsOf: label.destinationText.utf8)
            buffer.append(UInt8(ascii: "\""))
        }
        if let time {
            buffer.append(contentsOf: ",\"ts\":\"".utf8)
            RFC3339Timestamp.append(time, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// Appends an event's offset, length and, for oversize, the declared length; closes the object.
    private func appendEvent(offset: UInt64, length: UInt64, declared: UInt64? = nil, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: ",\"offset\":".utf8)
        ByteFormatting.appendDecimal(offset, to: &buffer)
        buffer.append(contentsOf: ",\"length\":".utf8)
        ByteFormatting.appendDecimal(length, to: &buffer)
        if let declared {
            buffer.append(contentsOf: ",\"declared\":".utf8)
            ByteFormatting.appendDecimal(declared, to: &buffer)
        }
        buffer.append(contentsOf: "}\n".utf8)
    }

    private func appendFrame(_ frame: Frame, to buffer: inout [UInt8]) {
        let payload = frame.bytes.dropFirst(payloadStart ?? frame.headerLength)
        buffer.append(contentsOf: ",\"offset\":".utf8)
        ByteFormatting.appendDecimal(frame.offset, to: &buffer)
        buffer.append(contentsOf: ",\"length\":".utf8)
        ByteFormatting.appendDecimal(UInt64(payload.count), to: &buffer)
        buffer.append(contentsOf: ",\"fields\":{".utf8)
        let header = frame.header
        var first = true
        for (index, key) in fieldKeys.enumerated() {
            guard let key else { continue }
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            buffer.append(contentsOf: key)
            ByteFormatting.appendDecimal(format.value(ofField: index, in: header), to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
        if let crcOK = frame.crcOK {
            buffer.append(contentsOf: (crcOK ? ",\"crc_ok\":true" : ",\"crc_ok\":false").utf8)
        }
        if includesPayload {
            buffer.append(contentsOf: ",\"payload_hex\":\"".utf8)
            ByteFormatting.appendHex(payload, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(contentsOf: ",\"frame_length\":".utf8)
        ByteFormatting.appendDecimal(UInt64(frame.bytes.count), to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
    }
}
