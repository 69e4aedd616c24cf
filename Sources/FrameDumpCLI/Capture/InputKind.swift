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
    /// A capture.
    case capture(Opened)
    /// Hex text.
    case hexDump(Opened)

    /// Where an input's bytes come from once its first bytes were read.
    struct Opened: Equatable {
        /// The bytes already read, when they cannot be read again (from `stream`).
        var prefix: [UInt8]
        /// The open descriptor the rest comes from, for an input that cannot be reopened and
        /// read from its start: standard input, a pipe or FIFO (`<(cmd)`, `/dev/stdin`), a
        /// character device. `nil` for a regular file, which its reader opens again by path.
        var stream: Int32?
    }

    /// Reads the first four bytes of `path` (`-`: standard input) to tell what it holds.
    ///
    /// A regular file is opened, peeked at and closed (its readers open it again from the
    /// start). Anything else cannot be rewound, so it stays open and the bytes read are kept
    /// for the reader to replay. A path that cannot be opened counts as a hex dump: the hex
    /// reader then reports the error with the path.
    static func identify(path: String) -> InputKind {
        let fileDescriptor = path == "-" ? 0 : open(path, O_RDONLY)
        guard fileDescriptor >= 0 else { return .hexDump(Opened(prefix: [], stream: nil)) }
        let prefix = readPrefix(fileDescriptor)
        let opened: Opened
        if fileDescriptor != 0, isRegularFile(fileDescriptor) {
            close(fileDescriptor)
            opened = Opened(prefix: [], stream: nil)
        } else {
            // Kept open for the reader, which owns it from here to the end of the run.
            opened = Opened(prefix: prefix, stream: fileDescriptor)
        }
        return PcapReader.isCaptureFile(prefix: prefix) ? .capture(opened) : .hexDump(opened)
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

    /// Whether `fileDescriptor` is a regular file (`fstat(2)`), rather than a pipe, a terminal
    /// or a device whose data may arrive while we decode.
    static func isRegularFile(_ fileDescriptor: Int32) -> Bool {
        var status = stat()
        return fstat(fileDescriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
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
