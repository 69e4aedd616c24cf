/// What TCP reassembly found, in the order it found it: connections, in-order bytes, gaps,
/// closes, limits and notices.
///
/// Events are values for the caller to render or feed on; the reassembler prints nothing.
/// For each direction, the `data`, `gap` and `discarded` (a ``ReassemblyNotice``) events tile
/// the stream: they start at offset 0 and each one begins where the previous one ended, so every
/// byte the sender sent up to the last one seen is reported exactly once, as data, as a gap, or
/// as discarded.
///
/// ```
/// segments:  [0,100) [200,300) [100,150) …end of capture
/// events:    data 0+100 · data 100+50 · gap 150+50 · data 200+100
/// ```
public enum ReassemblyEvent {
    /// A connection was seen for the first time (or its 4-tuple was reused by a new SYN).
    ///
    /// - connection: Its number, 1, 2, 3… in order of first appearance; never reused.
    /// - client, server: The roles, decided as `roles` says.
    case connectionOpened(connection: Int, client: Endpoint, server: Endpoint, roles: RoleEvidence)

    /// In-order stream bytes.
    ///
    /// - offset: Absolute position in the direction's stream (bytes): 0 is the byte after the
    ///   ISN (RFC 9293 §3.4: the SYN occupies the ISN), or the first byte seen when the capture
    ///   began mid-connection.
    /// - bytes: Valid only during the callback (a view into the packet, or into the out-of-order
    ///   buffer); copy what must outlive it.
    case data(connection: Int, direction: StreamDirection, offset: UInt64, bytes: UnsafeRawBufferPointer)

    /// Bytes the sender sent that the capture does not hold; delivery continues after them.
    ///
    /// - offset: Stream offset of the first missing byte.
    /// - length: Number of missing bytes (≥ 1).
    case gap(connection: Int, direction: StreamDirection, offset: UInt64, length: UInt64, cause: GapCause)

    /// A direction ended: its FIN was reached in order, or the connection was reset.
    ///
    /// - offset: Stream offset of the end (the FIN's position, or where delivery stopped on RST).
    case directionClosed(connection: Int, direction: StreamDirection, offset: UInt64, reason: DirectionCloseReason)

    /// A connection ended; `summary` holds its final counters. Emitted once per connection.
    /// (The summaries are boxed, `indirect`: inline they would make every event, `data`
    /// included, as large as a summary, and each copy of one a call to memmove.)
    indirect case connectionClosed(summary: ConnectionSummary, reason: ConnectionCloseReason)

    /// A closed connection left the table (idle for ``ReassemblyLimits/idleTimeoutNanoseconds``,
    /// or dropped to make room): `summary` holds its counters including the segments that came
    /// after its close (the last ACK, late retransmissions), which `connectionClosed` could not
    /// count. Not emitted for connections still tracked when the capture ends.
    indirect case connectionForgotten(summary: ConnectionSummary)

    /// A ``ReassemblyLimits`` bound was reached for this connection (and direction, for the
    /// out-of-order limits). The gap or close events it caused follow.
    case limitHit(ReassemblyLimit, connection: Int, direction: StreamDirection?)

    /// Something found in one direction that is not stream data: an ignored RST, a segment
    /// outside the stream, copies that differ, bytes discarded behind a hole.
    case notice(ReassemblyNotice, connection: Int, direction: StreamDirection)
}

/// How a connection's client and server roles were decided.
public enum RoleEvidence: Sendable, Hashable, CustomStringConvertible {
    /// A pure SYN (SYN without ACK) was seen: its sender is the client (RFC 9293 §3.5).
    case syn
    /// A SYN-ACK was the first handshake segment seen: its sender is the server.
    case synAck
    /// No handshake in the capture: the sender of the first segment seen is the client.
    case firstPacket

    /// The evidence as `streams` shows it (`roles`): `syn`, `syn-ack` or `first-packet`.
    public var description: String {
        switch self {
        case .syn: "syn"
        case .synAck: "syn-ack"
        case .firstPacket: "first-packet"
        }
    }
}

/// Why bytes are missing from a stream.
public enum GapCause: Sendable, Hashable, CustomStringConvertible {
    /// Segments the sender sent never appeared in the capture (a hole that did not fill before
    /// the peer acknowledged past it, the direction ended, a limit was hit or the capture ended).
    case segmentsMissing
    /// The segment was captured but cut by the snaplen (`TCPSegment.missingPayloadLength`).
    case notCaptured

    /// A short name for output: `missing` or `snaplen`.
    public var description: String {
        switch self {
        case .segmentsMissing: "missing"
        case .notCaptured: "snaplen"
        }
    }
}

/// Why a direction ended.
public enum DirectionCloseReason: Sendable, Hashable, CustomStringConvertible {
    /// Its FIN was reached after all earlier bytes (RFC 9293 §3.6).
    case fin
    /// Either side sent RST (RFC 9293 §3.5.2).
    case reset

    /// A short name for output: `fin` or `rst`.
    public var description: String { self == .fin ? "fin" : "rst" }
}

/// Why a connection ended.
public enum ConnectionCloseReason: Sendable, Hashable, CustomStringConvertible {
    /// Both directions reached their FIN.
    case finished
    /// A RST ended it.
    case reset
    /// No segment for ``ReassemblyLimits/idleTimeoutNanoseconds`` of capture time.
    case idleTimeout
    /// Evicted to make room under ``ReassemblyLimits/maxConnections``.
    case evicted
    /// A new SYN reused its 4-tuple before it had closed.
    case replaced
    /// The capture ended (``TCPReassembler/finish(_:)``).
    case endOfCapture

    /// A short name for output (`fin`, `rst`, …).
    public var description: String {
        switch self {
        case .finished: "fin"
        case .reset: "rst"
        case .idleTimeout: "idle"
        case .evicted: "evicted"
        case .replaced: "replaced"
        case .endOfCapture: "end"
        }
    }
}
