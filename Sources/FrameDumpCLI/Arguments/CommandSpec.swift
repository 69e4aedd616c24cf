/// Everything the parser and the help text need to know about one command.
struct CommandSpec: Sendable {
    /// The subcommand word (`"decode"`).
    var name: String
    /// One line shown in `framedump --help`.
    var summary: String
    /// Paragraphs shown after the usage line in `framedump NAME --help`.
    var discussion: String
    /// The option table; `--help`/`-h` is added by the parser and need not be listed.
    var options: [OptionSpec]
    /// Positional arguments in order.
    var positionals: [PositionalSpec]
}
