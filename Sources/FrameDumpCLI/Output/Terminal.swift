#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about where output goes, and the colour decision that follows from them.
enum Terminal {
    /// Whether `fileDescriptor` is a terminal (`isatty(3)`).
    static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// Whether to emit ANSI colour.
    ///
    /// `NO_COLOR` set to any non-empty value turns colour off whatever `--color` says
    /// (https://no-color.org: "should prevent the addition of ANSI color"); otherwise `always`
    /// and `never` win, and `auto` colours only a terminal.
    ///
    /// - Parameters:
    ///   - choice: the `--color` value.
    ///   - environment: the process environment (only `NO_COLOR` is read).
    ///   - outputIsTerminal: whether standard output is a terminal.
    static func usesColor(_ choice: ColorChoice, environment: [String: String], outputIsTerminal: Bool) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        switch choice {
        case .always: return true
        case .never: return false
        case .auto: return outputIsTerminal
        }
    }
}
