#if canImport(Glibc)
import Glibc
#endif

/// A socket system call that failed: which one, and its `errno`.
struct SocketError: Error, Equatable, CustomStringConvertible {
    /// The call, as the message names it (`connect`, `bind`, `getaddrinfo`).
    var operation: String
    /// The `errno` value; for `getaddrinfo`, its `EAI_*` code.
    var code: Int32
    /// The system's text for the code, when it is not `strerror`'s (`gai_strerror`).
    var text: String?

    init(_ operation: String, code: Int32 = errno, text: String? = nil) {
        self.operation = operation
        self.code = code
        self.text = text
    }

    /// The reason alone, e.g. `Connection refused`.
    var reason: String { text ?? String(cString: strerror(code)) }

    /// `connect: Connection refused`.
    var description: String { "\(operation): \(reason)" }
}
