import PacketDecoding

/// Writes an ``AnalysisResult`` for people (one line per rule, evidence indented beneath) or as
/// JSON Lines (`verdict` and `measure` records; docs/analyze.md gives the schema).
enum VerdictWriter {
    /// The text form: a heading, then `PASS`, `FAIL` or `NOT SEEN` with the rule and its
    /// figures, each failure's evidence (conn, direction, offset, capture time) beneath.
    static func text(_ result: AnalysisResult, style: TextStyle, into buffer: inout [UInt8]) {
        let width = result.verdicts.map(\.rule.count).max() ?? 0
        for verdict in result.verdicts {
            let outcome = verdict.outcome.rawValue.padding(to: 9)
            let painted = switch verdict.outcome {
            case .pass: style.apply(.good, outcome)
            case .fail: style.apply(.bad, outcome)
            case .notSeen: style.apply(.dim, outcome)
            }
            var line = painted + verdict.rule.padding(to: width + 2)
            line += verdict.figures.map(text(of:)).joined(separator: ", ")
            if verdict.failures > 0 { line += "; \(verdict.failures) failed" }
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            for evidence in verdict.evidence {
                buffer.append(contentsOf: "    conn \(evidence.connection) \(evidence.direction) offset \(evidence.offset) at ".utf8)
                RFC3339Timestamp.append(evidence.time, to: &buffer)
                buffer.append(contentsOf: ": \(evidence.note)\n".utf8)
            }
            if verdict.failures > verdict.evidence.count {
                buffer.append(contentsOf: "    … and \(verdict.failures - verdict.evidence.count) more\n".utf8)
            }
        }
    }

    private static func text(of figure: Figure) -> String {
        switch figure.value {
        case .seconds(let nanoseconds): "\(figure.key) \(Seconds(nanoseconds))"
        case .count(let count): "\(figure.key) \(count)"
        case .ratio(let ratio): "\(figure.key) \(Int((ratio * 100).rounded())) %"
        case .text(let text): "\(figure.key) \(text)"
        case .durations(let values):
            "\(figure.key) [" + values.prefix(20).map { Seconds($0).description }.joined(separator: ", ") + (values.count > 20 ? ", …]" : "]")
        case .group(let figures): "\(figure.key) (" + figures.map(text(of:)).joined(separator: ", ") + ")"
        case .steps(let steps):
            "\(figure.key) [" + steps.prefix(20).map { "\(Seconds($0.at)): \($0.count)" }.joined(separator: ", ") + (steps.count > 20 ? ", …]" : "]")
        }
    }

    /// The JSON Lines form: one `verdict` record per rule, then one `measure` record per
    /// connection, client host and reached limit.
    static func jsonLines(_ result: AnalysisResult, into buffer: inout [UInt8]) {
        for verdict in result.verdicts {
            buffer.append(contentsOf: "{\"type\":\"verdict\",\"rule\":\"\(verdict.rule)\",\"ok\":".utf8)
            buffer.append(contentsOf: (verdict.outcome == .notSeen ? "null" : verdict.outcome == .pass ? "true" : "false").utf8)
            buffer.append(contentsOf: ",\"outcome\":\"\(verdict.outcome == .notSeen ? "not_seen" : verdict.outcome.rawValue.lowercased())\"".utf8)
            buffer.append(contentsOf: ",\"conn\":\(verdict.connection.map(String.init) ?? "null"),\"failures\":\(verdict.failures)".utf8)
            for figure in verdict.figures { append(figure, to: &buffer) }
            buffer.append(contentsOf: ",\"evidence\":[".utf8)
            for (index, evidence) in verdict.evidence.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.append(contentsOf: "{\"conn\":\(evidence.connection),\"dir\":\"\(evidence.direction)\",\"offset\":\(evidence.offset),\"ts\":\"".utf8)
                RFC3339Timestamp.append(evidence.time, to: &buffer)
                buffer.append(contentsOf: "\",\"note\":".utf8)
                JSONString.append(evidence.note, to: &buffer)
                buffer.append(UInt8(ascii: "}"))
            }
            buffer.append(contentsOf: "]}\n".utf8)
        }
        for measure in result.measures {
            buffer.append(contentsOf: "{\"type\":\"measure\",\"scope\":\"\(measure.scope)\"".utf8)
            for figure in measure.figures { append(figure, to: &buffer) }
            buffer.append(contentsOf: "}\n".utf8)
        }
    }

    /// `,"key":value`.
    private static func append(_ figure: Figure, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: ","))
        JSONString.append(figure.key, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        switch figure.value {
        case .seconds(let nanoseconds): buffer.append(contentsOf: Seconds(nanoseconds).json.utf8)
        case .count(let count): buffer.append(contentsOf: String(count).utf8)
        case .ratio(let ratio): buffer.append(contentsOf: "\(ratio)".utf8)
        case .text(let text): JSONString.append(text, to: &buffer)
        case .durations(let values):
            buffer.append(contentsOf: ("[" + values.map { Seconds($0).json }.joined(separator: ",") + "]").utf8)
        case .group(let figures):
            buffer.append(UInt8(ascii: "{"))
            var inner: [UInt8] = []
            for figure in figures { append(figure, to: &inner) }
            buffer.append(contentsOf: inner.dropFirst())
            buffer.append(UInt8(ascii: "}"))
        case .steps(let steps):
            buffer.append(contentsOf: ("[" + steps.map { "[\(Seconds($0.at).json),\($0.count)]" }.joined(separator: ",") + "]").utf8)
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
