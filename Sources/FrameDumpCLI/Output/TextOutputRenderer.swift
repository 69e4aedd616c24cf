import FrameCodec
import PacketDecoding
import StreamFraming
import TLSDecryption

/// Renders decoding for people: each frame or event as ``TextRenderer`` shows it (for a
/// labelled stream, the connection, direction, sender → receiver and time first), capture
/// events in the same style, the `--summary` blocks and the line of overall counts.
///
/// ```
/// conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000  2023-11-14T22:13:20.004000148Z  frame  offset 0  body 37 bytes  magic=0x55aa …  crc ok
///   {
///     "id": 1
///   }
///
/// conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000  2023-11-14T22:13:20.007000259Z  gap  offset 69  65 bytes never captured
///
/// summary  conn 1  10.0.0.1:40000 → 10.0.0.2:7000
///   c2s  h12  3 frames (167 bytes)  1 skipped (36 bytes)  1 truncated (20 bytes)  1 gap (65 bytes)  cmd msg(3):3
///   s2c  h12  5 frames (80 bytes)  cmd ack(4):5
///
/// 8 frames; 36 bytes skipped; 20 bytes truncated; 65 bytes never captured
/// ```
struct TextOutputRenderer: OutputRenderer {
    let style: TextStyle
    /// Whether frame bodies are shown.
    let showsBody: Bool
    private var renderers: [TextRenderer] = []
    /// Whether anything was written, so the next block is preceded by a blank line.
    private var wroteBlock = false

    /// How bodies are shown (`--body`).
    let bodies: BodySelection

    init(style: TextStyle, showsBody: Bool, bodies: BodySelection = BodySelection()) {
        self.style = style
        self.showsBody = showsBody
        self.bodies = bodies
    }

    mutating func add(_ format: FrameFormat) -> Int {
        renderers.append(TextRenderer(format: format, style: style, showsBody: showsBody, bodies: bodies))
        return renderers.count - 1
    }

    mutating func render(_ output: FrameDecoderOutput, format: Int?, label: StreamLabel?, time: Timestamp?,
                         into buffer: inout [UInt8]) {
        if let format {
            renderers[format].wroteBlock = wroteBlock
            renderers[format].render(output, label: label, time: time, into: &buffer)
        } else {
            // A skip or a gap reads no field: any layout renders it.
            var unframed = TextRenderer(format: .u32, style: style, showsBody: false)
            unframed.wroteBlock = wroteBlock
            unframed.render(output, label: label, time: time, into: &buffer)
        }
        wroteBlock = true
    }

    mutating func renderLimit(_ limit: FramingLimit, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        let what = switch limit {
        case .reassembly(.outOfOrderBytesPerDirection): "out-of-order bytes of this direction over the limit: its oldest hole is given up (a gap, or discarded if never acknowledged)"
        case .reassembly(.outOfOrderBytesTotal): "out-of-order bytes of all connections over the limit: this direction's holes are given up"
        case .reassembly(.maxConnections): "too many connections tracked: this one is evicted"
        case .bufferedBytesTotal: "bytes of unfinished frames of all streams over the limit: this direction's partial frame is truncated"
        case .heldOutputsTotal: "frames held back for capture order behind this direction over the limit: its format is decided from the bytes it has"
        }
        let stream = "conn \(label.connection) \(label.direction) \(label.sourceText) → \(label.destinationText)\(label.processText)"
        appendBlock(["\(stream)  \(Self.text(time))  \(style.apply(.bad, "limit"))  \(what)"], to: &buffer)
    }

    mutating func renderTLS(_ event: TLSEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        let stream = "conn \(label.connection) \(label.direction) \(label.sourceText) → \(label.destinationText)"
        let (name, what, isBad): (String, String, Bool) = switch event {
        case .session(let session):
            ("tls", "\(session.versionName) \(session.cipherSuiteName)"
                + (session.serverName.map { " sni \($0.terminalSafe)" } ?? "")
                + (session.alpn.isEmpty ? "" : " alpn \(session.alpn.joined(separator: ",").terminalSafe)")
                + (session.resumed ? " resumed" : "")
                + (session.keysFound ? ", keys found" : ", no keys in the key log"), false)
        case .noKey(_, let offset, let length, let reason):
            ("tls no key", "\(length) bytes from offset \(offset) not decrypted (\(reason))", true)
        case .decryptError(_, let offset, let length, let reason):
            ("tls decrypt error", "\(length) bytes of records from offset \(offset) did not decrypt (\(reason))", true)
        case .alert(_, let offset, let level, let description):
            ("tls alert", "\(TLSAlert.levelName(level)) \(TLSAlert.descriptionName(description) ?? String(description)) at offset \(offset)",
             level == 2)
        }
        appendBlock(["\(stream)  \(Self.text(time))  \(style.apply(isBad ? .bad : .good, name))  \(what)"], to: &buffer)
    }

    mutating func renderNotice(_ notice: ReassemblyNotice, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {
        let (name, what) = switch notice {
        case .resetIgnored(let sequenceNumber, let expected):
            ("rst ignored", "seq \(sequenceNumber), expected \(expected): not the next byte, the connection goes on")
        case .outOfWindow(let sequenceNumber, let expected, let byteCount):
            ("out of window", "\(byteCount) bytes at seq \(sequenceNumber), expected \(expected): outside the stream, dropped")
        case .overlap(let offset, let length, let kept):
            ("overlap", "offset \(offset)  \(length) bytes differ between two copies; kept the \(kept == .earlier ? "first" : "last")")
        case .discarded(let offset, let length, let capturedBytes):
            ("discarded", "offset \(offset)  \(length) bytes behind a hole never acknowledged (\(capturedBytes) captured), not delivered")
        }
        let stream = "conn \(label.connection) \(label.direction) \(label.sourceText) → \(label.destinationText)"
        appendBlock(["\(stream)  \(Self.text(time))  \(style.apply(.bad, name))  \(what)"], to: &buffer)
    }

    mutating func renderMalformedPacket(number: Int, time: Timestamp, reason: MalformedReason, offset: Int,
                                        into buffer: inout [UInt8]) {
        appendBlock(["packet \(number)  \(Self.text(time))  \(style.apply(.bad, "malformed packet"))  \(reason) at byte \(offset)"],
                    to: &buffer)
    }

    mutating func renderUnsupported(_ counts: UnsupportedLayerCounts, into buffer: inout [UInt8]) {
        appendBlock(["\(style.apply(.bad, "unsupported"))  \(counted(counts.packets, "packet")) skipped, their TCP out of reach: \(counts.list)"],
                    to: &buffer)
    }

    mutating func renderFragmentsDropped(_ drop: IPDefragmenter.Drop, time: Timestamp, into buffer: inout [UInt8]) {
        appendBlock([
            "\(drop.source) → \(drop.destination)  \(Self.text(time))  \(style.apply(.bad, "fragments dropped"))  "
                + "IP id \(drop.identification): \(drop.bytesReceived) bytes of an incomplete datagram given up (\(drop.reason))",
        ], to: &buffer)
    }

    mutating func renderTotals(_ totals: ConnectionTotals, into buffer: inout [UInt8]) {
        var lines = ["\(style.apply(.heading, "summary"))  conn \(totals.connection)  \(totals.client) → \(totals.server)"]
        for direction in StreamDirection.allCases {
            lines.append("  \(direction)  " + describe(totals.directions[direction.rawValue]))
        }
        appendBlock(lines, to: &buffer)
    }

    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8]) {
        // The closing line does not depend on the format: any frame renderer writes it.
        var closing = renderers.first ?? TextRenderer(format: .u32, style: style, showsBody: showsBody)
        closing.wroteBlock = wroteBlock
        closing.finish(summary, into: &buffer)
    }

    /// `h12  3 frames (152 bytes)  1 skip (36 bytes)  …  cmd msg(3):3 9:1`: the counts that are not
    /// zero; a command value the format names is shown as `name(value)`. A WebSocket direction
    /// begins with its layer's counts (`websocket  handshake (203 bytes)  12 frames (…)  9
    /// messages (…)`), then `inner`
    /// and the inner format's.
    private func describe(_ totals: StreamTotals) -> String {
        guard let webSocket = totals.webSocket else { return describeFrames(totals) ?? "no data" }
        var parts = ["websocket", "handshake (\(counted(webSocket.headBytes, "byte")))",
                     "\(counted(webSocket.frames, "frame")) (\(counted(webSocket.frameBytes, "byte")))",
                     "\(counted(webSocket.messages, "message")) (\(counted(webSocket.messageBytes, "byte")))"]
        if webSocket.errors > 0 { parts.append(style.apply(.bad, counted(webSocket.errors, "error"))) }
        if webSocket.unreadBytes > 0 { parts.append(style.apply(.bad, "\(counted(webSocket.unreadBytes, "byte")) unread")) }
        if let inner = describeFrames(totals) { parts.append("inner " + inner) }
        return parts.joined(separator: "  ")
    }

    /// The frame decoder's part of ``describe(_:)``; `nil` when the direction decided no format.
    private func describeFrames(_ totals: StreamTotals) -> String? {
        guard let format = totals.format else { return nil }
        let counts = totals.counts
        var parts = [format.name, "\(counted(counts.frames, "frame")) (\(counted(totals.frameBytes, "byte")))"]
        if counts.checksumMismatches > 0 { parts.append(style.apply(.bad, "\(counts.checksumMismatches) crc MISMATCH")) }
        if counts.skips > 0 { parts.append("\(counts.skips) skipped (\(counted(counts.skippedBytes, "byte")))") }
        if counts.oversizeHeaders > 0 { parts.append("\(counts.oversizeHeaders) oversize") }
        if counts.truncations > 0 { parts.append("\(counts.truncations) truncated (\(counted(counts.truncatedBytes, "byte")))") }
        if counts.gaps > 0 { parts.append("\(counted(counts.gaps, "gap")) (\(counted(counts.gapBytes, "byte")))") }
        let histogram = totals.commandHistogram
        let command = format.fields.first { $0.name == "cmd" }
        if !histogram.isEmpty {
            parts.append("cmd " + histogram.map { entry in
                let value = command?.name(ofValue: entry.value).map { "\($0)(\(entry.value))" } ?? "\(entry.value)"
                return "\(value):\(entry.frames)"
            }.joined(separator: " "))
        }
        return parts.joined(separator: "  ")
    }

    /// `time` as RFC 3339 text.
    static func text(_ time: Timestamp) -> String {
        var bytes: [UInt8] = []
        RFC3339Timestamp.append(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func appendBlock(_ lines: [String], to buffer: inout [UInt8]) {
        if wroteBlock { buffer.append(UInt8(ascii: "\n")) }
        wroteBlock = true
        for line in lines {
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
        }
    }
}
