/// Diagnostics for people: usage errors, input errors, the detected format.
///
/// Unbuffered, so a message is out before the process exits whatever happens next.
enum StandardError {
    /// Writes `message` and a newline to file descriptor 2; write errors are ignored (there is
    /// nowhere left to report them).
    static func writeLine(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(UInt8(ascii: "\n"))
        _ = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(2, $0) }
    }
}
