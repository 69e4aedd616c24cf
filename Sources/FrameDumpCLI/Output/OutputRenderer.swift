import FrameCodec
import PacketDecoding
import StreamFraming
import TLSDecryption
import WebSocketFraming

/// Renders what decoding produces, for every input alike (hex dump, capture, socket): frames
/// and events of any number of streams (each with its ``StreamLabel`` and the time of the input
/// that completed it), capture-level events, the `--summary` totals and the closing text.
///
/// Streams may carry several frame formats (each is detected on its own), so a renderer holds
/// one per-format renderer (``TextRenderer``, ``JSONLinesWriter``), registered with ``add(_:)``.
/// Implemented by ``JSONLinesOutputRenderer`` (JSON Lines) and ``TextOutputRenderer`` (people).
protocol OutputRenderer {
    /// Registers a frame format; returns the index to render its frames with.
    mutating func add(_ format: FrameFormat) -> Int

    /// Appends one frame or event of a stream.
    ///
    /// - Parameters:
    ///   - output: The decoder output.
    ///   - format: The stream's format, as returned by ``add(_:)``; `nil` for a stream given up
    ///     while no format was known (its outputs are `skip`s and `gap`s, which need none).
    ///   - label: The stream's connection, direction and endpoints; `nil` for an unlabelled
    ///     stream (a hex dump's).
    ///   - time: The time of the input that completed the output (capture or wall-clock time);
    ///     `nil` when unknown (a hex dump).
    mutating func render(_ output: FrameDecoderOutput, format: Int?, label: StreamLabel?, time: Timestamp?,
                         into buffer: inout [UInt8])

    /// Appends a limit being reached (a ``ReassemblyLimits`` bound, or `--max-buffered`), at
    /// capture time `time`, for the stream `label` names (for the connection limit: its client
    /// to server direction).
    mutating func renderLimit(_ limit: FramingLimit, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8])

    /// Appends what the TCP reassembler noticed in the stream `label` names, at capture time
    /// `time`: an ignored RST, a segment outside the stream, copies that differ, discarded bytes.
    mutating func renderNotice(_ notice: ReassemblyNotice, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8])

    /// Appends a packet that could not be decoded: its number in the capture (from 1), capture
    /// time, why, and the byte offset in the packet where decoding stopped.
    mutating func renderMalformedPacket(number: Int, time: Timestamp, reason: MalformedReason, offset: Int,
                                        into buffer: inout [UInt8])

    /// Appends an incomplete IP datagram that was given up.
    mutating func renderFragmentsDropped(_ drop: IPDefragmenter.Drop, time: Timestamp, into buffer: inout [UInt8])

    /// Appends, with `--summary`, the packets skipped because a layer in them is not decoded.
    mutating func renderUnsupported(_ counts: UnsupportedLayerCounts, into buffer: inout [UInt8])

    /// Appends an event of a connection's TLS layer (`--tls-keylog`), at capture time `time`,
    /// for the stream `label` names (the client's for ``TLSEvent/session(_:)``).
    mutating func renderTLS(_ event: TLSEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8])

    /// Appends an event of a connection's WebSocket layer (`--format websocket`): the handshake,
    /// a frame, a message, a violation or unread bytes, at capture time `time`, for the stream
    /// `label` names (the client's for the handshake).
    mutating func renderWebSocket(_ event: WebSocketEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8])

    /// Appends one connection's `--summary` totals.
    mutating func renderTotals(_ totals: ConnectionTotals, into buffer: inout [UInt8])

    /// Appends whatever closes the output (text: the line of overall counts).
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8])
}

