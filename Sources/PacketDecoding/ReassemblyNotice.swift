/// Something a ``TCPReassembler`` found in one direction that is not stream data: segments it
/// did not take, bytes it would not deliver, copies that disagreed. Carried by
/// ``ReassemblyEvent/notice(_:connection:direction:)``.
///
/// ```
/// segments                                   notice
/// RST seq 200 while 100 is expected          resetIgnored(seq 200, expected 100)   connection goes on
/// 100 B at seq next + 2³¹                    outOfWindow(seq, expected, 100)
/// retransmission of [30,90), [40,70) differ  overlap(offset 40, length 30, kept: .earlier)
/// RST; [200,300) held behind hole [100,200)  discarded(offset 100, length 200, capturedBytes 100)
/// ```
public enum ReassemblyNotice: Sendable, Hashable {
    /// A RST whose sequence number is neither the next expected byte nor the peer's latest
    /// acknowledgment number: a receiver answers it with a challenge ACK and keeps the
    /// connection (RFC 5961 §3.2; Linux `tcp_validate_incoming`), and so does the reassembler.
    /// Its payload is counted in ``StreamStatistics/ignoredBytes``.
    ///
    /// - sequenceNumber: The RST's sequence number.
    /// - expected: The sequence number of the direction's next expected byte.
    case resetIgnored(sequenceNumber: UInt32, expected: UInt32)

    /// A segment whose bytes lie outside the stream: 2³¹ or more ahead of the next expected
    /// byte, or before the stream's first byte — serial number arithmetic cannot tell the two
    /// apart (RFC 1982 §3.2). Its `byteCount` payload bytes are counted in
    /// ``StreamStatistics/ignoredBytes``.
    ///
    /// - sequenceNumber: The segment's first payload byte's sequence number.
    /// - expected: The sequence number of the direction's next expected byte.
    /// - byteCount: Payload bytes dropped (captured and snaplen-cut).
    case outOfWindow(sequenceNumber: UInt32, expected: UInt32, byteCount: UInt64)

    /// Two captured copies of the same stream bytes differ. The ``OverlapPolicy`` chose `kept`;
    /// bytes already delivered are always kept (`.earlier`).
    ///
    /// - offset: Stream offset of the first byte that differs.
    /// - length: Bytes from it to the last byte that differs, inclusive.
    case overlap(offset: UInt64, length: UInt64, kept: OverlapCopy)

    /// Stream bytes behind a hole that no acknowledgment covered when the direction had to be
    /// flushed (RST, eviction, idle timeout, an out-of-order limit, the end of the capture): the
    /// receiver cannot have delivered them to its application (a stack delivers nothing past a
    /// hole), so they are not delivered either. Like a gap, they take their place in the stream
    /// (data, gap and discarded events tile it).
    ///
    /// - offset: Stream offset of the first byte not delivered (where the hole starts).
    /// - length: Bytes from there to the end of what the direction sent, as far as the capture
    ///   shows (holes included).
    /// - capturedBytes: Of those, the captured bytes thrown away (counted in
    ///   ``StreamStatistics/discardedBytes``).
    case discarded(offset: UInt64, length: UInt64, capturedBytes: UInt64)
}

extension ReassemblyNotice {
    /// Whether it is a ``discarded(offset:length:capturedBytes:)`` range, which takes its place
    /// in the stream like a gap.
    public var isDiscarded: Bool {
        if case .discarded = self { return true }
        return false
    }
}
