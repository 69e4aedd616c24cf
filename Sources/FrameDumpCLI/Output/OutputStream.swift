#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one buffered writer for a command's standard output.
///
/// Renderers append to ``buffer``; once it holds a block (64 KiB) the command calls
/// ``flushIfBlockFull()``, which hands whole blocks to `write(2)`. All output goes through here
/// (never `print`): one system call per 64 KiB instead of one per line is what lets JSON Lines
/// keep up with tens of MB/s of decoded capture.
///
/// It calls `write(2)` on the file descriptor rather than stdio's `fwrite`, so there is no second
/// copy into stdio's own buffer and a closed pipe shows up exactly as `EPIPE` (SIGPIPE is ignored
/// by the entry point), which becomes ``OutputError/closed``: `framedump decode x | head` stops
/// quietly instead of dying by signal or printing an error.
final class OutputStream {
    /// Bytes written but not yet handed to the file descriptor.
    ///
    /// Unchecked for exclusivity: renderers append through `&output.buffer` once per line, and
    /// the runtime check cost more than the append. One thread owns a stream, and no renderer
    /// reaches the stream while appending.
    @exclusivity(unchecked) var buffer: [UInt8] = []
    /// How many bytes make a block: the unit handed to `write(2)`.
    let blockSize: Int
    /// Whether anything was written or is buffered: what the command's exit status must answer for.
    var hasOutput: Bool { flushedAny || !buffer.isEmpty }
    private var flushedAny = false
    /// Writes all the bytes given; returns 0, or the `errno` of the failure.
    private let sink: (UnsafeRawBufferPointer) -> Int32

    /// - Parameters:
    ///   - fileDescriptor: where blocks go (1 for standard output).
    ///   - blockSize: bytes per `write(2)`, 64 KiB by default.
    convenience init(fileDescriptor: Int32, blockSize: Int = 64 * 1024) {
        self.init(blockSize: blockSize) { FileDescriptorIO.writeAll(fileDescriptor, $0) }
    }

    /// A stream whose blocks go to `sink` (tests collect them; the process writes a descriptor).
    ///
    /// - Parameters:
    ///   - blockSize: bytes that make a block.
    ///   - sink: writes all the bytes given; returns 0, or the `errno` of the failure.
    init(blockSize: Int, sink: @escaping (UnsafeRawBufferPointer) -> Int32) {
        self.blockSize = blockSize
        self.sink = sink
        buffer.reserveCapacity(blockSize * 2)
    }

    /// Ignores SIGPIPE for the whole process (`signal(2)`), so that a reader going away is the
    /// `EPIPE` ``flush()`` turns into ``OutputError/closed``, not death by signal.
    static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Appends the UTF-8 bytes of `text`.
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Writes out the buffered bytes if they fill at least one block.
    ///
    /// - Throws: ``OutputError`` when the descriptor is closed or fails.
    func flushIfBlockFull() throws(OutputError) {
        if buffer.count >= blockSize { try flush() }
    }

    /// Writes out every buffered byte.
    ///
    /// - Throws: ``OutputError/closed`` when the reader went away (`EPIPE`), ``OutputError/failed``
    ///   with the `errno` text for any other failure. The buffer is emptied either way.
    func flush() throws(OutputError) {
        defer { buffer.removeAll(keepingCapacity: true) }
        if !buffer.isEmpty { flushedAny = true }
        let code = buffer.withUnsafeBytes(sink)
        switch code {
        case 0: return
        case EPIPE: throw .closed
        default: throw .failed(SystemError(code: code).text)
        }
    }
}
