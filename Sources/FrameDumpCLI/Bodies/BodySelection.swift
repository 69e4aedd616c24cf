import FrameCodec

/// Which ``BodyView`` each frame's body gets: `--body VIEW` for all frames, and
/// `--body FIELD=VALUE:VIEW` (repeatable) for frames whose header field holds a value —
/// `--body 'cmd=msg:protobuf' --body 'cmd=4:msgpack'`. A value may be a number or one of the
/// field's value names; the first rule that matches wins, else the default view.
struct BodySelection {
    /// A per-value rule as typed: `cmd=msg:protobuf`.
    struct Rule: Equatable {
        var field: String
        var value: String
        var view: BodyView
    }

    /// The view of frames no rule matches.
    var defaultView = BodyView.auto
    /// The rules, in the order given.
    var rules: [Rule] = []
    /// Whether `--body` was given at all: only then does JSON Lines carry a `body` key (the
    /// default output stays as it was before body views existed).
    var isExplicit = false

    /// The defaults: the automatic choice, no `body` key.
    init() {}

    /// Parses the `--body` values, in order.
    ///
    /// - Throws: ``UsageError`` for a value that is neither a view nor `FIELD=VALUE:VIEW`, or a
    ///   second plain view.
    init(_ values: [String]) throws(UsageError) {
        isExplicit = !values.isEmpty
        var sawDefault = false
        for text in values {
            if let equals = text.firstIndex(of: "=") {
                let field = text[..<equals]
                let rest = text[text.index(after: equals)...]
                guard let colon = rest.firstIndex(of: ":"), !field.isEmpty, colon != rest.startIndex,
                      let view = BodyView(rest[rest.index(after: colon)...]) else {
                    throw UsageError("invalid --body '\(text)': expected FIELD=VALUE:VIEW, e.g. cmd=msg:protobuf (views: \(BodyView.names))")
                }
                rules.append(Rule(field: String(field), value: String(rest[..<colon]), view: view))
            } else {
                guard let view = BodyView(text[...]) else {
                    throw UsageError("invalid --body '\(text)': expected \(BodyView.names), or FIELD=VALUE:VIEW")
                }
                guard !sawDefault else { throw UsageError("--body VIEW is given twice; repeat only FIELD=VALUE:VIEW rules") }
                sawDefault = true
                defaultView = view
            }
        }
    }

    /// Checks the rules against `format`, the format every stream is decoded with.
    ///
    /// - Throws: ``UsageError`` for a rule naming a field the format lacks, or a value that is
    ///   neither a number nor one of the field's value names.
    func check(against format: FrameFormat) throws(UsageError) {
        for rule in rules {
            guard let field = format.fields.first(where: { $0.name == rule.field && $0.role != .opaque }) else {
                throw UsageError("--body '\(rule.field)=\(rule.value):…': the format has no integer field '\(rule.field)'")
            }
            guard Self.number(rule.value, of: field) != nil else {
                let names = field.valueNames.isEmpty ? "" : " or one of \(field.valueNames.map(\.name).joined(separator: ", "))"
                throw UsageError("--body '\(rule.field)=\(rule.value):…': expected a number\(names) for '\(rule.field)'")
            }
        }
    }

    /// The selection for frames of `format`: rules on fields it lacks, or with values it
    /// cannot resolve, never match (a detected format may differ per stream).
    func resolved(for format: FrameFormat) -> Resolved {
        var matches: [Resolved.Match] = []
        for rule in rules {
            guard let index = format.fields.firstIndex(where: { $0.name == rule.field && $0.role != .opaque }),
                  let value = Self.number(rule.value, of: format.fields[index]) else { continue }
            matches.append(Resolved.Match(field: index, value: value, view: rule.view))
        }
        return Resolved(format: format, defaultView: defaultView, matches: matches)
    }

    /// A rule's value: a value name of `field`, or decimal or `0x` hex.
    private static func number(_ text: String, of field: HeaderField) -> UInt64? {
        if let named = field.value(named: text) { return named }
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    /// The selection with its rules resolved to field indices of one format.
    struct Resolved {
        struct Match {
            var field: Int
            var value: UInt64
            var view: BodyView
        }

        let format: FrameFormat
        let defaultView: BodyView
        let matches: [Match]

        /// The view of `frame`'s body.
        func view(for frame: Frame) -> BodyView {
            guard !matches.isEmpty else { return defaultView }
            let header = frame.header
            for match in matches where format.value(ofField: match.field, in: header) == match.value {
                return match.view
            }
            return defaultView
        }
    }
}
