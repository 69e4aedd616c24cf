import Synchronization

/// Diagnostics for people: usage errors, input errors, the detected format.
///
/// Unbuffered, so a message is out before the process exits whatever happens next.
enum StandardError {
    /// Whether a ``ProgressLine`` is on the terminal's last line. It belongs to the reading
    /// thread, and a line written meanwhile (the decoding thread's notice of a format detected
    /// late) would otherwise run on from its text; the progress line's next update redraws it.
    private static let progressShown = Atomic<Bool>(false)

    /// Writes `message` and a newline to file descriptor 2, erasing a progress line first if one
    /// is shown; write errors are ignored (there is nowhere left to report them).
    static func writeLine(_ message: String) {
        write((progressShown.load(ordering: .relaxed) ? "\r\u{1B}[K" : "") + message + "\n")
    }

    /// Writes a ``ProgressLine`` update or erasure: `text` as it is, and whether the line is
    /// shown after it.
    static func writeProgress(_ text: String, shown: Bool) {
        progressShown.store(shown, ordering: .relaxed)
        write(text)
    }

    /// Writes `text` as it is, without a newline, to file descriptor 2: for a line rewritten in
    /// place (``ProgressLine``, `fuzz`'s progress). Write errors are ignored, as for ``writeLine(_:)``.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(2, $0) }
    }
}
