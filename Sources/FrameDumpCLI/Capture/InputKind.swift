import PacketCapture
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `decode` was given: a capture (pcap or pcapng) or a hex dump, told apart by the first
/// four bytes (`PcapReader.isCaptureFile(prefix:)`: the pcap magics and the pcapng Section
/// Header Block type, none of which a text dump can start with).
enum InputKind: Equatable {
    /// A capture file; `prefix` holds the bytes already read from standard input.
    case capture(prefix: [UInt8])
    /// Hex text; `prefix` holds the bytes already read from standard input.
    case hexDump(prefix: [UInt8])

    /// Reads the first four bytes of `path` (`-`: standard input) to tell what it holds.
    ///
    /// A file is opened, peeked at and closed (its readers open it again from the start); from
    /// standard input, which cannot be rewound, the bytes read are returned in the case's
    /// `prefix` for the reader to replay. A file that cannot be opened counts as a hex dump: the
    /// hex reader then reports the error with the path.
    static func identify(path: String) -> InputKind {
        if path == "-" {
            let prefix = readPrefix(0)
            return PcapReader.isCaptureFile(prefix: prefix) ? .capture(prefix: prefix) : .hexDump(prefix: prefix)
        }
        let fileDescriptor = open(path, O_RDONLY)
        guard fileDescriptor >= 0 else { return .hexDump(prefix: []) }
        defer { close(fileDescriptor) }
        return PcapReader.isCaptureFile(prefix: readPrefix(fileDescriptor)) ? .capture(prefix: []) : .hexDump(prefix: [])
    }

    /// Why the file at `path` cannot be read (`open(2)` or a first `read(2)` failing: missing,
    /// no permission, a directory), or `nil` when it can.
    static func unreadableReason(path: String) -> SystemError? {
        let fileDescriptor = open(path, O_RDONLY)
        guard fileDescriptor >= 0 else { return SystemError(code: errno) }
        defer { close(fileDescriptor) }
        var byte: UInt8 = 0
        return read(fileDescriptor, &byte, 1) < 0 ? SystemError(code: errno) : nil
    }

    /// Whether standard input is a regular file (`fstat(2)`), rather than a pipe or a terminal
    /// whose data may arrive while we decode.
    static var standardInputIsAFile: Bool {
        var status = stat()
        return fstat(0, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Up to 4 bytes from `fileDescriptor`, fewer only at end of input or on an error (which the
    /// reader that follows meets again and reports).
    private static func readPrefix(_ fileDescriptor: Int32) -> [UInt8] {
        var prefix = [UInt8](repeating: 0, count: 4)
        var count = 0
        while count < prefix.count {
            let got = prefix.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress! + count, $0.count - count) }
            if got > 0 {
                count += got
            } else if got == 0 || errno != EINTR {
                break
            }
        }
        return Array(prefix.prefix(count))
    }
}
