#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket system call that failed: which one, and its `errno`.
public struct SocketError: Error, Equatable, CustomStringConvertible {
    /// The call, as the message names it (`connect`, `bind`, `getaddrinfo`).
    public var operation: String
    /// The `errno` value; for `getaddrinfo`, its `EAI_*` code.
    public var code: Int32
    /// The system's text for the code, when it is not `strerror`'s (`gai_strerror`).
    public var text: String?

    /// Whether the process or the system ran out of descriptors (`EMFILE`, `ENFILE`).
    public var isOutOfDescriptors: Bool { code == EMFILE || code == ENFILE }

    /// - Parameters:
    ///   - operation: the call's name.
    ///   - code: its `errno` (the current one unless given).
    ///   - text: the message, when not `strerror(code)`'s.
    init(_ operation: String, code: Int32 = errno, text: String? = nil) {
        self.operation = operation
        self.code = code
        self.text = text
    }

    /// The reason alone, e.g. `Connection refused`.
    public var reason: String { text ?? String(cString: strerror(code)) }

    /// `connect: Connection refused`.
    public var description: String { "\(operation): \(reason)" }
}
