#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment as a dictionary, read from `environ` (what
/// `ProcessInfo.processInfo.environment` gives, without linking Foundation; see ``POSIXThread``).
enum ProcessEnvironment {
    /// Every `NAME=value` entry; an entry without `=` is skipped, and a repeated name keeps
    /// its first value, as `getenv(3)` does.
    static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
