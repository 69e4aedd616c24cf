/// A command line that does not fit the command's table; exit status 1.
///
/// `message` names the problem and, where one is close, the option or command meant
/// (`unknown option '--jsn' (did you mean '--json'?)`). The caller prefixes it with the command
/// (`framedump decode: `) and points at `--help`.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
