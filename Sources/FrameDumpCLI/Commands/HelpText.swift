/// Help and usage text, rendered from the command table and each command's option table.
enum HelpText {
    /// The short usage printed to standard error when `framedump` is run with no arguments.
    static func programUsage() -> String {
        "usage: framedump COMMAND [OPTIONS] [ARGUMENTS]\nRun 'framedump --help' for the commands."
    }

    /// `framedump --help`.
    static func programHelp() -> String {
        var text = """
        framedump \(framedumpVersion): split a byte stream into the frames of a length-prefixed protocol

        usage: framedump COMMAND [OPTIONS] [ARGUMENTS]
               framedump --help | --version

        commands:

        """
        let width = CommandTable.names.map(\.count).max() ?? 0
        for command in CommandTable.commands {
            text += "  " + padded(command.spec.name, to: width) + "  " + command.spec.summary + "\n"
        }
        text += """

        Run 'framedump COMMAND --help' for a command's options.
        Exit status: 0 clean, 1 usage error, 2 bad frames or unreadable input (docs/cli.md).

        """
        return text
    }

    /// `framedump NAME --help`: usage line, discussion, positionals and the option table.
    static func commandHelp(_ spec: CommandSpec) -> String {
        var usage = "usage: framedump \(spec.name)"
        if !spec.options.isEmpty { usage += " [OPTIONS]" }
        for positional in spec.positionals {
            usage += positional.isOptional ? " [\(positional.name)]" : " \(positional.name)"
        }
        var text = usage + "\n\n" + spec.summary + "\n"
        if !spec.discussion.isEmpty { text += "\n" + spec.discussion + "\n" }
        var rows: [(String, String)] = spec.positionals.map { ($0.name, $0.help) }
        if !rows.isEmpty {
            text += "\narguments:\n" + table(rows)
        }
        rows = spec.options.map { option in
            var left = option.short.map { "-\($0), " } ?? "    "
            left += "--\(option.long)"
            if let valueName = option.valueName { left += " \(valueName)" }
            var help = option.help
            if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
            return (left, help)
        }
        rows.append(("-h, --help", "Show this help."))
        text += "\noptions:\n" + table(rows)
        return text
    }

    /// Two columns: left padded to the widest entry; continuation lines of the right column
    /// indented under it.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        let indent = String(repeating: " ", count: width + 4)
        return rows.map { left, right in
            "  " + padded(left, to: width) + "  " + right.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + indent) + "\n"
        }.joined()
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
