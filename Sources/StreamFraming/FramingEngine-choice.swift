import FrameCodec
import PacketDecoding

/// How a caller frames a connection's streams in place of the engine's format policy, when a
/// layer above the engine knows better than detection: a WebSocket connection whose binary
/// messages carry a given inner format, or one whose bytes the layer consumes itself.
public enum ConnectionFraming: Sendable, Equatable {
    /// Frame both streams with the format at this index of ``FramingEngine/formats`` (from
    /// ``FramingEngine/addFormat(_:)``).
    case format(Int)
    /// Frame nothing: the caller feeds the streams no data (a layer consumes their bytes), so
    /// the engine neither waits to detect a format nor holds their notices, gaps and ends —
    /// they are delivered as they come. Data given anyway is reported as `skip` outputs.
    case none
}

extension FramingEngine {
    /// Adds `format`, with the configured max frame length applied, to ``formats`` for
    /// ``frame(_:with:into:)``, unless the engine uses it already.
    ///
    /// Unlike a detected format it is not announced (no ``FramingEvent/formatDetected(_:stream:isNew:)``)
    /// and does not become the fallback for streams that fit no preset: the caller chose it for
    /// the connections it names.
    ///
    /// - Parameter format: The format.
    /// - Returns: Its index in ``formats``, and whether it was added now (a caller that renders
    ///   per format registers it then).
    public mutating func addFormat(_ format: FrameFormat) -> (index: Int, isNew: Bool) {
        let applied = configuration.applied(to: format)
        if let index = usedFormats.firstIndex(of: applied) { return (index, false) }
        return (register(applied), true)
    }

    /// Decides how both streams of `connection` are framed, in place of the format policy.
    ///
    /// A stream still undecided — holding its notices, gaps or first bytes, or waiting for a
    /// format from another stream — takes `framing` now, and what it held is replayed in order
    /// under it, each with its own input's time. A stream already decided (by the configured
    /// format, detection, or an earlier call), given up, or ended keeps what it has. A
    /// connection that is not open is ignored.
    ///
    /// - Parameters:
    ///   - connection: The open connection's number.
    ///   - framing: The format, or none.
    ///   - receiver: Receives the held inputs' outputs.
    /// - Throws: What `receiver` throws.
    public mutating func frame<R: FramingReceiver>(_ connection: Int, with framing: ConnectionFraming,
                                                   into receiver: inout R) throws where R.Context == Context {
        guard let pair = connections[connection] else { return }
        for stream in pair.streams where stream.decoder == nil && !stream.isSkipping && !stream.isFinished {
            if stream.isWaiting { stopWaiting(stream) }
            switch framing {
            case .format(let index):
                try replay(stream, with: index, &receiver, announcing: nil)
            case .none:
                stream.isSkipping = true
                try skipHeld(of: stream, &receiver)
            }
        }
        if holdsOutputs { try flushHeldOutputs(&receiver) }
    }

    /// ``frame(_:with:into:)`` with a closure.
    public mutating func frame(_ connection: Int, with framing: ConnectionFraming, _ emit: Emit) throws {
        try with(emit) { engine, receiver in try engine.frame(connection, with: framing, into: &receiver) }
    }

    /// Takes `stream` off the waiting list (linear in its length: only a stream that waited
    /// before its caller decided it is looked for).
    mutating func stopWaiting(_ stream: FramedStream<Context>) {
        guard let index = waiting[waitingHead...].firstIndex(where: { $0 === stream }) else { return }
        waiting.remove(at: index)
        waitingBytes -= stream.heldByteCount
        stream.isWaiting = false
    }
}
