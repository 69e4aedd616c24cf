import FrameCodec
import PacketDecoding
import WebSocketFraming

/// What one direction's frame decoder produced: the counts `decode --summary` prints.
///
/// A class, made only with `--summary`: without it a direction carries one empty reference
/// instead of these fields (about 200 bytes a direction, at 100,000 connections 40 MB).
final class StreamTotals {
    /// The direction's frame format, `nil` when it carried no data to decide one.
    var format: FrameFormat? {
        didSet { commandField = format?.fields.firstIndex { $0.name == "cmd" } }
    }
    /// The index of the format's `cmd` field, if it has one.
    private var commandField: Int?
    /// Frames, checksum mismatches, skips, oversize headers, truncated tails and gaps.
    var counts = DecodeSummary()
    /// Bytes in whole frames, headers included.
    var frameBytes: UInt64 = 0
    /// How many frames carried each value of the format's `cmd` header field; empty when the
    /// format has no field of that name.
    var commands: [UInt64: Int] = [:]
    /// The WebSocket layer's counts for the direction, `nil` when it had none.
    var webSocket: WebSocketTotals?

    /// Totals of a direction decoded as `format` (`nil`: not decided, no data).
    init(format: FrameFormat? = nil) {
        self.format = format
        commandField = format?.fields.firstIndex { $0.name == "cmd" }
    }

    /// Adds one decoder output.
    func count(_ output: FrameDecoderOutput) {
        counts.count(output)
        guard case .frame(let frame) = output else { return }
        frameBytes &+= UInt64(frame.length)
        if let commandField, let format {
            commands[format.value(ofField: commandField, in: frame.header), default: 0] += 1
        }
    }

    /// Adds one of the WebSocket layer's events about the direction (`direction`).
    func count(_ event: WebSocketEvent, of direction: StreamDirection) {
        var layer = webSocket ?? WebSocketTotals()
        layer.count(event, of: direction)
        webSocket = layer
    }

    /// `(value, frames)` pairs of ``commands``, by value.
    var commandHistogram: [(value: UInt64, frames: Int)] {
        commands.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
