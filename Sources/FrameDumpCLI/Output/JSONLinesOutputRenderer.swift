import FrameCodec
import PacketDecoding
import StreamFraming
import TLSDecryption

/// Renders decoding as JSON Lines: frames and events (for labelled streams — captures, sockets —
/// with `conn`, `dir`, `src`, `dst` and `ts` after `type`), and the capture's own line types
/// (docs/cli.md):
///
/// ```
/// {"type":"frame","conn":1,"src":"10.0.0.1:40000","dst":"10.0.0.2:7000","ts":"2023-11-14T22:13:20.004000148Z","offset":0,…}
/// {"type":"gap","conn":1,"src":…,"dst":…,"ts":…,"offset":69,"length":65}
/// {"type":"limit","conn":7,"src":…,"dst":…,"ts":…,"limit":"out_of_order_bytes_per_direction"}
/// {"type":"rst_ignored","conn":1,"dir":"s2c",…,"ts":…,"seq":5201,"expected":5101}
/// {"type":"out_of_window","conn":1,…,"seq":2147488749,"expected":5101,"length":100}
/// {"type":"overlap","conn":1,…,"offset":40,"length":30,"kept":"first"}
/// {"type":"discarded","conn":1,…,"offset":100,"length":200,"captured":100}
/// {"type":"malformed_packet","ts":…,"packet":17,"offset":34,"reason":"truncated TCP header"}
/// {"type":"fragments_dropped","ts":…,"src":"10.0.0.1","dst":"10.0.0.2","id":7,"reason":"end_of_capture","length":128}
/// {"type":"tls","conn":1,"dir":"c2s",…,"version":"TLS 1.3","cipher_suite":"TLS_AES_128_GCM_SHA256","sni":"localhost","alpn":["h12"],"keys":true,…}
/// {"type":"tls_decrypt_error","conn":1,"dir":"s2c",…,"offset":1380,"length":93,"reason":"tag"}
/// {"type":"summary","conn":1,"client":…,"server":…,"c2s":{…},"s2c":{…}}
/// ```
struct JSONLinesOutputRenderer: OutputRenderer {
    /// Whether frames carry `payload_hex`.
    let includesPayload: Bool
    private var writers: [JSONLinesWriter] = []

    /// How bodies are decoded into the `body` key (`--body`; none unless it is given).
    let bodies: BodySelection

    init(includesPayload: Bool, bodies: BodySelection = BodySelection()) {
        self.includesPayload = includesPayload
        self.bodies = bodies
    }

    mutating func add(_ format: FrameFormat) -> Int {
        writers.append(JSONLinesWriter(format: format, includesPayload: includesPayload, bodies: bodies))
        return writers.count - 1
    }

    mutating func render(_ output: FrameDecoderOutput, format: Int?, label: StreamLabel?, time: Timestamp?,
                         into buffer: inout [UInt8]) {
        if let format {
            writers[format].render(output, label: label, time: time, into: &buffer)
        } else {
            // A skip or a gap reads no field: any layout renders it.
            unframed.render(output, label: label, time: time, into: &buffer)
        }
    }

    /// The writer of the outputs of streams that have no format.
    private var unframed = JSONLinesWriter(format: .u32, includesPayload: false)

    func renderLimit(_ limit: FramingLimit, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: "{\"type\":\"limit\"".utf8)
        JSONLinesWriter.appendStreamKeys(label: label, time: time, to: &buffer)
        buffer.append(contentsOf: ",\"limit\":".utf8)
        JSONString.append(Self.name(of: limit), to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
    }

    func renderNotice(_ notice: ReassemblyNotice, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        func number(_ key: String, _ value: UInt64) {
            buffer.append(contentsOf: ",\"\(key)\":".utf8)
            ByteFormatting.appendDecimal(value, to: &buffer)
        }
        let type = switch notice {
        case .resetIgnored: "rst_ignored"
        case .outOfWindow: "out_of_window"
        case .overlap: "overlap"
        case .discarded: "discarded"
        }
        buffer.append(contentsOf: "{\"type\":\"\(type)\"".utf8)
        JSONLinesWriter.appendStreamKeys(label: label, time: time, to: &buffer)
        switch notice {
        case .resetIgnored(let sequenceNumber, let expected):
            number("seq", UInt64(sequenceNumber))
            number("expected", UInt64(expected))
        case .outOfWindow(let sequenceNumber, let expected, let byteCount):
            number("seq", UInt64(sequenceNumber))
            number("expected", UInt64(expected))
            number("length", byteCount)
        case .overlap(let offset, let length, let kept):
            number("offset", offset)
            number("length", length)
            buffer.append(contentsOf: ",\"kept\":\"\(kept)\"".utf8)
        case .discarded(let offset, let length, let capturedBytes):
            number("offset", offset)
            number("length", length)
            number("captured", capturedBytes)
        }
        buffer.append(contentsOf: "}\n".utf8)
    }

    func renderMalformedPacket(number: Int, time: Timestamp, reason: MalformedReason, offset: Int,
                               into buffer: inout [UInt8]) {
        appendOpening("malformed_packet", time: time, to: &buffer)
        buffer.append(contentsOf: ",\"packet\":".utf8)
        ByteFormatting.appendDecimal(UInt64(max(0, number)), to: &buffer)
        buffer.append(contentsOf: ",\"offset\":".utf8)
        ByteFormatting.appendDecimal(UInt64(max(0, offset)), to: &buffer)
        buffer.append(contentsOf: ",\"reason\":".utf8)
        JSONString.append(reason.description, to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
    }

    func renderUnsupported(_ counts: UnsupportedLayerCounts, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: "{\"type\":\"unsupported\",\"packets\":".utf8)
        ByteFormatting.appendDecimal(UInt64(max(0, counts.packets)), to: &buffer)
        buffer.append(contentsOf: ",\"layers\":".utf8)
        counts.appendJSONObject(to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
    }

    func renderFragmentsDropped(_ drop: IPDefragmenter.Drop, time: Timestamp, into buffer: inout [UInt8]) {
        appendOpening("fragments_dropped", time: time, to: &buffer)
        buffer.append(contentsOf: ",\"src\":".utf8)
        JSONString.append(drop.source.description, to: &buffer)
        buffer.append(contentsOf: ",\"dst\":".utf8)
        JSONString.append(drop.destination.description, to: &buffer)
        buffer.append(contentsOf: ",\"id\":".utf8)
        ByteFormatting.appendDecimal(UInt64(drop.identification), to: &buffer)
        buffer.append(contentsOf: ",\"reason\":".utf8)
        JSONString.append(Self.name(of: drop.reason), to: &buffer)
        buffer.append(contentsOf: ",\"length\":".utf8)
        ByteFormatting.appendDecimal(UInt64(max(0, drop.bytesReceived)), to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
    }

    func renderTLS(_ event: TLSEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        func open(_ type: String) {
            buffer.append(contentsOf: "{\"type\":\"\(type)\"".utf8)
            JSONLinesWriter.appendStreamKeys(label: label, time: time, to: &buffer)
        }
        func number(_ key: String, _ value: UInt64) {
            buffer.append(contentsOf: ",\"\(key)\":".utf8)
            ByteFormatting.appendDecimal(value, to: &buffer)
        }
        func string(_ key: String, _ value: String?) {
            buffer.append(contentsOf: ",\"\(key)\":".utf8)
            if let value { JSONString.append(value, to: &buffer) } else { buffer.append(contentsOf: "null".utf8) }
        }
        func flag(_ key: String, _ value: Bool) {
            buffer.append(contentsOf: ",\"\(key)\":\(value)".utf8)
        }
        switch event {
        case .session(let session):
            open("tls")
            string("version", session.versionName)
            string("cipher_suite", session.cipherSuiteName)
            string("sni", session.serverName)
            buffer.append(contentsOf: ",\"alpn\":[".utf8)
            for (index, name) in session.alpn.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONString.append(name, to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
            flag("keys", session.keysFound)
            flag("resumed", session.resumed)
            flag("hello_retry", session.helloRetried)
            if session.version == 0x0303 {
                flag("encrypt_then_mac", session.encryptThenMAC)
                flag("extended_master_secret", session.extendedMasterSecret)
            }
        case .noKey(_, let offset, let length, let reason):
            open("tls_no_key")
            number("offset", offset)
            number("length", length)
            string("reason", reason.description)
            if case .unsupportedCipherSuite(let suite) = reason { string("cipher_suite", "0x" + String(suite, radix: 16)) }
        case .decryptError(_, let offset, let length, let reason):
            open("tls_decrypt_error")
            number("offset", offset)
            number("length", length)
            string("reason", reason.description)
        case .alert(_, let offset, let level, let description):
            open("tls_alert")
            number("offset", offset)
            string("level", TLSAlert.levelName(level))
            number("description", UInt64(description))
            string("name", TLSAlert.descriptionName(description))
        }
        buffer.append(contentsOf: "}\n".utf8)
    }

    func renderTotals(_ totals: ConnectionTotals, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: "{\"type\":\"summary\",\"conn\":".utf8)
        ByteFormatting.appendDecimal(UInt64(max(0, totals.connection)), to: &buffer)
        buffer.append(contentsOf: ",\"client\":".utf8)
        JSONString.append(totals.client.description, to: &buffer)
        buffer.append(contentsOf: ",\"server\":".utf8)
        JSONString.append(totals.server.description, to: &buffer)
        for direction in StreamDirection.allCases {
            buffer.append(UInt8(ascii: ","))
            JSONString.append(direction.description, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            appendStreamTotals(totals.directions[direction.rawValue], to: &buffer)
        }
        buffer.append(contentsOf: "}\n".utf8)
    }

    func finish(_ summary: DecodeSummary, into buffer: inout [UInt8]) {}

    /// `{"format":…,"frames":…,…,"cmd":{"3":5},"cmd_names":{"3":"msg"}}`; `format` is `null` for
    /// a direction that carried no data (or, over WebSocket without `--inner`, no inner frames),
    /// `websocket` (`frames`, `bytes`, `messages`, `message_bytes`, `errors`, `unread_bytes`)
    /// appears for a WebSocket direction, `cmd` appears only for formats with a `cmd` field,
    /// `cmd_names` only when the format names some of the counted values.
    private func appendStreamTotals(_ totals: StreamTotals, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "{\"format\":".utf8)
        if let format = totals.format {
            JSONString.append(format.name, to: &buffer)
        } else {
            buffer.append(contentsOf: "null".utf8)
        }
        let counts = totals.counts
        let numbers: [(String, UInt64)] = [
            ("frames", UInt64(counts.frames)), ("bytes", totals.frameBytes),
            ("crc_errors", UInt64(counts.checksumMismatches)),
            ("skips", UInt64(counts.skips)), ("skipped_bytes", counts.skippedBytes),
            ("oversize", UInt64(counts.oversizeHeaders)),
            ("truncated", UInt64(counts.truncations)), ("truncated_bytes", counts.truncatedBytes),
            ("gaps", UInt64(counts.gaps)), ("gap_bytes", counts.gapBytes),
        ]
        for (key, value) in numbers {
            buffer.append(contentsOf: ",\"\(key)\":".utf8)
            ByteFormatting.appendDecimal(value, to: &buffer)
        }
        if let webSocket = totals.webSocket {
            let layer: [(String, UInt64)] = [
                ("handshake_bytes", webSocket.headBytes), ("frames", UInt64(webSocket.frames)), ("bytes", webSocket.frameBytes),
                ("messages", UInt64(webSocket.messages)), ("message_bytes", webSocket.messageBytes),
                ("errors", UInt64(webSocket.errors)), ("unread_bytes", webSocket.unreadBytes),
            ]
            buffer.append(contentsOf: ",\"websocket\":{".utf8)
            for (index, (key, value)) in layer.enumerated() {
                buffer.append(contentsOf: "\(index > 0 ? "," : "")\"\(key)\":".utf8)
                ByteFormatting.appendDecimal(value, to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
        if totals.format.map({ $0.fields.contains { $0.name == "cmd" } }) == true {
            buffer.append(contentsOf: ",\"cmd\":{".utf8)
            for (index, entry) in totals.commandHistogram.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.append(UInt8(ascii: "\""))
                ByteFormatting.appendDecimal(entry.value, to: &buffer)
                buffer.append(contentsOf: "\":".utf8)
                ByteFormatting.appendDecimal(UInt64(entry.frames), to: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
            appendCommandNames(totals, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `,"cmd_names":{"3":"msg"}`: the names of the counted commands the format names; nothing
    /// when it names none of them.
    private func appendCommandNames(_ totals: StreamTotals, to buffer: inout [UInt8]) {
        guard let command = totals.format?.fields.first(where: { $0.name == "cmd" }) else { return }
        let named = totals.commandHistogram.compactMap { entry in command.name(ofValue: entry.value).map { (entry.value, $0) } }
        guard !named.isEmpty else { return }
        buffer.append(contentsOf: ",\"cmd_names\":{".utf8)
        for (index, (value, name)) in named.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(UInt8(ascii: "\""))
            ByteFormatting.appendDecimal(value, to: &buffer)
            buffer.append(contentsOf: "\":".utf8)
            JSONString.append(name, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"type":"NAME","ts":"…"`.
    private func appendOpening(_ name: String, time: Timestamp, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "{\"type\":\"\(name)\"".utf8)
        JSONLinesWriter.appendStreamKeys(label: nil, time: time, to: &buffer)
    }

    /// The JSON `limit` value.
    private static func name(of limit: FramingLimit) -> String {
        switch limit {
        case .reassembly(let limit): limit.description
        case .bufferedBytesTotal: "buffered_bytes_total"
        case .heldOutputsTotal: "held_outputs_total"
        }
    }

    /// The JSON value of a drop reason.
    private static func name(of reason: IPDefragmenter.DropReason) -> String {
        switch reason {
        case .timeout: "timeout"
        case .memoryLimit: "memory_limit"
        case .datagramLimit: "datagram_limit"
        case .endOfCapture: "end_of_capture"
        }
    }
}
