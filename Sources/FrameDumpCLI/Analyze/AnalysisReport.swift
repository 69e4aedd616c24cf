import PacketDecoding

/// `analyze --report FILE.html`: the result as one self-contained HTML page (inline CSS, SVG
/// and a small script, no outside asset):
///
/// - the verdicts, one row per rule;
/// - histograms of heartbeat intervals, pong round-trip times and ack latencies, with the
///   policy's limits drawn as red lines;
/// - a timeline per client host: its connections as bars, refused attempts as ticks, each
///   reconnect delay written above its gap against the delay the backoff expects;
/// - a chart per session type: the sessions each client host has open over time;
/// - a ladder diagram per connection with frames, page by page: client and server lanes, one
///   arrow per frame (labelled ping, pong, msg 7, ack 7), FINs, RSTs and gaps, missed pings,
///   late pongs, retransmissions and duplicates marked by colour; long pauses are drawn as a
///   break with their length, not to scale; above it an overview of the connection's whole
///   span to zoom into (``AnalysisReport/ladders(_:origin:)``).
///
/// Long captures stay readable and the file small: every connection with frames is reachable,
/// its rows bounded per window of its time (``LadderTimeline``) and over the analysis
/// (``Analyzer/maxLadderRows``); the page says what was not kept.
enum AnalysisReport {
    /// The most client hosts given a timeline.
    static let maxTimelines = 200

    /// Writes `result`'s page to `path`.
    ///
    /// - Throws: ``CommandFailure`` (exit 2) when the file cannot be written.
    static func write(_ result: AnalysisResult, to path: String) throws(CommandFailure) {
        let page = html(result)
        let fileDescriptor: Int32
        switch FileDescriptorIO.openForWriting(path, truncating: true) {
        case .success(let opened):
            fileDescriptor = opened
        case .failure(let error):
            throw CommandFailure(message: "framedump analyze: cannot write \(path): \(error.text)", status: .badInput)
        }
        defer { FileDescriptorIO.close(fileDescriptor) }
        let status = page.withUnsafeBytes { FileDescriptorIO.writeAll(fileDescriptor, $0) }
        guard status == 0 else {
            throw CommandFailure(message: "framedump analyze: cannot write \(path): \(SystemError(code: status).text)", status: .badInput)
        }
    }

    /// The page's bytes.
    static func html(_ result: AnalysisResult) -> [UInt8] {
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>framedump analyze: \(escape(result.policy.name))</title>
        <style>
        body{font:14px system-ui,sans-serif;margin:24px;color:#222;background:#fff}
        h1{font-size:20px}h2{font-size:16px;margin-top:28px}
        table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
        .PASS{color:#1a7f37;font-weight:bold}.FAIL{color:#cf222e;font-weight:bold}.NOT{color:#888}
        svg{display:block;margin:8px 0;background:#fafafa;border:1px solid #ddd}
        h3{font-size:14px;margin:18px 0 4px}.pager{margin:8px 0}
        svg text{font:11px system-ui,sans-serif}
        .note{color:#666}
        </style></head><body>
        <h1>framedump analyze — policy \(escape(result.policy.name))</h1>
        <table><tr><th>rule</th><th>verdict</th><th>evidence</th></tr>

        """
        for verdict in result.verdicts {
            let evidence = verdict.evidence.prefix(3).map { "conn \($0.connection) \($0.direction) @\($0.offset): \(escape($0.note))" }
            page += "<tr><td>\(verdict.rule)</td><td class=\"\(verdict.outcome.rawValue.split(separator: " ")[0])\">\(verdict.outcome.rawValue)</td>"
            page += "<td>\(evidence.joined(separator: "<br>"))\(verdict.failures > 3 ? "<br>… \(verdict.failures - 3) more" : "")</td></tr>\n"
        }
        page += "</table>\n<h2>Distributions</h2>\n"
        let policy = result.policy
        page += histogram("heartbeat intervals", result.intervals,
                          limits: policy.heartbeat.intervals.flatMap { [policy.tolerant($0.nanoseconds, late: false), policy.tolerant($0.nanoseconds)] })
        page += histogram("pong round-trip time", result.pongRTT, limits: [policy.heartbeat.pongTimeout])
        page += histogram("ack latency", result.ackLatency, limits: [policy.delivery.ackTimeout])
        page += "<h2>Connections per client host</h2>\n"
        let origin = result.firstTime?.nanoseconds ?? 0
        let end = result.lastTime?.nanoseconds ?? origin
        var byClient: [IPAddress: [ConnectionAnalysis]] = [:]
        for connection in result.connections { byClient[connection.client.address, default: []].append(connection) }
        let delays = Dictionary(result.reconnectDelays.map { ($0.client, $0.delays) }, uniquingKeysWith: { $0 + $1 })
        // Hosts that reconnected first: their delays are what a timeline is for.
        let hosts = byClient.keys.sorted { (delays[$0] == nil ? 1 : 0, $0) < (delays[$1] == nil ? 1 : 0, $1) }
        for client in hosts.prefix(maxTimelines) {
            page += timeline(client: client, connections: byClient[client]!, delays: delays[client] ?? [], origin: origin, end: end,
                             policy: policy)
        }
        if hosts.count > maxTimelines {
            page += "<p class=\"note\">\(hosts.count - maxTimelines) more client hosts not drawn (at most \(maxTimelines); those that reconnected first); "
            page += "every host's reconnect delays are in the JSON measure records.</p>\n"
        }
        if !result.sessionPools.isEmpty {
            page += "<h2>Sessions open per client host and type</h2>\n"
            let types = Set(result.sessionPools.map(\.key.type)).sorted()
            for type in types {
                page += sessionChart(type: type, pools: result.sessionPools.filter { $0.key.type == type }, origin: origin, end: end,
                                     maxPerType: policy.sessions.maxPerType)
            }
        }
        page += "<h2>Ladder diagrams</h2>\n"
        page += ladders(result, origin: origin)
        page += "</body></html>\n"
        return Array(page.utf8)
    }

    /// An SVG histogram of `distribution`'s kept samples in 40 bins, the `limits` as red lines.
    private static func histogram(_ title: String, _ distribution: Distribution, limits: [Int64]) -> String {
        let width = 720.0, height = 180.0, left = 40.0, bottom = 150.0
        var svg = "<svg class=\"histogram\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<text x=\"\(left)\" y=\"14\">\(escape(title)) — \(counted(distribution.count, "value"))</text>"
        let top = Double(max(distribution.count > 0 ? distribution.max : 1, limits.filter { distribution.count == 0 || $0 <= distribution.max * 2 }.max() ?? 1)) * 1.05
        var bins = [Int](repeating: 0, count: 40)
        for value in distribution.samples { bins[min(39, max(0, Int(Double(value) / top * 40)))] += 1 }
        let tallest = Double(max(1, bins.max()!))
        let barWidth = (width - left - 10) / 40
        for (index, count) in bins.enumerated() where count > 0 {
            let barHeight = Double(count) / tallest * (bottom - 24)
            svg += "<rect x=\(quote(left + Double(index) * barWidth)) y=\(quote(bottom - barHeight)) width=\(quote(barWidth - 1)) height=\(quote(barHeight)) fill=\"#4a7bd0\"><title>\(count)</title></rect>"
        }
        for (index, limit) in limits.sorted().enumerated() where Double(limit) <= top {
            let x = left + Double(limit) / top * (width - left - 10)
            svg += "<line x1=\(quote(x)) y1=\"20\" x2=\(quote(x)) y2=\(quote(bottom)) stroke=\"#cf222e\" stroke-dasharray=\"4 2\"/>"
            // Staggered, so that the labels of close limits (an interval's band) do not overlap.
            svg += "<text x=\(quote(x + 2)) y=\(quote(30 + Double(index % 4) * 12)) fill=\"#cf222e\">\(Seconds(limit))</text>"
        }
        let beyond = limits.filter { Double($0) > top }.sorted()
        if !beyond.isEmpty {
            // A limit far beyond every value would squash the bars into one: named, not drawn to scale.
            svg += "<text x=\(quote(width - 10)) y=\"14\" text-anchor=\"end\" fill=\"#cf222e\">limit \(beyond.map { Seconds($0).description }.joined(separator: ", ")) → beyond the axis</text>"
        }
        svg += "<line x1=\(quote(left)) y1=\(quote(bottom)) x2=\(quote(width - 10)) y2=\(quote(bottom)) stroke=\"#444\"/>"
        svg += "<text x=\(quote(left)) y=\(quote(bottom + 16))>0</text><text x=\(quote(width - 80)) y=\(quote(bottom + 16))>\(Seconds(Int64(top)))</text>"
        return svg + "</svg>\n"
    }

    /// One client host's connections on a time axis, with its reconnect delays annotated.
    private static func timeline(client: IPAddress, connections: [ConnectionAnalysis], delays: [ReconnectTracker.Delay],
                                 origin: Int64, end: Int64, policy: AnalyzePolicy) -> String {
        let width = 900.0, left = 20.0, rowHeight = 16.0
        let span = Double(max(1, end - origin))
        func x(_ time: Int64) -> Double { left + Double(time - origin) / span * (width - 2 * left) }
        let shown = connections.prefix(200)
        let height = 60 + Double(shown.count) * rowHeight
        var svg = "<svg class=\"timeline\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<text x=\"\(left)\" y=\"14\">client \(client): \(connections.count) connections, \(delays.count) reconnect delays (measured / expected)</text>"
        let byConnection = Dictionary(delays.map { ($0.evidence.connection, $0) }, uniquingKeysWith: { first, _ in first })
        for (row, connection) in shown.enumerated() {
            let y = 30 + Double(row) * rowHeight
            let start = connection.openedAt.nanoseconds, stop = connection.endedAt?.nanoseconds ?? end
            if connection.established {
                svg += "<rect x=\(quote(x(start))) y=\(quote(y)) width=\(quote(max(2, x(stop) - x(start)))) height=\"10\" fill=\"#6cc070\"><title>conn \(connection.number)</title></rect>"
            } else {
                svg += "<rect x=\(quote(x(start) - 1)) y=\(quote(y)) width=\"3\" height=\"10\" fill=\"#cf222e\"><title>conn \(connection.number) refused</title></rect>"
            }
            if let delay = byConnection[connection.number] {
                let ok = abs(delay.measured - delay.expected) <= policy.backoffSlack(delay.expected)
                svg += "<line x1=\(quote(x(start - delay.measured))) y1=\(quote(y + 5)) x2=\(quote(x(start))) y2=\(quote(y + 5)) stroke=\"#999\" stroke-dasharray=\"2 2\"/>"
                svg += "<text x=\(quote(x(start) + 4)) y=\(quote(y + 9)) fill=\"\(ok ? "#444" : "#cf222e")\">\(Seconds(delay.measured)) / \(Seconds(delay.expected))</text>"
            }
        }
        if connections.count > shown.count {
            svg += "<text x=\"\(left)\" y=\(quote(height - 8))>\(connections.count - shown.count) more connections not drawn</text>"
        }
        return svg + "</svg>\n"
    }

    /// Client hosts whose session counts one chart draws (the first, in address order).
    static let maxSessionLines = 20

    /// One session type's open count over time, a step line per client host (at most
    /// ``maxSessionLines``), with the per-type maximum as a red dashed line.
    private static func sessionChart(type: String, pools: [(key: SessionPoolTracker.Key, pool: SessionPoolTracker.Pool)],
                                     origin: Int64, end: Int64, maxPerType: Int) -> String {
        let width = 900.0, left = 40.0, top = 24.0, bottom = 170.0, height = 200.0
        let span = Double(max(1, end - origin))
        let highest = Double(max(maxPerType + 1, pools.map(\.pool.mostOpen).max() ?? 0))
        func x(_ time: Int64) -> Double { left + Double(time - origin) / span * (width - left - 10) }
        func y(_ count: Int) -> Double { bottom - Double(count) / highest * (bottom - top) }
        let colors = ["#1f6feb", "#1a7f37", "#8250df", "#d4a017", "#bf3989", "#0a7c86", "#6e7781"]
        var svg = "<svg class=\"sessions\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<text x=\"\(left)\" y=\"14\">\(escape(type)) sessions open per client host (\(counted(pools.count, "host")))</text>"
        svg += "<line x1=\(quote(left)) y1=\(quote(y(maxPerType))) x2=\(quote(width - 10)) y2=\(quote(y(maxPerType))) stroke=\"#cf222e\" stroke-dasharray=\"4 2\"/>"
        svg += "<text x=\(quote(width - 12)) y=\(quote(y(maxPerType) - 3)) text-anchor=\"end\" fill=\"#cf222e\">at most \(maxPerType)</text>"
        for (index, entry) in pools.prefix(maxSessionLines).enumerated() {
            var points = "\(number(x(origin))),\(number(y(0)))"
            var count = 0
            for step in entry.pool.steps {
                points += " \(number(x(step.at))),\(number(y(count)))"
                points += " \(number(x(step.at))),\(number(y(step.count)))"
                count = step.count
            }
            points += " \(number(x(end))),\(number(y(count)))"
            let color = colors[index % colors.count]
            svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"><title>\(escape("\(entry.key.client)")): most \(entry.pool.mostOpen) open</title></polyline>"
        }
        for count in 0...Int(highest) {
            svg += "<text x=\(quote(left - 6)) y=\(quote(y(count) + 4)) text-anchor=\"end\">\(count)</text>"
        }
        svg += "<line x1=\(quote(left)) y1=\(quote(bottom)) x2=\(quote(width - 10)) y2=\(quote(bottom)) stroke=\"#444\"/>"
        svg += "<text x=\(quote(left)) y=\(quote(bottom + 16))>0 s</text><text x=\(quote(width - 10)) y=\(quote(bottom + 16)) text-anchor=\"end\">\(Seconds(end - origin))</text>"
        if pools.count > maxSessionLines {
            svg += "<text x=\(quote(left + 200)) y=\(quote(bottom + 16))>\(pools.count - maxSessionLines) more hosts not drawn</text>"
        }
        return svg + "</svg>\n"
    }

    /// A number as a quoted SVG attribute value, one decimal.
    private static func quote(_ value: Double) -> String {
        "\"\(number(value))\""
    }

    /// A number for SVG, one decimal.
    private static func number(_ value: Double) -> String {
        "\(Double(Int((value * 10).rounded())) / 10)"
    }

    /// Text with `&`, `<`, `>` and `"` escaped for HTML.
    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
