/// An error from libpcap: what failed (`kind`), libpcap's own words (`message`) and, for a
/// capture file or stream that could not be read to its end, where reading stopped (`offset`).
///
/// The message is the text libpcap put in its error buffer (`pcap_geterr`, or the `errbuf`
/// filled by `pcap_open_offline`, `pcap_create`, `pcap_findalldevs`), sometimes followed by a
/// hint from framedump (how to get capture permission). It is meant to be printed as is,
/// e.g. `framedump: <message>` followed by exit status 1.
///
/// Like swift-system's `Errno`, the kinds are static members of a struct rather than enum
/// cases, so new kinds can be added without breaking callers that switch over them.
public struct CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of operation failed.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// A short stable name (`"open"`, `"filter"`, …), usable as a JSON value.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// A capture file or stream could not be opened: missing file, unknown format
        /// ("unknown file format"), unsupported version or link type.
        public static let openFailed = Kind("open")
        /// libpcap could not compile a BPF filter expression (`pcap_compile`) or install it
        /// (`pcap_setfilter`).
        public static let invalidFilter = Kind("filter")
        /// Reading a packet failed (`pcap_next_ex` returned `PCAP_ERROR`): a truncated or
        /// corrupt capture file, or a failed read on a live interface.
        public static let readFailed = Kind("read")
        /// The process may not capture on the interface (`PCAP_ERROR_PERM_DENIED`,
        /// `PCAP_ERROR_PROMISC_PERM_DENIED`).
        public static let permissionDenied = Kind("permission")
        /// No interface has the given name (`PCAP_ERROR_NO_SUCH_DEVICE`).
        public static let noSuchInterface = Kind("no-such-interface")
        /// The interface exists but is down (`PCAP_ERROR_IFACE_NOT_UP`).
        public static let interfaceNotUp = Kind("interface-down")
        /// Any other failure creating, configuring or activating a live capture.
        public static let activationFailed = Kind("activate")
        /// Writing a capture file failed (`pcap_dump_open`, or an I/O error while dumping).
        public static let writeFailed = Kind("write")
        /// Listing interfaces (`pcap_findalldevs`) or reading statistics (`pcap_stats`) failed.
        public static let queryFailed = Kind("query")

        /// The kind's short name (`open`, `filter`, `no-such-interface`, …).
        public var description: String { name }
    }

    /// What failed.
    public var kind: Kind
    /// libpcap's message, possibly followed by a hint; never empty.
    public var message: String
    /// For a ``Kind/readFailed`` error from a capture file or standard input: the byte, counted
    /// from the capture's first byte, at which libpcap stopped reading (`ftello(3)` on its
    /// stream once the read failed). The damage is in the record that ends before it: for a
    /// classic pcap cut short this is the end of the file; for a record header whose captured
    /// length is impossible, the byte after that 16-byte header. `nil` for live captures and
    /// for errors that are not about reading.
    public var offset: Int64?

    /// Creates an error; an empty `message` is replaced by the kind's name.
    public init(_ kind: Kind, message: String, offset: Int64? = nil) {
        self.kind = kind
        self.message = message.isEmpty ? "libpcap \(kind.name) error" : message
        self.offset = offset
    }

    /// The message, then where reading stopped when that is known, in libpcap's own style:
    /// `truncated dump file; tried to read 136 captured bytes, only got 30; reading stopped at
    /// byte 2547`.
    public var description: String {
        guard let offset else { return message }
        return "\(message); reading stopped at byte \(offset)"
    }
}
