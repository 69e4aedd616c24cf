/// CONTRACT — the value the packet parser produces and the reassembler consumes.

/// TCP header flags (RFC 9293 §3.1).
public struct TCPFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let fin = TCPFlags(rawValue: 0x01)
    public static let syn = TCPFlags(rawValue: 0x02)
    public static let rst = TCPFlags(rawValue: 0x04)
    public static let psh = TCPFlags(rawValue: 0x08)
    public static let ack = TCPFlags(rawValue: 0x10)
    public static let urg = TCPFlags(rawValue: 0x20)
    public static let ece = TCPFlags(rawValue: 0x40)
    public static let cwr = TCPFlags(rawValue: 0x80)
}

/// One TCP segment as captured: addresses, sequence numbers, flags and the payload bytes present.
///
/// `payload` is a view into the packet buffer, valid only while the parser's caller holds that
/// buffer (inside the callback that delivered it); copy what must outlive it.
public struct TCPSegment {
    public var source: Endpoint
    public var destination: Endpoint
    /// Sequence number of the first payload byte (of the SYN, when `flags` has `.syn`).
    public var sequenceNumber: UInt32
    public var acknowledgmentNumber: UInt32
    public var flags: TCPFlags
    public var window: UInt16
    /// The payload bytes that were captured.
    public var payload: UnsafeRawBufferPointer
    /// Payload bytes the IP length says were sent but the capture does not hold (cut by the
    /// snaplen). They follow `payload` in sequence space and become a gap in the stream.
    public var missingPayloadLength: Int

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

/// A capture timestamp: nanoseconds since the Unix epoch, UTC.
public struct Timestamp: Sendable, Hashable, Comparable {
    public var nanoseconds: Int64
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
