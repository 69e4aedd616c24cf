import BodyViews
import FrameCodec

/// Which ``BodyView`` each frame's body gets: `--body VIEW` for all frames, and
/// `--body FIELD=VALUE:VIEW` (repeatable) for frames whose header field holds a value —
/// `--body 'cmd=msg:protobuf' --body 'cmd=4:msgpack'`. A value may be a number or one of the
/// field's value names; the first rule that matches wins, else the default view.
struct BodySelection {
    /// A per-value rule as typed: `cmd=msg:protobuf`.
    struct Rule: Equatable {
        /// The argument as typed, for error messages.
        var text: String
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
    /// The message types of `--proto-descriptors`, for `proto:TYPE` views.
    var schema: ProtoSchema?

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
                rules.append(Rule(text: text, field: String(field), value: String(rest[..<colon]), view: view))
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

    /// Every view, the default's and the rules'.
    private var views: [BodyView] { [defaultView] + rules.map(\.view) }

    /// Whether some frame's body may be shown: a view other than `none`, by default or by a rule.
    var showsAnyBody: Bool { views.contains { $0 != .none } }

    /// Loads `--proto-descriptors` and checks that every `proto:TYPE` names one of its types.
    ///
    /// - Parameter path: the descriptor set file, or `nil` when the option is not given.
    /// - Throws: ``UsageError`` for a file that cannot be read or is not a descriptor set, a
    ///   `proto:TYPE` without the option, or a type the set does not define.
    mutating func loadSchema(path: String?) throws(UsageError) {
        if let path {
            let bytes: [UInt8]
            switch FileDescriptorIO.readFile(atPath: path) {
            case .success(let read): bytes = read
            case .failure(let error): throw UsageError("--proto-descriptors '\(path)': \(error.text)")
            }
            do {
                schema = try ProtoSchema(descriptorSet: bytes)
            } catch {
                throw UsageError("--proto-descriptors '\(path)' is not a FileDescriptorSet (protoc --descriptor_set_out=FILE --include_imports): \(error)")
            }
        }
        for case .proto(let typeName) in views {
            guard let schema else {
                throw UsageError("--body proto:\(typeName) needs --proto-descriptors FILE (from protoc --descriptor_set_out=FILE --include_imports)")
            }
            guard schema.messages[typeName] != nil else {
                let known = schema.messages.keys.filter { !(schema.messages[$0]?.isMapEntry ?? false) }.sorted()
                let hint = Suggestion.hint(for: typeName, among: known)
                throw UsageError("--body proto:\(typeName): no message type '\(typeName)' in the descriptor set\(hint)")
            }
        }
    }

    /// Checks the rules against `format`, the format every stream is decoded with, or — for a
    /// detected format (`nil`) — against the presets detection may choose: a rule must name
    /// an integer field of the format (of one of them), with a value the field can hold.
    ///
    /// - Throws: ``UsageError`` for a rule naming a field the format lacks, a name that is not
    ///   one of the field's value names, or a number wider than the field; the message shows
    ///   the argument with a caret under the part that is wrong and says what was expected.
    func check(against format: FrameFormat?) throws(UsageError) {
        let formats = format.map { [$0] } ?? FrameFormat.detectablePresets
        for rule in rules {
            let fields = formats.compactMap { candidate in
                candidate.fields.first { $0.name == rule.field && $0.role != .opaque }
            }
            guard !fields.isEmpty else {
                let known = Set(formats.flatMap { $0.fields.filter { $0.role != .opaque }.map(\.name) }).sorted()
                let whose = format == nil ? "the detectable formats (\(formats.map(\.name).joined(separator: ", "))) have" : "the format has"
                throw Self.error(rule, column: 1, "a header field name: \(whose) no integer field '\(rule.field)'; fields: \(known.joined(separator: ", "))")
            }
            guard !fields.contains(where: { Self.number(rule.value, of: $0) != nil }) else { continue }
            var names: [String] = []
            for name in fields.flatMap({ $0.valueNames.map(\.name) }) where !names.contains(name) { names.append(name) }
            let limit = fields.map(\.largestValue).max() ?? 0
            let what = "a value '\(rule.field)' can hold (0 to \(limit)), decimal or 0x hex"
                + (names.isEmpty ? "" : ", or one of \(names.joined(separator: ", "))")
            throw Self.error(rule, column: rule.field.count + 2, what)
        }
    }

    private static func error(_ rule: Rule, column: Int, _ expected: String) -> UsageError {
        let caret = String(repeating: " ", count: column - 1) + "^"
        return UsageError("invalid --body '\(rule.text)' at column \(column): expected \(expected)\n  \(rule.text)\n  \(caret)")
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
        return Resolved(format: format, defaultView: defaultView, matches: matches, schema: schema)
    }

    /// A rule's value: a value name of `field`, or decimal or `0x` hex that `field` can hold.
    private static func number(_ text: String, of field: HeaderField) -> UInt64? {
        if let named = field.value(named: text) { return named }
        let number = text.hasPrefix("0x") || text.hasPrefix("0X") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        return number.flatMap { $0 <= field.largestValue ? $0 : nil }
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
        let schema: ProtoSchema?

        /// The view of `frame`'s body.
        func view(for frame: Frame) -> BodyView {
            view(forHeader: frame.header)
        }

        /// The view of the body of the frame whose header is `header`.
        func view(forHeader header: ArraySlice<UInt8>) -> BodyView {
            guard !matches.isEmpty else { return defaultView }
            for match in matches where format.value(ofField: match.field, in: header) == match.value {
                return match.view
            }
            return defaultView
        }
    }
}
