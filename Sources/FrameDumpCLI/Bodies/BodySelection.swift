import BodyViews
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

    /// Every view, the default's and the rules'.
    private var views: [BodyView] { [defaultView] + rules.map(\.view) }

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
        return Resolved(format: format, defaultView: defaultView, matches: matches, schema: schema)
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
