import PacketCapture
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-buffer reads and writes on a file descriptor, retrying partial transfers, `EINTR` and
/// (on a descriptor in non-blocking mode) `EAGAIN` (PacketCapture's `retriesFailedTransfer`),
/// and the few file calls the commands make (`open`, `close`, `fstat`, `mkdir`): the CLI's
/// calls into the C library for files, in one place.
enum FileDescriptorIO {
    /// Opens `path` read-only (`-`: standard input, descriptor 0, not opened again).
    ///
    /// - Returns: the descriptor, or the `errno` of the failing `open(2)`.
    static func openForReading(_ path: String) -> Result<Int32, SystemError> {
        if path == "-" { return .success(0) }
        let fileDescriptor = open(path, O_RDONLY)
        return fileDescriptor >= 0 ? .success(fileDescriptor) : .failure(SystemError(code: errno))
    }

    /// Opens (creating, mode 0644) `path` for writing, close-on-exec: emptied when `truncating`,
    /// else appended to.
    ///
    /// - Returns: the descriptor, or the `errno` of the failing `open(2)`.
    static func openForWriting(_ path: String, truncating: Bool) -> Result<Int32, SystemError> {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : O_APPEND)
        let fileDescriptor = open(path, flags, 0o644)
        return fileDescriptor >= 0 ? .success(fileDescriptor) : .failure(SystemError(code: errno))
    }

    /// Closes `fileDescriptor` (`close(2)`; its result is of no use to the callers).
    static func close(_ fileDescriptor: Int32) {
        _ = systemClose(fileDescriptor)
    }

    /// Creates directory `path` (mode 0755) unless it exists.
    ///
    /// - Returns: `nil`, or the `errno` of the failing `mkdir(2)`.
    static func makeDirectory(_ path: String) -> SystemError? {
        mkdir(path, 0o755) == 0 || errno == EEXIST ? nil : SystemError(code: errno)
    }

    /// Whether `fileDescriptor` is a regular file (`fstat(2)`), rather than a pipe, a terminal
    /// or a device whose data may arrive while we decode.
    static func isRegularFile(_ fileDescriptor: Int32) -> Bool {
        var status = stat()
        return fstat(fileDescriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` names a regular file (`stat(2)`, following links).
    static func isRegularFile(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// One `read(2)` into `buffer`, retried on `EINTR` and, on a non-blocking descriptor, once
    /// data is there.
    ///
    /// - Returns: the byte count (0 at end of file), or the `errno` of the failing call.
    static func readSome(_ fileDescriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        while true {
            let count = read(fileDescriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return .success(count) }
            if !retriesFailedTransfer(on: fileDescriptor, waitingFor: Int32(POLLIN)) { return .failure(SystemError(code: errno)) }
        }
    }

    /// Moves `fileDescriptor`'s position `count` bytes forward (`lseek(2)`, `SEEK_CUR`).
    ///
    /// - Returns: `false` when the descriptor cannot seek (a pipe).
    static func skip(_ fileDescriptor: Int32, _ count: Int) -> Bool {
        lseek(fileDescriptor, off_t(count), SEEK_CUR) >= 0
    }

    /// Writes every byte of `bytes` to `fileDescriptor` with `write(2)`.
    ///
    /// - Returns: 0 when all bytes were written, otherwise the `errno` of the failing call.
    static func writeAll(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var start = 0
        while start < bytes.count {
            let written = write(fileDescriptor, bytes.baseAddress! + start, bytes.count - start)
            if written >= 0 {
                start += written
            } else if !retriesFailedTransfer(on: fileDescriptor, waitingFor: Int32(POLLOUT)) {
                return errno
            }
        }
        return 0
    }

    /// Reads `fileDescriptor` to end of file with `read(2)`, in 64 KiB steps, or until a step
    /// holds the byte `stop`.
    ///
    /// - Parameters:
    ///   - fileDescriptor: What to read.
    ///   - stop: A byte after which reading ends early (the step that holds it is returned whole).
    /// - Returns: the bytes read, or the `errno` of the failing call.
    static func readAll(_ fileDescriptor: Int32, through stop: UInt8? = nil) -> Result<[UInt8], SystemError> {
        var bytes: [UInt8] = []
        let step = 64 * 1024
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: step))
            let count = bytes.withUnsafeMutableBytes { raw in
                read(fileDescriptor, raw.baseAddress! + start, step)
            }
            if count < 0 {
                bytes.removeLast(step)
                if retriesFailedTransfer(on: fileDescriptor, waitingFor: Int32(POLLIN)) { continue }
                return .failure(SystemError(code: errno))
            }
            bytes.removeLast(step - count)
            if count == 0 { return .success(bytes) }
            if let stop, bytes[start...].contains(stop) { return .success(bytes) }
        }
    }

    /// Reads the file at `path` to end of file, or until a step holds `stop` (see ``readAll(_:through:)``).
    ///
    /// - Returns: the bytes, or the `errno` of the failing `open(2)` or `read(2)`.
    static func readFile(atPath path: String, through stop: UInt8? = nil) -> Result<[UInt8], SystemError> {
        let fileDescriptor = open(path, O_RDONLY)
        guard fileDescriptor >= 0 else { return .failure(SystemError(code: errno)) }
        defer { close(fileDescriptor) }
        return readAll(fileDescriptor, through: stop)
    }
}

/// `close(2)`, named apart from ``FileDescriptorIO/close(_:)``.
private func systemClose(_ fileDescriptor: Int32) -> Int32 {
    close(fileDescriptor)
}
