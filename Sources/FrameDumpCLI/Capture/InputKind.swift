import PacketCapture

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
        let fileDescriptor: Int32
        switch FileDescriptorIO.openForReading(path) {
        case .success(let opened): fileDescriptor = opened
        case .failure(let error): return .unreadable(error)
        }
        let (prefix, readError) = readPrefix(fileDescriptor)
        if fileDescriptor != 0, let readError {
            FileDescriptorIO.close(fileDescriptor)
            return .unreadable(readError)
        }
        let isRegular = FileDescriptorIO.isRegularFile(fileDescriptor)
        let opened: Opened
        if fileDescriptor != 0, isRegular {
            FileDescriptorIO.close(fileDescriptor)
            opened = Opened(prefix: [], stream: nil)
        } else {
            // Kept open for the reader, which owns it from here to the end of the run.
            opened = Opened(prefix: prefix, stream: fileDescriptor, arrivesLive: !isRegular)
        }
        // Fewer than 4 bytes are the whole input. A pcapng cut inside its magic would read as
        // blank text, an empty dump that exits 0 (`tcpdump -w - | framedump decode -`, tcpdump
        // dying at once).
        let isCapture = PcapReader.isCaptureFile(prefix: prefix) || PcapReader.isCutPcapngMagic(prefix) || namesCapture(path)
        return isCapture ? .capture(opened) : .hexDump(opened)
    }

    /// Whether `path` ends in a capture file's extension (`.pcap`, `.pcapng`, `.cap`, any case):
    /// such a file that does not begin with a capture's magic (empty, cut short, damaged) is
    /// reported as the capture it was meant to be, by the capture reader, rather than read as an
    /// empty hex dump.
    private static func namesCapture(_ path: String) -> Bool {
        let name = path.lowercased()
        return [".pcap", ".pcapng", ".cap"].contains { name.hasSuffix($0) }
    }

    /// Up to 4 bytes from `fileDescriptor`, fewer at end of input; and the error that stopped
    /// the reading early, if one did.
    private static func readPrefix(_ fileDescriptor: Int32) -> (bytes: [UInt8], error: SystemError?) {
        var prefix = [UInt8](repeating: 0, count: 4)
        var count = 0
        while count < prefix.count {
            let got = prefix.withUnsafeMutableBytes { FileDescriptorIO.readSome(fileDescriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            switch got {
            case .success(0): return (Array(prefix.prefix(count)), nil)
            case .success(let bytes): count += bytes
            case .failure(let error): return (Array(prefix.prefix(count)), error)
            }
        }
        return (Array(prefix.prefix(count)), nil)
    }
}
