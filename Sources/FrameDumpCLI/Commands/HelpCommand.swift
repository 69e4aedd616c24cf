/// `framedump help [COMMAND]`: the same text as `framedump --help` or `framedump COMMAND --help`.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        summary: "Show the commands, or one command's options.",
        discussion: "",
        options: [],
        positionals: [PositionalSpec(name: "COMMAND", isOptional: true, help: "The command to describe.")]
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        guard let name = arguments.positionals.first else {
            context.output.write(HelpText.programHelp())
            return .success
        }
        guard let commandSpec = CommandTable.command(named: name)?.spec else {
            let hint = Suggestion.hint(for: name, among: CommandTable.names)
            throw UsageError("unknown command '\(name)'\(hint)")
        }
        context.output.write(HelpText.commandHelp(commandSpec))
        return .success
    }
}
