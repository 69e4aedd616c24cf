import PacketCapture
import PacketDecoding

/// Capture events copied out of their packets, in capture order: what the reading thread of
/// ``CaptureReadAhead`` hands the decoding thread.
///
/// A `data` event's bytes point into the packet being read, valid only during the call that
/// delivers them, so the batch copies them, back to back, into one byte array — unless they lie
/// in the source's persistent bytes (a mapped capture file, `PcapSource.persistentBytes`), which
/// outlive the batch: then it keeps the pointer. The other events are values and are kept as
/// they are.
struct CaptureEventBatch {
    /// Payload bytes after which the batch is handed over: small enough that the batches in
    /// flight (``CaptureReadAhead/maxQueuedBatches`` + 2) add about a MiB to the peak RSS and
    /// stay in the L2 cache, large enough that hand-offs (a lock and a wake-up each) are rare:
    /// one per ~180 Ethernet segments.
    static let byteBudget = 256 << 10
    /// Events after which the batch is handed over, whatever their bytes (gaps and closes carry none).
    static let entryBudget = 1024

    private enum Entry {
        /// Any event but stream data.
        case event(CaptureEvent, Timestamp)
        /// Stream data: its bytes are `bytes[start ..< start + count]`.
        case data(connection: Int, direction: StreamDirection, offset: UInt64, start: Int, count: Int, time: Timestamp)
        /// Stream data in the persistent bytes, not copied.
        case persistentData(connection: Int, direction: StreamDirection, offset: UInt64, bytes: UnsafeRawBufferPointer, time: Timestamp)
    }

    private var entries: [Entry] = []
    private var bytes: [UInt8] = []
    /// Bytes of the data events kept by pointer: they count towards ``byteBudget`` like copies,
    /// so that a batch covers as much of the capture either way.
    private var persistentByteCount = 0
    /// The source's persistent bytes, as addresses; empty when it has none.
    private let persistent: Range<UInt>

    /// - Parameter persistent: Memory that outlives the batch (`PcapSource.persistentBytes`):
    ///   data events inside it are kept by pointer; `nil`: every data event is copied.
    init(persistent: UnsafeRawBufferPointer?) {
        if let persistent, let base = persistent.baseAddress {
            let start = UInt(bitPattern: base)
            self.persistent = start..<start + UInt(persistent.count)
        } else {
            self.persistent = 0..<0
        }
        // Room for a full batch and one more segment of 64 KiB, so that filling it does not double it.
        bytes.reserveCapacity(Self.byteBudget + 64 << 10)
        entries.reserveCapacity(Self.entryBudget)
    }

    /// Whether the batch should be handed over now.
    var isFull: Bool { bytes.count + persistentByteCount >= Self.byteBudget || entries.count >= Self.entryBudget }

    /// Adds an event, copying a `data` event's bytes unless they are persistent.
    mutating func append(_ event: CaptureEvent, at time: Timestamp) {
        if case .stream(.data(let connection, let direction, let offset, let payload)) = event {
            let start = UInt(bitPattern: payload.baseAddress)
            if start >= persistent.lowerBound, start + UInt(payload.count) <= persistent.upperBound {
                entries.append(.persistentData(connection: connection, direction: direction, offset: offset, bytes: payload, time: time))
                persistentByteCount += payload.count
                return
            }
            entries.append(.data(connection: connection, direction: direction, offset: offset, start: bytes.count,
                                 count: payload.count, time: time))
            bytes.append(contentsOf: payload)
        } else {
            entries.append(.event(event, time))
        }
    }

    /// Calls `body` with each event in order, `data` events pointing into the batch's copy.
    ///
    /// - Throws: What `body` throws, which stops the walk.
    ///
    /// `throws`, not `rethrows`: with `rethrows`, Swift 6.3.1 (at -O and -Onone alike) lost the
    /// error `body` threw from inside this `withUnsafeBytes` closure — the walk went on, and the
    /// process later crashed — so `decode FILE | head` decoded to the end. The end-to-end test
    /// `closedPipeOnACaptureEndsQuietly` guards it.
    func forEach(_ body: (CaptureEvent, Timestamp) throws -> Void) throws {
        try bytes.withUnsafeBytes { copied in
            for entry in entries {
                switch entry {
                case .event(let event, let time):
                    try body(event, time)
                case .data(let connection, let direction, let offset, let start, let count, let time):
                    let payload = UnsafeRawBufferPointer(rebasing: copied[start..<start + count])
                    try body(.stream(.data(connection: connection, direction: direction, offset: offset, bytes: payload)), time)
                case .persistentData(let connection, let direction, let offset, let payload, let time):
                    try body(.stream(.data(connection: connection, direction: direction, offset: offset, bytes: payload)), time)
                }
            }
        }
    }

    /// Empties the batch for reuse, keeping its capacity.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        persistentByteCount = 0
    }
}
