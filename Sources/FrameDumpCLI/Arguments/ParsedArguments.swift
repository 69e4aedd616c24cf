/// What the parser found on a command line, checked against the command's table.
struct ParsedArguments: Sendable, Equatable {
    /// Option values by long name; the last occurrence wins.
    var values: [String: String] = [:]
    /// Every value given for each option, in command-line order (`--field a=1 --field b=2`).
    var repeatedValues: [String: [String]] = [:]
    /// Long names of the flags given.
    var flags: Set<String> = []
    /// Positional arguments in order.
    var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    var helpRequested = false

    /// The value given for option `long`, or `nil` when the option was not given.
    func value(_ long: String) -> String? { values[long] }

    /// Every value given for option `long`, in order; empty when the option was not given.
    func values(_ long: String) -> [String] { repeatedValues[long] ?? [] }

    /// Whether flag `long` was given.
    func flag(_ long: String) -> Bool { flags.contains(long) }

    /// The value of option `long` as a whole number of 1 or more (`-c 10`), or `nil` when the
    /// option was not given.
    ///
    /// - Throws: ``UsageError`` naming the option when the value is not such a number.
    func positiveInteger(_ long: String) throws(UsageError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let number = Int(text), number > 0 else { throw UsageError("--\(long) '\(text)': expected a whole number of 1 or more") }
        return number
    }
}
