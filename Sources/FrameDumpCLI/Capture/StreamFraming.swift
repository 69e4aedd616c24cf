import FrameCodec
import PacketDecoding

/// One direction of a connection as `decode` frames it: its decoder, its label, what it holds
/// while its format is being decided, and its totals.
///
/// A class, so the pipeline's tables and waiting list share one instance and the decoder's
/// buffer is mutated in place (never copied on write).
///
/// The state touched per data event and per frame opts out of the runtime's exclusivity checks
/// (`@exclusivity(unchecked)`): as class properties each access cost a `swift_beginAccess`
/// (≈ 1.3 M instructions, 3.5 % of the decoding thread on the 5.3 MB benchmark capture). No
/// overlapping access happens: only ``CaptureDecodePipeline`` (one thread) uses a direction, and
/// while the decoder is mutated (`step`) the frame callback reads the time, format, label and
/// totals, never the decoder.
final class DirectionFraming {
    /// Bytes `FrameFormat.detect` reads at most (the 12-byte h12 header): enough to decide.
    static let detectionProbeLength = 12

    /// One input held while the format is undecided, copied out of the packet.
    enum HeldInput {
        case data([UInt8])
        case gap(UInt64)
        case end
    }

    /// The stream's connection, direction and endpoints.
    let label: StreamLabel
    /// Capture time of the packet being processed: the time of what the decoder emits next.
    @exclusivity(unchecked) var time = Timestamp(nanoseconds: 0)
    /// The frame decoder, once the format is decided; `nil` before, and after the direction ended.
    @exclusivity(unchecked) var decoder: FrameDecoder?
    /// The format's index with the renderer.
    @exclusivity(unchecked) var formatIndex = 0
    /// The index of the format's `cmd` field, if any (for the `--summary` histogram).
    var commandField: Int?
    /// Inputs held until the format is decided, with the capture time of their packet.
    var held: [(input: HeldInput, time: Timestamp)] = []
    /// Data bytes in ``held``.
    var heldByteCount = 0
    /// Whether the held bytes fit no preset and wait for a format detected in another stream.
    var isWaiting = false
    /// Whether the direction ended and its decoder was released.
    private(set) var isFinished = false
    /// The decoder's ``FrameDecoder/bufferedByteCount`` when the pipeline last counted it, for
    /// the total over all directions (`--max-buffered`).
    @exclusivity(unchecked) var countedBufferedBytes = 0
    /// Links of the ``PartialFrameQueue``: the directions whose partial frames are older and newer.
    @exclusivity(unchecked) var olderPartial: DirectionFraming?
    @exclusivity(unchecked) var newerPartial: DirectionFraming?
    /// Whether the direction is in the ``PartialFrameQueue``.
    @exclusivity(unchecked) var isQueued = false
    /// The `--summary` counts, once the format is decided; `nil` without `--summary`.
    @exclusivity(unchecked) var totals: StreamTotals?

    init(label: StreamLabel) {
        self.label = label
    }

    /// `conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000`: the stream, as messages name it.
    var name: String { "conn \(label.connection) \(label.direction) \(label.sourceText) → \(label.destinationText)" }

    func hold(_ input: HeldInput, at time: Timestamp) {
        held.append((input, time))
        if case .data(let bytes) = input { heldByteCount += bytes.count }
    }

    /// The held data before the first held gap or end, up to ``detectionProbeLength`` bytes:
    /// what the format is detected from.
    var heldDataPrefix: [UInt8] {
        var prefix: [UInt8] = []
        for (input, _) in held {
            guard case .data(let bytes) = input else { break }
            prefix += bytes.prefix(Self.detectionProbeLength - prefix.count)
            if prefix.count == Self.detectionProbeLength { break }
        }
        return prefix
    }

    /// Frees the decoder once the direction has ended.
    func release() {
        decoder = nil
        isFinished = true
    }
}

/// Both directions of one connection as `decode` frames them.
final class ConnectionFraming {
    let number: Int
    let client: Endpoint
    let server: Endpoint
    /// Client to server, then server to client (indexed by `StreamDirection.rawValue`).
    let directions: [DirectionFraming]

    init(number: Int, client: Endpoint, server: Endpoint) {
        self.number = number
        self.client = client
        self.server = server
        let label = StreamLabel(connection: number, direction: .clientToServer, source: client, destination: server)
        directions = [DirectionFraming(label: label), DirectionFraming(label: label.reversed)]
    }

    /// The `--summary` totals of both directions.
    var totals: ConnectionTotals {
        ConnectionTotals(connection: number, client: client, server: server, directions: directions.map { $0.totals ?? StreamTotals() })
    }
}
