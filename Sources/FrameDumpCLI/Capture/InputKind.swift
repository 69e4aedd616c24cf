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
    /// A path that cannot be opened or read (missing, no permission, a directory).
    case unreadable(SystemError)

    /// Where an input's bytes come from once its first bytes were read.
    struct Opened: Equatable {
        /// The bytes already read, when they cannot be read again (from `stream`).
        var prefix: [UInt8]
        /// The open descriptor the rest comes from, for an input that cannot be reopened and
        /// read from its start: standard input, a pipe or FIFO (`<(cmd)`, `/dev/stdin`), a
        /// character device. `nil` for a regular file, which its reader opens again by path.
        var stream: Int32?
        /// Whether `stream` is not a regular file: its data may arrive while it is decoded
        /// (`tcpdump -w - | framedump decode -`), so output is written as each packet is read.
        var arrivesLive = false
    }

    /// Reads the first four bytes of `path` (`-`: standard input) to tell what it holds.
    ///
    /// A regular file is opened, peeked at and closed (its readers open it again from the
    /// start). Anything else cannot be rewound, so it stays open and the bytes read are kept
    /// for the reader to replay. A path that cannot be opened or read is ``unreadable(_:)``,
    /// with the system's reason; standard input always counts as readable (its reader reports).
    static func identify(path: String) -> InputKind {
        let fileDescriptor = path == "-" ? 0 : open(path, O_RDONLY)
        guard fileDescriptor >= 0 else { return .unreadable(SystemError(code: errno)) }
        let (prefix, readError) = readPrefix(fileDescriptor)
        if fileDescriptor != 0, let readError {
            close(fileDescriptor)
            return .unreadable(readError)
        }
        let isRegular = isRegularFile(fileDescriptor)
        let opened: Opened
        if fileDescriptor != 0, isRegular {
            close(fileDescriptor)
            opened = Opened(prefix: [], stream: nil)
        } else {
            // Kept open for the reader, which owns it from here to the end of the run.
            opened = Opened(prefix: prefix, stream: fileDescriptor, arrivesLive: !isRegular)
        }
        return PcapReader.isCaptureFile(prefix: prefix) ? .capture(opened) : .hexDump(opened)
    }

    /// Whether `fileDescriptor` is a regular file (`fstat(2)`), rather than a pipe, a terminal
    /// or a device whose data may arrive while we decode.
    private static func isRegularFile(_ fileDescriptor: Int32) -> Bool {
        var status = stat()
        return fstat(fileDescriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Up to 4 bytes from `fileDescriptor`, fewer at end of input; and the error that stopped
    /// the reading early, if one did.
    private static func readPrefix(_ fileDescriptor: Int32) -> (bytes: [UInt8], error: SystemError?) {
        var prefix = [UInt8](repeating: 0, count: 4)
        var count = 0
        while count < prefix.count {
            let got = prefix.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress! + count, $0.count - count) }
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                return (Array(prefix.prefix(count)), SystemError(code: errno))
            }
        }
        return (Array(prefix.prefix(count)), nil)
    }
}
