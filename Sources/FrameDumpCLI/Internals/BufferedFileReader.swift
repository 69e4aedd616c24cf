/// Reads a file front to back through a buffer: exact-count reads and forward skips, with one
/// `read(2)` per buffer-full rather than one per call.
///
/// For scans that read a few bytes of each record and skip the rest: the pcapng scan for
/// Decryption Secrets Blocks reads the 8-byte header of every block, which unbuffered took a
/// `read` and an `lseek` per packet. The buffer starts at 4 KiB — a classic pcap file is given up
/// after its first 8 bytes — and doubles with each refill up to ``maxBufferSize``.
struct BufferedFileReader {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0

    /// The largest buffer, in bytes.
    static let maxBufferSize = 1 << 20

    /// Reads `fileDescriptor` from its current position; the descriptor stays the caller's.
    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// The next `count` bytes.
    ///
    /// - Returns: `nil` when the file ends (or a read fails) before `count` bytes.
    mutating func read(_ count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            if start == end, !refill() { return nil }
            let taken = min(count - bytes.count, end - start)
            bytes += buffer[start..<start + taken]
            start += taken
        }
        return bytes
    }

    /// Moves `count` bytes forward: within the buffer, or past it with `lseek(2)`.
    ///
    /// - Returns: `false` when the descriptor cannot seek (a pipe).
    mutating func skip(_ count: Int) -> Bool {
        if count <= end - start {
            start += count
            return true
        }
        let beyond = count - (end - start)
        start = 0
        end = 0
        return FileDescriptorIO.skip(fileDescriptor, beyond)
    }

    /// Reads the next buffer-full, the buffer twice as large as the last time (up to the maximum).
    private mutating func refill() -> Bool {
        let size = buffer.isEmpty ? 4096 : min(2 * buffer.count, Self.maxBufferSize)
        if size != buffer.count { buffer = [UInt8](repeating: 0, count: size) }
        let result = buffer.withUnsafeMutableBytes { FileDescriptorIO.readSome(fileDescriptor, into: $0) }
        guard case .success(let count) = result, count > 0 else { return false }
        start = 0
        end = count
        return true
    }
}
