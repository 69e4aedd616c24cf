#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment as a dictionary, read from `environ` (what
/// `ProcessInfo.processInfo.environment` gives, without linking Foundation; see ``POSIXThread``).
enum ProcessEnvironment {
    /// Every `NAME=value` entry, split at its first `=` byte; an entry without `=` is skipped,
    /// and a repeated name keeps its first value, as `getenv(3)` does.
    static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            // Bytes, not Characters: a run starts with every variable of the environment parsed,
            // and splitting a `String` at a Character costs a grapheme walk per byte.
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil { variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            entry += 1
        }
        return variables
    }
}
