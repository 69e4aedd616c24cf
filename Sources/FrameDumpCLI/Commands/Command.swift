/// A `framedump` subcommand.
///
/// Adding a command is one new file with a type conforming to this protocol and one entry in
/// ``CommandTable/commands``: parsing, `--help`, `framedump --help`'s list and "did you mean" all
/// come from ``spec``.
protocol Command: Sendable {
    /// The command's word, option table, positionals and help text.
    static var spec: CommandSpec { get }

    /// Runs the command on arguments already checked against ``spec``.
    ///
    /// Writes results to `context.output` (the caller flushes it after `run` returns) and
    /// diagnostics to ``StandardError``.
    ///
    /// - Returns: the exit status (see ``ExitStatus``).
    /// - Throws: ``UsageError`` for arguments that parse but make no sense (exit 1),
    ///   ``CommandFailure`` for input that cannot be used (its status), ``OutputError`` when
    ///   standard output fails.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus
}

/// What a command may use from the process: standard output, the environment, the terminal.
struct CommandContext {
    /// The buffered standard output.
    var output: OutputStream
    /// The process environment.
    var environment: [String: String]
    /// Whether standard output is a terminal.
    var outputIsTerminal: Bool
}

/// The process exit status; the values are documented in docs/cli.md and stable.
enum ExitStatus: Int32, Sendable {
    /// Everything decoded cleanly (or help, version, formats printed).
    case success = 0
    /// The command line was wrong: unknown option, missing value, bad `--format`, no format detected.
    case usage = 1
    /// The input had bad frames (skip, oversize, checksum mismatch, truncated, gap) or could not
    /// be read or parsed.
    case badInput = 2
}

/// A command that cannot go on: the message for standard error and the status to exit with.
struct CommandFailure: Error, Equatable {
    /// The whole message, already prefixed where a location (`file:line:column:`) applies.
    var message: String
    var status: ExitStatus
}
