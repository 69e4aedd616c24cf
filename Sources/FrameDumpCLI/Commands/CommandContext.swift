/// What a command may use from the process: standard output, the environment, the terminal.
struct CommandContext {
    /// The buffered standard output.
    var output: OutputStream
    /// The process environment.
    var environment: [String: String]
    /// Whether standard output is a terminal.
    var outputIsTerminal: Bool
}
