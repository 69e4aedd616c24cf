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
///   the other keys were published, so it comes after them.
/// - `names` (after `frame_length`, added later still) gives the name of each header field value
///   the format names (`cmd:u8{1=ping,…}`): `"names":{"cmd":"ping"}`; `fields` keeps the number.
///   Left out when no field's value has a name.
/// - `body` (last) is the payload decoded as `--body` chooses (``BodyJSON``); only when
///   `--body` is given, and not for frames whose view is `none`.
/// - Outputs of labelled streams (captures, sockets) carry `conn`, `src` and `dst` right after
///   `type`, and `ts` (RFC 3339, UTC, nanoseconds) when the time is known:
///   `{"type":"frame","conn":1,"src":"127.0.0.1:51000","dst":"127.0.0.1:9000","ts":"2024-05-01T12:00:00.123456789Z","offset":0,…}`
///
/// The JSON is written by hand: the field-name keys are escaped once per format, a stream's
/// `conn`/`dir`/`src`/`dst` text once per stream (``StreamLabel/jsonKeys``), the date and time of `ts`
/// once per second; each line is written through a ``ByteCursor`` into a scratch sized for it and
/// appended to the output buffer in one copy. Nothing allocates per frame.
struct JSONLinesWriter {
    let format: FrameFormat
    /// Whether frames carry `payload_hex`.
    let includesPayload: Bool
    /// ``FrameFormat/hasVariableLayout``, which walks the fields each time it is asked.
    private let hasVariableLayout: Bool
    /// The integer fields of ``format`` in header order (opaque fields carry no integer).
    private let fields: [FieldKey]
    /// The keys of ``fields``, one after the other: `"magic":`, `,"ver":`, …, then
    /// ``ByteCursor/paddedPieceLimit`` zero bytes, so that every key can be copied by
    /// ``ByteCursor/appendPadded(_:)``.
    private let keyBytes: [UInt8]
    private let payloadStart: Int?
    /// The most bytes of a line besides the stream's keys and the payload hex.
    private let lineBound: Int
    /// The `names` and `body` keys' inputs, `nil` when the format names no values and no body is
    /// decoded: one reference, so a frame of such a format pays one nil check and a copy of the
    /// writer retains nothing more.
    private let extras: Extras?
    private var timestamps = RFC3339Timestamp.Cache()
    private let scratch = LineScratch()

    /// What the keys after `frame_length` need.
    private final class Extras {
        /// The fields of the format with value names, for `names`.
        let namedFields: [NamedField]
        /// Every named value of ``namedFields``, each field's in one run.
        let valueNames: [ValueText]
        /// The JSON text ``namedFields`` and ``valueNames`` point into: `"cmd":`, `"ping"`, ….
        let text: [UInt8]
        /// How bodies are decoded into `body`; `nil` when no frame gets one (no `--body`, or
        /// `--body none`).
        let bodies: BodySelection.Resolved?

        init(format: FrameFormat, bodies: BodySelection.Resolved?) {
            var namedFields: [NamedField] = []
            var valueNames: [ValueText] = []
            var text: [UInt8] = []
            for (index, field) in format.fields.enumerated() where !field.valueNames.isEmpty {
                let keyStart = text.count
                JSONString.append(field.name, to: &text)
                text.append(UInt8(ascii: ":"))
                let namesStart = valueNames.count
                for entry in field.valueNames {
                    let start = text.count
                    JSONString.append(entry.name, to: &text)
                    valueNames.append(ValueText(value: entry.value, start: start, count: text.count - start))
                }
                namedFields.append(NamedField(index: index, offset: format.offset(ofField: index), width: field.width,
                                              isBigEndian: field.byteOrder == .bigEndian, keyStart: keyStart,
                                              keyCount: namesStart == valueNames.count ? 0 : valueNames[namesStart].start - keyStart,
                                              names: namesStart..<valueNames.count))
            }
            self.namedFields = namedFields
            self.valueNames = valueNames
            self.text = text
            self.bodies = bodies
        }

        /// The most bytes `names` takes: `,"names":{…}` with each field's key and its longest name.
        var namesBound: Int {
            12 + namedFields.reduce(0) { sum, field in
                sum + 1 + field.keyCount + (valueNames[field.names].map(\.count).max() ?? 0)
            }
        }
    }

    /// A field with value names: where its value is, and where its key and names are in
    /// ``Extras/text``. Plain integers, so reading it per frame takes no reference counting.
    private struct NamedField {
        /// The field's index in the format.
        var index: Int
        var offset: Int
        var width: Int
        var isBigEndian: Bool
        /// `"cmd":`.
        var keyStart: Int
        var keyCount: Int
        /// The field's entries in ``Extras/valueNames``.
        var names: Range<Int>
    }

    /// A named value and where its name, as a JSON string (`"ping"`), is in ``Extras/text``.
    private struct ValueText {
        var value: UInt64
        var start: Int
        var count: Int
    }

    /// One integer field: where its key is in ``keyBytes`` and its value in the header. Plain
    /// integers, so walking the fields per frame takes no reference counting.
    private struct FieldKey {
        var keyStart: Int
        var keyCount: Int
        var offset: Int
        var width: Int
        var isBigEndian: Bool
        /// For a field whose every valid header holds one value (a magic): that value, whose
        /// digits follow the key in ``keyBytes`` (`keyCount` counts them), so that a frame
        /// holding it costs one compare instead of a decimal conversion; `nil` otherwise.
        var constant: UInt64?
    }

    init(format: FrameFormat, includesPayload: Bool, bodies: BodySelection = BodySelection()) {
        self.format = format
        self.includesPayload = includesPayload
        hasVariableLayout = format.hasVariableLayout
        let resolved = bodies.resolved(for: format)
        let decodesBodies = bodies.isExplicit && (resolved.defaultView != .none || !resolved.matches.isEmpty)
        payloadStart = format.payloadOffset
        var fields: [FieldKey] = []
        var keyBytes: [UInt8] = []
        for (index, field) in format.fields.enumerated() where field.role != .opaque {
            let keyStart = keyBytes.count
            if !fields.isEmpty { keyBytes.append(UInt8(ascii: ",")) }
            JSONString.append(field.name, to: &keyBytes)
            keyBytes.append(UInt8(ascii: ":"))
            let constant = field.expected.flatMap { $0.count == 1 ? $0.lowerBound : nil }
            if let constant { ByteFormatting.appendDecimal(constant, to: &keyBytes) }
            fields.append(FieldKey(keyStart: keyStart, keyCount: keyBytes.count - keyStart, offset: format.offset(ofField: index),
                                   width: field.width, isBigEndian: field.byteOrder == .bigEndian, constant: constant))
        }
        self.fields = fields
        self.keyBytes = keyBytes + repeatElement(0, count: ByteCursor.paddedPieceLimit)
        // The longest fixed text and numbers: `{"type":"truncated"`, `,"ts":"…"`, offset, length,
        // declared or `"fields":{…}` with a number per field, crc_ok, frame_length.
        let numbers = 4 * (16 + ByteCursor.maxDecimalDigits)
        let fieldText = 12 + keyBytes.count + fields.count * ByteCursor.maxDecimalDigits
        let namesFields = format.fields.contains { !$0.valueNames.isEmpty }
        extras = !namesFields && !decodesBodies ? nil : Extras(format: format, bodies: decodesBodies ? resolved : nil)
        lineBound = 32 + 8 + RFC3339Timestamp.Cache.maxCount + numbers + fieldText + (extras?.namesBound ?? 0) + 32
    }

    mutating func render(_ output: FrameDecoderOutput, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8]) {
        var line = scratch.cursor(capacity: lineBound + (label?.jsonKeys.count ?? 0))
        switch output {
        case .frame:
            line.append("{\"type\":\"frame\"")
        case .skip:
            line.append("{\"type\":\"skip\"")
        case .oversize:
            line.append("{\"type\":\"oversize\"")
        case .truncated:
            line.append("{\"type\":\"truncated\"")
        case .gap:
            line.append("{\"type\":\"gap\"")
        }
        if let label { line.append(label.jsonKeys) }
        if let time {
            line.append(",\"ts\":\"")
            timestamps.write(time, to: &line)
            line.append(UInt8(ascii: "\""))
        }
        switch output {
        case .frame(let frame):
            appendFrame(frame, line: &line, to: &buffer)
        case .oversize(let offset, let declaredLength):
            appendEvent(offset: offset, length: 1, declared: declaredLength, to: &line)
        case .skip(let offset, let byteCount), .truncated(let offset, let byteCount), .gap(let offset, let byteCount):
            appendEvent(offset: offset, length: byteCount, to: &line)
        }
        buffer.append(contentsOf: line.written)
    }

    func finish(_ summary: DecodeSummary, into buffer: inout [UInt8]) {}

    /// Appends `,"conn":…,"src":…,"dst":…` when `label` is known and `,"ts":…` when `time` is:
    /// the keys that follow `type` for labelled streams (the capture's own events use them).
    static func appendStreamKeys(label: StreamLabel?, time: Timestamp?, to buffer: inout [UInt8]) {
        if let label { buffer.append(contentsOf: label.jsonKeys) }
        if let time {
            buffer.append(contentsOf: ",\"ts\":\"".utf8)
            RFC3339Timestamp.append(time, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        }
    }

    /// Writes an event's offset, length and, for oversize, the declared length; closes the object.
    private func appendEvent(offset: UInt64, length: UInt64, declared: UInt64? = nil, to line: inout ByteCursor) {
        line.append(",\"offset\":")
        line.appendDecimal(offset)
        line.append(",\"length\":")
        line.appendDecimal(length)
        if let declared {
            line.append(",\"declared\":")
            line.appendDecimal(declared)
        }
        line.append("}\n")
    }

    /// Writes a frame's keys after `ts`; the payload hex, when asked for, goes straight to
    /// `buffer` between what `line` holds before it and the rest, written after it.
    private func appendFrame(_ frame: Frame, line: inout ByteCursor, to buffer: inout [UInt8]) {
        line.append(",\"offset\":")
        line.appendDecimal(frame.offset)
        line.append(",\"length\":")
        // Counted in the stream: a frame whose body was dropped holds no payload bytes.
        line.appendDecimal(UInt64(frame.payloadLength(from: payloadStart)))
        line.append(",\"fields\":{")
        if hasVariableLayout {
            appendWalkedFields(frame, to: &line)
        } else {
            appendFixedFields(frame, to: &line)
        }
        line.append(UInt8(ascii: "}"))
        if let crcOK = frame.crcOK {
            line.append(crcOK ? ",\"crc_ok\":true" : ",\"crc_ok\":false")
        }
        if includesPayload {
            line.append(",\"payload_hex\":\"")
            buffer.append(contentsOf: line.written)
            ByteFormatting.appendHex(frame.payload(from: payloadStart), to: &buffer)
            line = scratch.cursor(capacity: lineBound)
            line.append(UInt8(ascii: "\""))
        }
        line.append(",\"frame_length\":")
        line.appendDecimal(UInt64(frame.length))
        if let extras {
            appendExtras(extras, frame, line: &line, to: &buffer)
        }
        line.append("}\n")
    }

    /// The fields of a fixed layout, read at their precomputed offsets.
    @inline(__always)
    private func appendFixedFields(_ frame: Frame, to line: inout ByteCursor) {
        keyBytes.withUnsafeBytes { keys in
            fields.withUnsafeBufferPointer { fields in
                frame.bytes.withUnsafeBytes { header in
                    for field in fields {
                        var value: UInt64 = 0
                        for byte in 0..<field.width {
                            let position = field.isBigEndian ? byte : field.width &- 1 &- byte
                            value = value &<< 8 | UInt64(header[field.offset &+ position])
                        }
                        let key = UnsafeRawBufferPointer(rebasing: keys[field.keyStart..<field.keyStart &+ field.keyCount])
                        if let constant = field.constant {
                            if value == constant {
                                line.appendPadded(key)
                                continue
                            }
                            line.appendPadded(UnsafeRawBufferPointer(rebasing: key[..<(key.count &- ByteCursor.decimalDigitCount(constant))]))
                        } else {
                            line.appendPadded(key)
                        }
                        line.appendDecimal(value)
                    }
                }
            }
        }
    }

    /// The fields of a layout with varints or bit fields, read by walking the header.
    private func appendWalkedFields(_ frame: Frame, to line: inout ByteCursor) {
        let values = format.fieldValues(in: frame.header)
        var key = 0
        keyBytes.withUnsafeBytes { keys in
            for (index, field) in format.fields.enumerated() where field.role != .opaque {
                let entry = fields[key]
                key += 1
                let digits = entry.constant.map { ByteCursor.decimalDigitCount($0) } ?? 0
                line.appendPadded(UnsafeRawBufferPointer(rebasing: keys[entry.keyStart..<entry.keyStart &+ entry.keyCount &- digits]))
                line.appendDecimal(values[index])
            }
        }
    }

    /// `names`, then `body`.
    /// Out of line, so that the common path (no extras) stays as small as before they existed.
    @inline(never)
    private func appendExtras(
        _ extras: Extras, _ frame: Frame,
        line: inout ByteCursor, to buffer: inout [UInt8]
    ) {
        if !extras.namedFields.isEmpty { appendNames(extras, frame, to: &line) }
        if let bodies = extras.bodies {
            let view = bodies.view(forHeader: frame.header)
            if view != .none {
                buffer.append(contentsOf: line.written)
                BodyJSON.append(frame.payload(from: payloadStart), view: view, schema: bodies.schema, to: &buffer)
                line = scratch.cursor(capacity: lineBound)
            }
        }
    }

    /// `,"names":{"cmd":"ping"}`: the name of each named field's value, for the fields whose
    /// value has one; nothing when none has.
    private func appendNames(_ extras: Extras, _ frame: Frame, to line: inout ByteCursor) {
        var wroteAny = false
        extras.text.withUnsafeBytes { text in
            extras.valueNames.withUnsafeBufferPointer { valueNames in
                for field in extras.namedFields {
                    // A varint or bit field has no fixed offset: the header is walked for it.
                    // A fixed field lies at its offset in the header, the start of the frame's bytes.
                    let value = hasVariableLayout ? format.value(ofField: field.index, in: frame.header) : frame.bytes.withUnsafeBytes { bytes in
                        var value: UInt64 = 0
                        for byte in 0..<field.width {
                            value = value &<< 8 | UInt64(bytes[field.offset &+ (field.isBigEndian ? byte : field.width &- 1 &- byte)])
                        }
                        return value
                    }
                    guard let entry = valueNames[field.names].first(where: { $0.value == value }) else { continue }
                    line.append(wroteAny ? "," : ",\"names\":{")
                    wroteAny = true
                    line.append(UnsafeRawBufferPointer(rebasing: text[field.keyStart..<field.keyStart &+ field.keyCount]))
                    line.append(UnsafeRawBufferPointer(rebasing: text[entry.start..<entry.start &+ entry.count]))
                }
            }
        }
        if wroteAny { line.append(UInt8(ascii: "}")) }
    }
}
