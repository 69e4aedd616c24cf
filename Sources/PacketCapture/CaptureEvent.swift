import PacketDecoding

/// What ``CaptureReassembly`` reports, in capture order.
///
/// The rare cases with large payloads are `indirect` (boxed), so that an event — almost always
/// `stream(.data)` — stays a few words long and is copied inline, not by a call to memmove.
public enum CaptureEvent {
    /// The source's link type is not one `PacketParser` decodes: sent once, before anything
    /// else. Its packets are counted in ``CaptureStatistics/unsupportedPackets`` and skipped.
    case unsupportedLinkType(LinkType)
    /// The process the first packet of `connection` names (PKTAP captures): sent just before
    /// that connection's `connectionOpened`.
    indirect case connectionProcess(connection: Int, process: PacketProcess)
    /// Connections, stream bytes, gaps, closes and limits from the TCP reassembler. A `data`
    /// event's bytes are valid only during the call that delivers it.
    case stream(ReassemblyEvent)
    /// A packet that could not be decoded down to TCP: its number in the capture (from 1), why,
    /// and the byte offset in the packet where decoding stopped.
    case malformedPacket(number: Int, reason: MalformedReason, offset: Int)
    /// An incomplete IP datagram given up (timeout, limit, end of capture): its bytes are lost
    /// and show up as a gap in their TCP stream.
    indirect case fragmentsDropped(IPDefragmenter.Drop)
    /// At the end of the capture, before the last connections close: the counters of each
    /// connection still tracked. For one that closed earlier they now include the segments that
    /// came after its close (the last ACK, late retransmissions), which its `connectionClosed`
    /// summary could not count.
    indirect case latestCounters(ConnectionSummary)
}
