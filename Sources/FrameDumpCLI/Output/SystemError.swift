#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `errno` value with the system's text for it.
struct SystemError: Error, Equatable {
    var code: Int32
    /// `strerror(3)`'s text, e.g. "No such file or directory".
    var text: String { String(cString: strerror(code)) }
}
