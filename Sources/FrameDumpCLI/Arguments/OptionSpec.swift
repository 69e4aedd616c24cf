/// One option a command accepts: a row of the command's option table.
///
/// The parser, the help text and the "did you mean" suggestions all read the same table, so an
/// option is declared once.
struct OptionSpec: Sendable {
    /// The long name without dashes (`"format"` for `--format`).
    var long: String
    /// The one-letter short name without its dash (`"f"` for `-f`), if any.
    var short: Character?
    /// The placeholder shown in help for the option's value (`"NAME|SPEC"`), or `nil` for a flag.
    var valueName: String?
    /// The values allowed, or `nil` for any value.
    var allowedValues: [String]?
    /// The value used when the option is not given, shown in help; `nil` when there is none.
    var defaultValue: String?
    /// One line (or a few) of help text.
    var help: String

    /// A flag: present or not, takes no value.
    static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, allowedValues: nil, defaultValue: nil, help: help)
    }

    /// An option that takes a value (`--format h12`, `--format=h12`, `-f h12`).
    static func value(
        _ long: String,
        short: Character? = nil,
        valueName: String,
        allowedValues: [String]? = nil,
        defaultValue: String? = nil,
        help: String
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: valueName, allowedValues: allowedValues, defaultValue: defaultValue, help: help)
    }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }
}
