/// Diagnostics for people: usage errors, input errors, the detected format.
///
/// Unbuffered, so a message is out before the process exits whatever happens next.
enum StandardError {
    /// Writes `message` and a newline to file descriptor 2; write errors are ignored (there is
    /// nowhere left to report them).
    static func writeLine(_ message: String) {
        write(message + "\n")
    }

    /// Writes `text` as it is, without a newline, to file descriptor 2: for a line rewritten in
    /// place (``ProgressLine``, `fuzz`'s progress). Write errors are ignored, as for ``writeLine(_:)``.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(2, $0) }
    }
}
