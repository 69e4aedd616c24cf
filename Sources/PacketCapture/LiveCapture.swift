import CPcap

/// Captures packets from a network interface as they arrive, through libpcap.
///
/// The handle is created and activated in `init` (`pcap_create`, `pcap_set_snaplen`,
/// `pcap_set_buffer_size`, `pcap_set_promisc`, `pcap_set_immediate_mode(1)`, `pcap_set_timeout`,
/// `pcap_set_tstamp_precision`, `pcap_activate`). Immediate mode delivers each packet as soon as
/// the kernel has it, so a decoder shows frames while the conversation is going on.
///
///     let capture = try LiveCapture(interface: "lo")
///     try capture.setFilter("tcp port 7000")
///     let interrupter = capture.interrupter      // hand to a SIGINT handler
///     while let packet = try capture.next() { … }  // nil once interrupted
///     let statistics = try capture.statistics()
///
/// Capturing needs root or `CAP_NET_RAW` (and `CAP_NET_ADMIN` for promiscuous mode on some
/// systems); without it `init` throws `CaptureError.Kind.permissionDenied`.
///
/// Not thread-safe, except `breakLoop()` / `Interrupter.breakLoop()`, which may be called from
/// any thread or a signal handler. `deinit` closes the handle (`pcap_close`).
public final class LiveCapture: PcapSource {
    /// The default snapshot length, in bytes: tcpdump's default, enough for any packet on
    /// common links, including loopback's 64 KiB MTU and GSO/GRO super-packets.
    public static let defaultSnaplen = 262_144

    /// The default kernel buffer size, in bytes (32 MiB). libpcap's own default is 2 MB; in
    /// immediate mode Linux uses a TPACKET_V2 ring whose slots are snaplen-sized when the MTU
    /// is unknown (the `any` device), so 2 MB holds only 8 packets and bursts are dropped
    /// (measured: 16 of 161 loopback packets lost on `any` with tcpdump's defaults).
    public static let defaultBufferSize = 32 << 20

    /// The interface being captured, as given to `init`.
    public let interfaceName: String

    /// A warning from `pcap_activate` (e.g. promiscuous mode unsupported), or `nil`. The capture
    /// works; the CLI shows the warning on standard error.
    public let warning: String?

    /// Opens and activates a live capture.
    ///
    /// Nanosecond timestamps are requested (`pcap_set_tstamp_precision`); where the platform
    /// cannot provide them the capture falls back to microseconds, and `CapturedPacket.timestamp`
    /// is still in nanoseconds (with three trailing zero digits).
    ///
    /// - Parameters:
    ///   - interface: An interface name from `LiveCapture.interfaces()`, e.g. `"lo"`, `"eth0"`,
    ///     or `"any"` (Linux cooked capture of all interfaces).
    ///   - snaplen: Bytes kept per packet; default `defaultSnaplen` (262144).
    ///   - bufferSize: The kernel buffer for packets not yet read (`pcap_set_buffer_size`), in
    ///     bytes; default `defaultBufferSize` (32 MiB).
    ///   - promiscuous: Whether to put the interface in promiscuous mode; default `false`.
    ///   - timeoutMilliseconds: The packet buffer timeout (`pcap_set_timeout`), in
    ///     milliseconds; bounds how long `next()` blocks before it notices `breakLoop()` on
    ///     platforms without a wake-up. Default 100.
    /// - Throws: `CaptureError` of kind `.permissionDenied` (message includes libpcap's text and
    ///   the hint to run as root or grant CAP_NET_RAW), `.noSuchInterface`, `.interfaceNotUp`
    ///   or `.activationFailed`.
    public init(interface: String, snaplen: Int = LiveCapture.defaultSnaplen,
                bufferSize: Int = LiveCapture.defaultBufferSize, promiscuous: Bool = false,
                timeoutMilliseconds: Int = 100) throws {
        var errorBuffer = ErrorBuffer()
        guard let pointer = pcap_create(interface, &errorBuffer.storage) else {
            throw CaptureError(.activationFailed, message: "\(interface): \(errorBuffer.message)")
        }
        let handle = PcapHandle(pointer)
        pcap_set_snaplen(pointer, Int32(clamping: snaplen))
        pcap_set_buffer_size(pointer, Int32(clamping: bufferSize))
        pcap_set_promisc(pointer, promiscuous ? 1 : 0)
        pcap_set_immediate_mode(pointer, 1)
        pcap_set_timeout(pointer, Int32(clamping: timeoutMilliseconds))
        // PCAP_ERROR_TSTAMP_PRECISION_NOTSUP leaves microseconds; refreshPrecision() below
        // reads back what was granted.
        _ = pcap_set_tstamp_precision(pointer, Int32(PCAP_TSTAMP_PRECISION_NANO))

        let status = pcap_activate(pointer)
        if status < 0 {
            throw Self.activationError(status: status, interface: interface, handle: handle)
        }
        warning = status > 0 ? Self.statusText(status, handle: handle) : nil
        handle.refreshPrecision()
        self.interfaceName = interface
        super.init(handle: handle)
    }

    private static func statusText(_ status: Int32, handle: PcapHandle) -> String {
        // pcap_activate fills the error buffer for PCAP_ERROR and most warnings; for the
        // specific codes it may leave it empty, then the generic text is all there is.
        let detail = handle.lastError
        return detail.isEmpty ? String(cString: pcap_statustostr(status)) : detail
    }

    private static func activationError(status: Int32, interface: String, handle: PcapHandle) -> CaptureError {
        let text = "\(interface): \(statusText(status, handle: handle))"
        switch status {
        case PCAP_ERROR_PERM_DENIED, PCAP_ERROR_PROMISC_PERM_DENIED:
            return CaptureError(.permissionDenied, message:
                "\(text) (capturing needs root, or grant the binary CAP_NET_RAW: "
                + "sudo setcap cap_net_raw,cap_net_admin=eip $(command -v framedump))")
        case PCAP_ERROR_NO_SUCH_DEVICE:
            return CaptureError(.noSuchInterface, message: "\(text) (list interfaces with `framedump capture -D`)")
        case PCAP_ERROR_IFACE_NOT_UP:
            return CaptureError(.interfaceNotUp, message: text)
        default:
            return CaptureError(.activationFailed, message: text)
        }
    }

    /// Makes the current or next `next()` return `nil` (`pcap_breakloop`).
    ///
    /// Safe from any thread and from a signal handler: libpcap only sets a flag and, on Linux,
    /// writes to an eventfd that wakes the blocked `poll`. Signal handlers cannot reach `self`;
    /// give them an `Interrupter`.
    public func breakLoop() {
        pcap_breakloop(handle.pointer)
    }

    /// A value that stops this capture from another thread or a signal handler.
    ///
    /// It holds the bare `pcap_t` pointer, so it must not be used after the `LiveCapture` has
    /// been deinitialized: clear the global a signal handler reads before releasing the capture.
    public struct Interrupter: @unchecked Sendable {
        fileprivate let pointer: OpaquePointer

        /// Calls `pcap_breakloop`; async-signal-safe.
        public func breakLoop() { pcap_breakloop(pointer) }
    }

    /// An `Interrupter` for this capture, valid while the capture lives.
    public var interrupter: Interrupter { Interrupter(pointer: handle.pointer) }

    /// Packet counts since the capture was activated (`pcap_stats`).
    ///
    /// On Linux, `received` counts packets that passed the filter (including dropped ones)
    /// and `droppedByKernel` those the kernel ring buffer had no room for; the counters are
    /// 32-bit and wrap.
    public struct Statistics: Sendable, Hashable {
        /// Packets received by the filter (`ps_recv`).
        public var received: UInt32
        /// Packets dropped because the buffer was full (`ps_drop`).
        public var droppedByKernel: UInt32
        /// Packets dropped by the interface or driver (`ps_ifdrop`); 0 where not supported.
        public var droppedByInterface: UInt32
    }

    /// Reads the capture's packet counters (`pcap_stats`).
    ///
    /// - Returns: Counts since activation.
    /// - Throws: `CaptureError.Kind.queryFailed` with libpcap's message.
    public func statistics() throws -> Statistics {
        var stats = pcap_stat()
        guard pcap_stats(handle.pointer, &stats) == 0 else {
            throw CaptureError(.queryFailed, message: handle.lastError)
        }
        return Statistics(received: stats.ps_recv, droppedByKernel: stats.ps_drop,
                          droppedByInterface: stats.ps_ifdrop)
    }
}
