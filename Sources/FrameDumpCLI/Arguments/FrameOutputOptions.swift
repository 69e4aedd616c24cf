import FrameCodec

/// The options of every command that prints frames (`decode`, `capture`, and through
/// ``LiveDecoding`` `listen`, `connect`, `proxy`), declared once so their values, defaults and
/// help read the same wherever frames are printed, and parsed once into this value.
struct FrameOutputOptions {
    /// `--format`: the format of every stream, or `nil` to detect each stream's. With
    /// `--format websocket`, `--inner`'s format (`nil`: `--inner auto`, or no `--inner`).
    var format: FrameFormat?
    /// `--format websocket`: every connection of a capture read as WebSocket; `nil` otherwise.
    var webSocket: WebSocketSettings?
    /// Without `--format`: how connections detected as WebSocket are read (`--inner`, or not).
    var detectedWebSocket = WebSocketSettings()
    /// `--json`: JSON Lines instead of text.
    var json = false
    /// `--payload`: whether frames show their payload (`hex`, the default) or not (`none`).
    var includesPayload = true
    /// `--color`.
    var color = ColorChoice.auto
    /// `--body`: how bodies are shown; with `--payload none` and no plain `--body VIEW`, frames
    /// no `--body FIELD=VALUE:VIEW` rule matches show none.
    var bodies = BodySelection()

    /// Whether what these options print reads the bytes of a frame's body: text (its dump),
    /// `payload_hex`, a body view, or a WebSocket layer's inner frames (`--format websocket`,
    /// `--inner`). When nothing does, a capture's framing engine hands out the frames of a
    /// length-field format with their headers only (``FrameDecoder/BodyRetention/headersOnly``),
    /// their bodies checksummed where the packets lie and never copied.
    var readsFrameBodies: Bool { !json || includesPayload || bodies.showsAnyBody || webSocket != nil || detectedWebSocket.framesInner }

    /// `--format`, `--json`, `--payload`, `--body`, `--proto-descriptors` and `--color`, in the
    /// order help lists them.
    ///
    /// - Parameter formatHelp: `--format`'s help, which differs by what the command does
    ///   without it (detect, or refuse).
    /// - Returns: The six option specs.
    static func specs(formatHelp: String) -> [OptionSpec] {
        [
            .value("format", short: "F", valueName: "NAME|SPEC", help: formatHelp),
            .flag("json", short: "j", help: "Print JSON Lines: one object per frame or event."),
            .value(
                "payload", valueName: "hex|none", allowedValues: ["hex", "none"], defaultValue: "hex",
                help: "Show frame payloads ('none': headers only, no payload_hex)."
            ),
            .value(
                "body", valueName: "VIEW",
                help: "Show bodies as auto (JSON, text or hex: the default), json,\ntext, hex, protobuf, proto:TYPE, msgpack or none; repeat\nFIELD=VALUE:VIEW for frames whose header field holds a value\n(--body 'cmd=msg:protobuf'). Adds body to JSON Lines."
            ),
            .value(
                "proto-descriptors", valueName: "FILE",
                help: "Message types for --body proto:TYPE: a FileDescriptorSet\n(protoc --descriptor_set_out=FILE --include_imports)."
            ),
            .value(
                "color", valueName: "WHEN", allowedValues: ColorChoice.allCases.map(\.rawValue), defaultValue: "auto",
                help: "Colour human output: auto (on a terminal), always or never.\nNO_COLOR in the environment turns colour off."
            ),
        ]
    }

    /// The defaults: format detected, text with payloads, colour on a terminal.
    init() {}

    /// The values `arguments` gives (the parser has checked `--payload` and `--color` against
    /// their allowed values).
    ///
    /// - Throws: ``UsageError`` for a `--format` that is neither a preset nor a valid spec.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let given = arguments.value("format")
        let inner = arguments.value("inner")
        if arguments.value("max-upgrade-head") != nil, let given, given != "websocket" {
            throw UsageError("--max-upgrade-head applies only to WebSocket: with --format websocket, or without --format (detection), not with --format \(given)")
        }
        let innerFormat = try inner.flatMap { text throws(UsageError) in text == "auto" ? nil : try Self.resolveFormat(text, option: "inner") }
        switch given {
        case "websocket":
            webSocket = WebSocketSettings(framesInner: inner != nil)
            format = innerFormat
        case nil:
            // Detection: the connections found to be WebSocket frame their payloads with `--inner`'s.
            detectedWebSocket.framesInner = inner != nil
            detectedWebSocket.innerFormat = innerFormat
        case let text?:
            guard inner == nil else {
                throw UsageError("--inner applies only with --format websocket, or without --format (to connections detected as WebSocket): it frames the binary messages' payloads")
            }
            format = try Self.resolveFormat(text)
        }
        json = arguments.flag("json")
        includesPayload = arguments.value("payload") != "none"
        color = arguments.value("color").flatMap(ColorChoice.init(rawValue:)) ?? .auto
        let bodyValues = arguments.values("body")
        bodies = try BodySelection(bodyValues)
        if !includesPayload, !bodyValues.contains(where: { !$0.contains("=") }) { bodies.defaultView = .none }
        try bodies.check(against: format)
        try bodies.loadSchema(path: arguments.value("proto-descriptors"))
    }

    /// `--inner FORMAT`, which `decode` and `capture` take beside `--format websocket`.
    static let innerSpec = OptionSpec.value(
        "inner", valueName: "NAME|SPEC",
        help: "Frame each WebSocket direction's binary message payloads\n(inflated) with this preset or spec, or auto to detect it: with\n--format websocket, or without --format for the connections\ndetected as WebSocket."
    )

    /// Refuses `--format websocket` where it does not apply: it is a layer of captured connections.
    ///
    /// - Parameter command: The command, for the message.
    /// - Throws: ``UsageError`` when `--format websocket` or `--inner` was given.
    func refuseWebSocket(in command: String) throws(UsageError) {
        if webSocket != nil { throw UsageError("--format websocket applies only to captures (decode, capture), not to \(command)") }
        if detectedWebSocket.framesInner { throw UsageError("--inner applies only to captures' WebSocket connections (decode, capture), not to \(command)") }
    }

    /// The text style for human output to `context`'s standard output.
    func textStyle(_ context: CommandContext) -> TextStyle {
        TextStyle(enabled: Terminal.usesColor(color, environment: context.environment, outputIsTerminal: context.outputIsTerminal))
    }

    /// The format a `--format` value names: a preset, or a spec.
    ///
    /// - Parameters:
    ///   - text: The value.
    ///   - option: The option it came from, for the message (`format`, `inner`).
    /// - Throws: ``UsageError`` pointing at the column where the spec went wrong, and suggesting
    ///   a preset when the value looks like a mistyped preset name.
    static func resolveFormat(_ text: String, option: String = "format") throws(UsageError) -> FrameFormat {
        do {
            return try FrameFormat(nameOrSpec: text)
        } catch {
            // A bare word is most likely a mistyped preset name.
            let isWord = !text.contains { $0 == ":" || $0 == "=" || $0 == " " }
            let hint = isWord ? Suggestion.hint(for: text, among: FrameFormat.presets.map(\.name)) : ""
            let caret = String(repeating: " ", count: max(0, error.column - 1)) + "^"
            throw UsageError("invalid --\(option) at column \(error.column): expected \(error.expected)\(hint)\n  \(text)\n  \(caret)")
        }
    }
}
