import PacketCapture
import PacketDecoding
import StreamFraming
import TLSDecryption

/// What `framedump streams` gathers from a capture — one ``ConnectionRecord`` per connection —
/// and how it prints it, as text or JSON Lines (docs/cli.md).
///
/// With a ``StreamFileWriter``, each direction's data is written to its file as it arrives;
/// with TLS keys, a TLS connection's files hold each direction's decrypted application data
/// (the listing still counts the TCP stream), and what was not decrypted is said on standard error.
final class StreamListing {
    private var records: [Int: ConnectionRecord] = [:]
    private let files: StreamFileWriter?
    private var layers: ConnectionLayers?
    /// Malformed packets and dropped IP datagrams seen.
    private(set) var malformedPackets = 0
    private(set) var fragmentDrops = 0
    /// The process of the connection whose `connectionOpened` comes next (PKTAP captures).
    private var nextProcess: (connection: Int, process: PacketProcess)?
    /// TLS bytes not decrypted (`tls_no_key`, `tls_decrypt_error`).
    private(set) var undecryptedRecords = 0

    init(files: StreamFileWriter?, tlsKeys: TLSKeyProvider? = nil) {
        self.files = files
        layers = ConnectionLayers(keys: tlsKeys)
    }

    /// Whether any byte is missing or any packet was bad: a gap, a limit reached, a notice, a
    /// malformed packet, a dropped datagram, TLS not decrypted (exit status 2).
    var hasProblems: Bool {
        malformedPackets > 0 || fragmentDrops > 0 || undecryptedRecords > 0
            || records.values.contains { !$0.limits.isEmpty || $0.notices > 0 || $0.gaps.contains { !$0.isEmpty } }
    }

    /// Passes one step of `number`'s TLS layer; its plaintext goes to the stream files.
    private func throughLayer(_ layer: ConnectionLayerStack, _ number: Int,
                              _ step: ((ConnectionLayerOutput<LayerEvent>) throws -> Void) throws -> Void) throws {
        guard let record = records[number] else { return }
        try step { output in
            switch output {
            case .data(let bytes, let direction):
                records[number]!.tls = records[number]!.tls ?? ConnectionTLS()
                records[number]!.tls!.decryptedBytes[direction.rawValue] += UInt64(bytes.count)
                try files?.write(bytes, for: record.labels[direction.rawValue])
            case .gap, .end:
                break
            case .event(.webSocket), .event(.webSocketDetected):
                return
            case .event(.tls(let event)):
                let what: String
                switch event {
                case .session(let session):
                    records[number]!.tls = records[number]!.tls ?? ConnectionTLS()
                    records[number]!.tls!.session = session
                    return
                case .noKey(_, let offset, let length, let reason):
                    what = "\(length) bytes from offset \(offset) not decrypted (\(reason))"
                case .decryptError(_, let offset, let length, let reason):
                    what = "\(length) bytes of records from offset \(offset) did not decrypt (\(reason))"
                case .alert:
                    return
                }
                undecryptedRecords += 1
                StandardError.writeLine("framedump streams: \(record.labels[event.direction!.rawValue].name): TLS: \(what)")
            }
        }
    }

    /// Takes one event of the capture.
    ///
    /// - Throws: ``CommandFailure`` when a stream file cannot be written.
    func consume(_ event: CaptureEvent, at time: Timestamp) throws {
        switch event {
        case .stream(.connectionOpened(let number, let client, let server, let roles)):
            let process = nextProcess?.connection == number ? nextProcess?.process : nil
            nextProcess = nil
            records[number] = ConnectionRecord(number: number, client: client, server: server, roles: roles, process: process)
            layers?.open(number, roles: roles)
        case .connectionProcess(let number, let process):
            nextProcess = (number, process)
        case .stream(.data(let number, let direction, _, let bytes)):
            if let layer = layers?.layer(number) {
                return try throughLayer(layer, number) { emit in try layer.receive(bytes, from: direction, emit) }
            }
            guard let files, let record = records[number] else { return }
            try files.write(bytes, for: record.labels[direction.rawValue])
        case .stream(.gap(let number, let direction, let offset, let length, _)):
            records[number]?.gaps[direction.rawValue].append((offset, length))
            if let layer = layers?.layer(number) {
                try throughLayer(layer, number) { emit in try layer.noteGap(byteCount: length, from: direction, emit) }
            }
        case .stream(.directionClosed(let number, let direction, _, _)):
            if let layer = layers?.layer(number) {
                try throughLayer(layer, number) { emit in try layer.endStream(direction, emit) }
            }
        case .unsupportedLinkType:
            break
        case .stream(.connectionClosed(let summary, let reason)):
            if let layer = layers?.close(summary.connection) {
                try throughLayer(layer, summary.connection) { emit in
                    for direction in StreamDirection.allCases { try layer.endStream(direction, emit) }
                }
                if layer.tls?.isTLS == true, records[summary.connection]?.tls == nil { records[summary.connection]?.tls = ConnectionTLS() }
            }
            records[summary.connection]?.summary = summary
            records[summary.connection]?.closeReason = reason
            files?.finish(connection: summary.connection)
        case .stream(.limitHit(let limit, let number, _)):
            records[number]?.note(limit)
        case .stream(.notice(_, let number, _)):
            records[number]?.notices += 1
        case .malformedPacket:
            malformedPackets += 1
        case .fragmentsDropped:
            fragmentDrops += 1
        case .stream(.connectionForgotten(let summary)), .latestCounters(let summary):
            if records[summary.connection]?.closeReason != nil { records[summary.connection]?.summary = summary }
        }
    }

    /// The connections, in connection-number order.
    var connections: [ConnectionRecord] {
        records.values.sorted { $0.number < $1.number }
    }

    // MARK: Text

    /// The listing for people:
    ///
    /// ```
    /// conn 1  10.0.0.1:40003 → 10.0.0.2:7000  closed-fin  roles from syn
    ///   c2s  8 packets  223 bytes  1 gap (65 bytes at 69:65)  1 out-of-order  → out/conn0001-c2s-10.0.0.1.40003-10.0.0.2.7000.bin
    ///   s2c  4 packets  80 bytes
    ///   tls  TLS 1.3 TLS_AES_128_GCM_SHA256  sni localhost  alpn h12  keys found  decrypted c2s 707 bytes  s2c 1224 bytes
    ///
    /// 1 connection; 12 packets: 12 TCP segments
    /// ```
    func text(_ statistics: CaptureStatistics) -> String {
        var text = ""
        for record in connections {
            text += "conn \(record.number)  \(record.client) → \(record.server)  \(record.state)  roles from \(record.roles)"
                + "\(record.labels[0].processText)\n"
            for direction in StreamDirection.allCases {
                text += "  \(direction)  " + describe(record, direction) + "\n"
            }
            if let tls = record.tls { text += "  tls  \(tls.text)\n" }
            text += "\n"
        }
        var packets = [counted(statistics.segments, "TCP segment")]
        if statistics.fragmentsHeld > 0 { packets.append(counted(statistics.fragmentsHeld, "IP fragment")) }
        if statistics.notTCP > 0 { packets.append("\(statistics.notTCP) other") }
        if statistics.malformed > 0 { packets.append("\(statistics.malformed) malformed") }
        if statistics.unsupportedPackets > 0 {
            packets.append("\(statistics.unsupportedPackets) unsupported: \(UnsupportedLayerCounts(statistics).list)")
        }
        if statistics.fragmentDrops > 0 { packets.append(counted(statistics.fragmentDrops, "incomplete datagram") + " dropped") }
        text += "\(counted(records.count, "connection")); \(counted(statistics.packets, "packet")) ("
            + packets.joined(separator: ", ") + ")\n"
        return text
    }

    private func describe(_ record: ConnectionRecord, _ direction: StreamDirection) -> String {
        let statistics = record.summary?[direction] ?? StreamStatistics()
        var parts = [counted(statistics.segments, "packet"), counted(statistics.deliveredBytes, "byte")]
        let gaps = record.gaps[direction.rawValue]
        if !gaps.isEmpty {
            let list = gaps.map { "\($0.offset):\($0.length)" }.joined(separator: " ")
            parts.append("\(counted(gaps.count, "gap")) (\(counted(statistics.gapBytes, "byte")) at \(list))")
        }
        if statistics.retransmittedBytes > 0 { parts.append(counted(statistics.retransmittedBytes, "byte") + " retransmitted") }
        if statistics.outOfOrderSegments > 0 { parts.append("\(statistics.outOfOrderSegments) out-of-order") }
        if statistics.ignoredBytes > 0 { parts.append(counted(statistics.ignoredBytes, "byte") + " ignored") }
        if statistics.discardedBytes > 0 { parts.append(counted(statistics.discardedBytes, "byte") + " discarded") }
        if statistics.resetsIgnored > 0 { parts.append(counted(statistics.resetsIgnored, "RST") + " ignored") }
        let limits = record.limits.map { $0.count == 1 ? "\($0.limit)" : "\($0.limit) (\($0.count) times)" }
        if direction == .clientToServer, !limits.isEmpty { parts.append("limits reached: " + limits.joined(separator: ", ")) }
        if let name = fileName(record, direction) { parts.append("→ \(name)") }
        return parts.joined(separator: "  ")
    }

    private func fileName(_ record: ConnectionRecord, _ direction: StreamDirection) -> String? {
        guard let files, let name = files.names[.init(connection: record.number, direction: direction)] else { return nil }
        return files.directory + "/" + name
    }

    // MARK: JSON Lines

    /// One `connection` line per connection, then one `capture` line of packet counts.
    func jsonLines(_ statistics: CaptureStatistics) -> [UInt8] {
        var buffer: [UInt8] = []
        for record in connections {
            buffer.append(contentsOf: "{\"type\":\"connection\",\"conn\":".utf8)
            ByteFormatting.appendDecimal(UInt64(record.number), to: &buffer)
            appendKey("client", string: record.client.description, to: &buffer)
            appendKey("server", string: record.server.description, to: &buffer)
            if let process = record.labels[0].process { StreamLabel.appendJSON(process, to: &buffer) }
            appendKey("roles", string: record.roles.description, to: &buffer)
            appendKey("state", string: record.state, to: &buffer)
            if let summary = record.summary {
                buffer.append(contentsOf: ",\"first_ts\":\"".utf8)
                RFC3339Timestamp.append(summary.firstSeen, to: &buffer)
                buffer.append(contentsOf: "\",\"last_ts\":\"".utf8)
                RFC3339Timestamp.append(summary.lastSeen, to: &buffer)
                buffer.append(UInt8(ascii: "\""))
            }
            for direction in StreamDirection.allCases {
                buffer.append(contentsOf: ",\"\(direction)\":".utf8)
                appendDirection(record, direction, to: &buffer)
            }
            if let tls = record.tls {
                buffer.append(contentsOf: ",\"tls\":".utf8)
                tls.appendJSON(to: &buffer)
            }
            buffer.append(contentsOf: ",\"limits\":[".utf8)
            for (index, reached) in record.limits.enumerated() {
                buffer.append(contentsOf: (index > 0 ? ",{\"limit\":" : "{\"limit\":").utf8)
                JSONString.append(reached.limit.description, to: &buffer)
                appendKey("count", number: UInt64(reached.count), to: &buffer)
                buffer.append(UInt8(ascii: "}"))
            }
            buffer.append(contentsOf: "]}\n".utf8)
        }
        buffer.append(contentsOf: "{\"type\":\"capture\"".utf8)
        let counts: [(String, Int)] = [
            ("connections", records.count), ("packets", statistics.packets), ("tcp_segments", statistics.segments),
            ("ip_fragments", statistics.fragmentsHeld), ("other_packets", statistics.notTCP),
            ("malformed_packets", statistics.malformed), ("unsupported_packets", statistics.unsupportedPackets),
            ("fragment_drops", statistics.fragmentDrops),
        ]
        for (key, value) in counts { appendKey(key, number: UInt64(max(0, value)), to: &buffer) }
        if statistics.unsupportedPackets > 0 {
            // Only then, so that captures with none keep their line as it was.
            buffer.append(contentsOf: ",\"unsupported\":".utf8)
            UnsupportedLayerCounts(statistics).appendJSONObject(to: &buffer)
        }
        buffer.append(contentsOf: "}\n".utf8)
        return buffer
    }

    private func appendDirection(_ record: ConnectionRecord, _ direction: StreamDirection, to buffer: inout [UInt8]) {
        let statistics = record.summary?[direction] ?? StreamStatistics()
        buffer.append(contentsOf: "{\"packets\":".utf8)
        ByteFormatting.appendDecimal(statistics.segments, to: &buffer)
        appendKey("bytes", number: statistics.deliveredBytes, to: &buffer)
        appendKey("captured_bytes", number: statistics.capturedBytes, to: &buffer)
        appendKey("gaps", number: statistics.gaps, to: &buffer)
        appendKey("gap_bytes", number: statistics.gapBytes, to: &buffer)
        buffer.append(contentsOf: ",\"gap_list\":[".utf8)
        for (index, gap) in record.gaps[direction.rawValue].enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            JSONString.append("\(gap.offset):\(gap.length)", to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
        appendKey("retransmitted_bytes", number: statistics.retransmittedBytes, to: &buffer)
        appendKey("out_of_order_segments", number: statistics.outOfOrderSegments, to: &buffer)
        appendKey("ignored_bytes", number: statistics.ignoredBytes, to: &buffer)
        appendKey("discarded_bytes", number: statistics.discardedBytes, to: &buffer)
        appendKey("resets_ignored", number: statistics.resetsIgnored, to: &buffer)
        if let name = files?.names[.init(connection: record.number, direction: direction)] {
            appendKey("file", string: name, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    private func appendKey(_ key: String, number: UInt64, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: ",\"\(key)\":".utf8)
        ByteFormatting.appendDecimal(number, to: &buffer)
    }

    private func appendKey(_ key: String, string: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: ",\"\(key)\":".utf8)
        JSONString.append(string, to: &buffer)
    }
}
