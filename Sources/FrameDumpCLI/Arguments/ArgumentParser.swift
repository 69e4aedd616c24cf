/// Parses one command's arguments against its option table.
///
/// Accepted forms, as in most Unix tools:
/// - `--name value`, `--name=value`, `-n value`, `-nvalue` for options that take a value;
/// - `--name`, `-n` for flags; several short flags may share one dash (`-ab`);
/// - `--` ends the options: everything after it is positional;
/// - `-` alone is a positional argument (conventionally standard input).
///
/// Options and positionals may be mixed in any order. `--help`/`-h` is always accepted.
enum ArgumentParser {
    /// Parses `arguments` (without the program and command words) against `spec`.
    ///
    /// - Returns: the values, flags and positionals, checked against the table: every option
    ///   known, values present and allowed, positional count within the table's bounds (the
    ///   count is not checked when help was requested).
    /// - Throws: ``UsageError`` naming the first problem.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var scan = Scan(spec: spec, arguments: arguments)
        var optionsEnded = false
        while let argument = scan.next() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                scan.parsed.positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try scan.parseLong(argument)
            } else {
                try scan.parseShort(argument)
            }
        }
        if !scan.parsed.helpRequested {
            try checkPositionals(scan.parsed.positionals, spec: spec)
        }
        return scan.parsed
    }

    /// One pass over the arguments: an option that takes its value from the next argument
    /// consumes it, so the position is shared by the loop and the option parsers.
    private struct Scan {
        let spec: CommandSpec
        let arguments: [String]
        var index = 0
        var parsed = ParsedArguments()

        init(spec: CommandSpec, arguments: [String]) {
            self.spec = spec
            self.arguments = arguments
        }

        mutating func next() -> String? {
            guard index < arguments.count else { return nil }
            defer { index += 1 }
            return arguments[index]
        }

        mutating func parseLong(_ argument: String) throws(UsageError) {
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if name == "help" {
                parsed.helpRequested = true
                return
            }
            guard let option = spec.options.first(where: { $0.long == name }) else {
                let hint = Suggestion.hint(for: name, among: spec.options.map(\.long) + ["help"], prefix: "--")
                throw UsageError("unknown option '--\(name)'\(hint)")
            }
            if option.takesValue {
                try store(option, displayName: "--\(name)", attached: inlineValue)
            } else {
                guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
                parsed.flags.insert(option.long)
            }
        }

        mutating func parseShort(_ argument: String) throws(UsageError) {
            var letters = argument.dropFirst()
            while let letter = letters.popFirst() {
                if letter == "h" {
                    parsed.helpRequested = true
                    continue
                }
                guard let option = spec.options.first(where: { $0.short == letter }) else {
                    throw UsageError("unknown option '-\(letter)'\(otherCaseHint(letter))")
                }
                guard option.takesValue else {
                    parsed.flags.insert(option.long)
                    continue
                }
                let attached = letters.isEmpty ? nil : String(letters)
                letters = ""
                try store(option, displayName: "-\(letter)", attached: attached)
            }
        }

        /// `" (did you mean '-F' (--format)?)"` when the letter in the other case is an option:
        /// `-f` was `--format` in some commands before it meant `--filter` in all of them.
        func otherCaseHint(_ letter: Character) -> String {
            let other = letter.isUppercase ? letter.lowercased() : letter.uppercased()
            guard let option = spec.options.first(where: { $0.short.map(String.init) == other }) else { return "" }
            return " (did you mean '-\(other)' (--\(option.long))?)"
        }

        /// Stores the value of `option`: the `attached` one (`--name=value`, `-nvalue`) or else
        /// the next argument, which is consumed.
        mutating func store(_ option: OptionSpec, displayName: String, attached: String?) throws(UsageError) {
            guard let value = attached ?? next() else {
                throw UsageError("option '\(displayName)' needs a value (\(option.valueName ?? "VALUE"))")
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                let hint = Suggestion.hint(for: value, among: allowed)
                throw UsageError("invalid value '\(value)' for '\(displayName)'; expected \(listing(allowed))\(hint)")
            }
            parsed.values[option.long] = value
            parsed.repeatedValues[option.long, default: []].append(value)
        }
    }

    private static func checkPositionals(_ positionals: [String], spec: CommandSpec) throws(UsageError) {
        let required = spec.positionals.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = spec.positionals[positionals.count].name
            throw UsageError("missing argument \(missing)")
        }
        if positionals.count > spec.positionals.count, spec.positionals.last?.isVariadic != true {
            let extra = positionals[spec.positionals.count]
            if spec.positionals.isEmpty {
                throw UsageError("unexpected argument '\(extra)' (this command takes no arguments)")
            }
            throw UsageError("unexpected argument '\(extra)' (expected at most \(spec.positionals.count): \(spec.positionals.map(\.name).joined(separator: " ")))")
        }
    }

    /// `a, b or c`.
    static func listing(_ words: [String]) -> String {
        guard let last = words.last else { return "" }
        guard words.count > 1 else { return last }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
