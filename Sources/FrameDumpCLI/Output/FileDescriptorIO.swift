#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-buffer reads and writes on a file descriptor, retrying partial transfers and `EINTR`.
enum FileDescriptorIO {
    /// Writes every byte of `bytes` to `fileDescriptor` with `write(2)`.
    ///
    /// - Returns: 0 when all bytes were written, otherwise the `errno` of the failing call.
    static func writeAll(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var start = 0
        while start < bytes.count {
            let written = write(fileDescriptor, bytes.baseAddress! + start, bytes.count - start)
            if written >= 0 {
                start += written
            } else if errno != EINTR {
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
                if errno == EINTR { continue }
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
