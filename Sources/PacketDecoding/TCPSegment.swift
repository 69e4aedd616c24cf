/// One TCP segment as captured: addresses, sequence numbers, flags and the payload bytes present.
///
/// The packet parser produces it (link layer, IPv4/IPv6, TCP header: RFC 9293 §3.1) and the
/// reassembler consumes it. Numbers are in host order, already converted from the header's
/// network byte order.
///
/// `payload` is a view into the packet buffer, valid only while the parser's caller holds that
/// buffer (inside the callback that delivered it); copy what must outlive it.
public struct TCPSegment {
    /// The sender's address and port.
    public var source: Endpoint
    /// The receiver's address and port.
    public var destination: Endpoint
    /// Sequence number of the first payload byte (of the SYN, when `flags` has `.syn`).
    public var sequenceNumber: UInt32
    /// The next sequence number the sender expects from the other side; meaningful only when
    /// `flags` has `.ack`.
    public var acknowledgmentNumber: UInt32
    /// The header's flags.
    public var flags: TCPFlags
    /// The receive window, in bytes, unscaled (the window scale option is not applied).
    public var window: UInt16
    /// The payload bytes that were captured.
    public var payload: UnsafeRawBufferPointer
    /// Payload bytes the IP length says were sent but the capture does not hold (cut by the
    /// snaplen). They follow `payload` in sequence space and become a gap in the stream.
    public var missingPayloadLength: Int

    /// A segment with every field given; the parser's output, or a test's input.
    ///
    /// - Parameters:
    ///   - source: The sender's address and port.
    ///   - destination: The receiver's address and port.
    ///   - sequenceNumber: Sequence number of the first payload byte (of the SYN, with `.syn`).
    ///   - acknowledgmentNumber: The acknowledgment number (meaningful with `.ack`).
    ///   - flags: The header's flags.
    ///   - window: The unscaled receive window, in bytes.
    ///   - payload: The captured payload; must stay valid for as long as the value is used.
    ///   - missingPayloadLength: Payload bytes sent but not captured, in bytes (0 when none).
    public init(source: Endpoint, destination: Endpoint, sequenceNumber: UInt32, acknowledgmentNumber: UInt32,
                flags: TCPFlags, window: UInt16, payload: UnsafeRawBufferPointer, missingPayloadLength: Int) {
        self.source = source
        self.destination = destination
        self.sequenceNumber = sequenceNumber
        self.acknowledgmentNumber = acknowledgmentNumber
        self.flags = flags
        self.window = window
        self.payload = payload
        self.missingPayloadLength = missingPayloadLength
    }
}
