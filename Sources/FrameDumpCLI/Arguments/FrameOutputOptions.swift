/// The options of every command that prints frames (`decode`, `capture`, and through
/// ``LiveDecoding`` `listen`, `connect`, `proxy`), declared once so their values, defaults and
/// help read the same wherever frames are printed.
enum FrameOutputOptions {
    /// `--format`, `--json`, `--payload` and `--color`, in the order help lists them.
    ///
    /// - Parameter formatHelp: `--format`'s help, which differs by what the command does
    ///   without it (detect, or refuse).
    /// - Returns: The four option specs.
    static func specs(formatHelp: String) -> [OptionSpec] {
        [
            .value("format", short: "F", valueName: "NAME|SPEC", help: formatHelp),
            .flag("json", short: "j", help: "Print JSON Lines: one object per frame or event."),
            .value(
                "payload", valueName: "hex|none", allowedValues: ["hex", "none"], defaultValue: "hex",
                help: "Show frame payloads ('none': headers only, no payload_hex)."
            ),
            .value(
                "color", valueName: "WHEN", allowedValues: ColorChoice.allCases.map(\.rawValue), defaultValue: "auto",
                help: "Colour human output: auto (on a terminal), always or never.\nNO_COLOR in the environment turns colour off."
            ),
        ]
    }
}
