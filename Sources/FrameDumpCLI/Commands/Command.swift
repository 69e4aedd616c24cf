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
