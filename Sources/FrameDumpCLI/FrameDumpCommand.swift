/// The `framedump` program: picks the subcommand, parses its arguments, runs it, and turns
/// every outcome into an exit status (0 clean, 1 usage error, 2 bad input; see docs/cli.md).
public enum FrameDumpCommand {
    /// Runs `framedump` with `arguments` (without the program name) and returns the exit status.
    ///
    /// Standard output is flushed before returning. SIGPIPE is ignored so that a closed pipe is
    /// an `EPIPE` the output stream handles: the run ends early and quietly.
    public static func main(_ arguments: [String]) -> Int32 {
        OutputStream.ignoreBrokenPipeSignal()
        let context = CommandContext(
            output: OutputStream(fileDescriptor: 1),
            environment: ProcessEnvironment.current(),
            outputIsTerminal: Terminal.isTerminal(1)
        )
        let status = run(arguments, context: context)
        do {
            try context.output.flush()
        } catch OutputError.failed(let reason) {
            StandardError.writeLine("framedump: cannot write output: \(reason)")
            return ExitStatus.badInput.rawValue
        } catch {
            // The reader went away: nothing left to say to it.
        }
        return status.rawValue
    }

    static func run(_ arguments: [String], context: CommandContext) -> ExitStatus {
        guard let first = arguments.first else {
            StandardError.writeLine(HelpText.programUsage())
            return .usage
        }
        switch first {
        case "--help", "-h":
            context.output.write(HelpText.programHelp())
            return .success
        case "--version":
            context.output.write("framedump \(framedumpVersion)\n")
            return .success
        default:
            break
        }
        guard let command = CommandTable.command(named: first) else {
            let known = CommandTable.names
            let candidates = first.hasPrefix("-") ? ["--help", "--version"] : known
            let hint = Suggestion.hint(for: first, among: candidates)
            let what = first.hasPrefix("-") ? "option" : "command"
            StandardError.writeLine("framedump: unknown \(what) '\(first)'\(hint)")
            StandardError.writeLine("Run 'framedump --help' for the commands.")
            return .usage
        }
        return run(command, Array(arguments.dropFirst()), context: context)
    }

    private static func run(_ command: any Command.Type, _ arguments: [String], context: CommandContext) -> ExitStatus {
        let name = command.spec.name
        do {
            let parsed = try ArgumentParser.parse(arguments, for: command.spec)
            if parsed.helpRequested {
                context.output.write(HelpText.commandHelp(command.spec))
                return .success
            }
            return try command.run(parsed, context: context)
        } catch let error as UsageError {
            StandardError.writeLine("framedump \(name): \(error.message)")
            StandardError.writeLine("Run 'framedump \(name) --help' for usage.")
            return .usage
        } catch let failure as CommandFailure {
            StandardError.writeLine(failure.message)
            return failure.status
        } catch OutputError.closed {
            return .success
        } catch OutputError.failed(let reason) {
            StandardError.writeLine("framedump \(name): cannot write output: \(reason)")
            return .badInput
        } catch {
            StandardError.writeLine("framedump \(name): \(error)")
            return .badInput
        }
    }
}
