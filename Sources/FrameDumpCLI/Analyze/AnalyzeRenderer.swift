import FrameCodec
import PacketCapture
import PacketDecoding
import StreamFraming
import TLSDecryption
import WebSocketFraming

/// The ``OutputRenderer`` of `analyze`: hands every frame the framing engine makes to the
/// ``Analyzer`` instead of rendering it. Limits, malformed packets and dropped fragments are
/// counted by the ``DecodeSession`` (they make the capture not fully read); nothing is written.
struct AnalyzeRenderer: OutputRenderer {
    let analyzer: Analyzer

    mutating func add(_ format: FrameFormat) -> Int { analyzer.add(format) }

    mutating func render(_ output: FrameDecoderOutput, format: Int?, label: StreamLabel?, time: Timestamp?, into buffer: inout [UInt8]) {
        // A stream with no format (given up while none was known) has no frames to analyze.
        guard let format, let label, let time else { return }
        analyzer.receive(output, format: format, label: label, time: time)
    }

    mutating func renderLimit(_ limit: FramingLimit, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {}
    mutating func renderNotice(_ notice: ReassemblyNotice, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {}
    mutating func renderMalformedPacket(number: Int, time: Timestamp, reason: MalformedReason, offset: Int, into buffer: inout [UInt8]) {}
    mutating func renderFragmentsDropped(_ drop: IPDefragmenter.Drop, time: Timestamp, into buffer: inout [UInt8]) {}
    mutating func renderUnsupported(_ counts: UnsupportedLayerCounts, into buffer: inout [UInt8]) {}
    mutating func renderTotals(_ totals: ConnectionTotals, into buffer: inout [UInt8]) {}
    // analyze takes no TLS keys, so its session has no TLS layer.
    mutating func renderTLS(_ event: TLSEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {}
    mutating func renderWebSocket(_ event: WebSocketEvent, label: StreamLabel, time: Timestamp, into buffer: inout [UInt8]) {}
    mutating func finish(_ summary: DecodeSummary, into buffer: inout [UInt8]) {}
}
