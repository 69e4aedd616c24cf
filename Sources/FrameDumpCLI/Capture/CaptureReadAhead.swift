import PacketCapture
import PacketDecoding

/// Runs a ``CaptureSource`` on a second thread, so that reading, parsing and reassembling the
/// next packets overlaps with decoding, checksumming and rendering the last ones: `decode FILE`
/// on two cores.
///
/// ```
/// reading thread:   PcapReader → PacketParser → TCPReassembler ──events, data copied──> CaptureEventBatch ─┐
///                   (a mapped file's in-order data: pointers into the mapping, not copied)                 │
///                                                                                                          │ FIFO, at most
/// calling thread:   receive(event, time) → CaptureDecodePipeline → output  <──────── full batches ─────────┘ maxQueuedBatches
/// ```
///
/// One producer, one consumer, first in first out: `receive` gets exactly the events, times and
/// bytes, in exactly the order, that ``CaptureSource/run(limits:overlapPolicy:packetObserver:packetDone:_:)``
/// would give it, so the output is the same byte for byte. Memory stays bounded: at most
/// ``maxQueuedBatches`` full batches wait, plus the one being filled and the one being decoded
/// (each ≈ ``CaptureEventBatch/byteBudget``); a reader that gets ahead waits.
///
/// Not for live captures or pipes that flush per packet (`capture`, `decode -` from a pipe):
/// there a packet's frames must be written before the next read, which is the opposite.
enum CaptureReadAhead {
    /// Full batches that may wait for the decoding thread.
    static let maxQueuedBatches = 4
    /// A reader waiting on a full queue is woken once the decoder has taken it down to this
    /// many batches, and then fills several in a row: one wake-up (a futex call, and on an idle
    /// core an inter-processor interrupt) per few batches rather than one per batch.
    static let resumeAtQueuedBatches = 1

    /// Reads every packet of `source` on a new thread and calls `receive` on this one with each
    /// event, as ``CaptureSource/run(limits:overlapPolicy:packetObserver:packetDone:_:)`` does.
    ///
    /// - Returns: The packet counts (a read error is in `readError`, as there).
    /// - Throws: Whatever `receive` throws; the reading thread is stopped and waited for first.
    static func run(_ source: CaptureSource, limits: ReassemblyLimits, overlapPolicy: OverlapPolicy,
                    _ receive: (CaptureEvent, Timestamp) throws -> Void) throws -> CaptureStatistics {
        let handoff = Handoff(source: source, limits: limits, overlapPolicy: overlapPolicy)
        let thread = POSIXThread {
            var batch = CaptureEventBatch(persistent: handoff.persistent)
            let outcome = Result { () throws -> CaptureStatistics in
                try handoff.source.run(limits: handoff.limits, overlapPolicy: handoff.overlapPolicy) { event, time in
                    batch.append(event, at: time)
                    if batch.isFull { batch = try handoff.push(batch) }
                }
            }
            handoff.finish(lastBatch: batch, outcome)
        }
        defer { thread.join() }
        while var batch = handoff.next() {
            do {
                try batch.forEach(receive)
            } catch {
                handoff.cancel()
                throw error
            }
            batch.removeAll()
            handoff.recycle(batch)
        }
        return try handoff.outcome()
    }

    /// Thrown inside the reading thread to stop it once the decoding side has failed.
    private struct Cancelled: Error {}

    /// The queue between the two threads, and what the reading thread reads.
    ///
    /// `@unchecked Sendable`: every `var` is read and written with `condition` locked, and a
    /// batch belongs to one thread at a time (the reader fills it, the queue holds it, the
    /// decoder reads it, the queue holds it empty); the bytes in it are copies, shared with
    /// nothing, or point into the source's persistent bytes, which nothing writes. `source` is
    /// used by the reading thread only, once started.
    private final class Handoff: @unchecked Sendable {
        let source: CaptureSource
        let limits: ReassemblyLimits
        let overlapPolicy: OverlapPolicy
        /// The source's persistent bytes, which batches point into rather than copy.
        let persistent: UnsafeRawBufferPointer?
        private let condition = ConditionLock()
        private var full: [CaptureEventBatch] = []
        private var empty: [CaptureEventBatch] = []
        private var cancelled = false
        /// Which thread sleeps in `condition.wait()`: the other wakes it only then.
        private var readerWaits = false, decoderWaits = false
        /// Set when the reading thread ends: its statistics, or why it stopped.
        private var result: Result<CaptureStatistics, any Error>?

        init(source: CaptureSource, limits: ReassemblyLimits, overlapPolicy: OverlapPolicy) {
            self.source = source
            self.limits = limits
            self.overlapPolicy = overlapPolicy
            persistent = source.persistentBytes
        }

        /// Reading thread: queues `batch` (waiting while the queue is full) and returns an
        /// empty one to fill next.
        ///
        /// - Throws: ``Cancelled`` when the decoding side has stopped.
        func push(_ batch: CaptureEventBatch) throws -> CaptureEventBatch {
            condition.lock()
            defer { condition.unlock() }
            while full.count >= CaptureReadAhead.maxQueuedBatches, !cancelled {
                readerWaits = true
                condition.wait()
            }
            readerWaits = false
            if cancelled { throw Cancelled() }
            full.append(batch)
            if decoderWaits { condition.broadcast() }
            return empty.popLast() ?? CaptureEventBatch(persistent: persistent)
        }

        /// Reading thread: queues the last batch and how the reading ended.
        func finish(lastBatch: CaptureEventBatch, _ outcome: Result<CaptureStatistics, any Error>) {
            condition.lock()
            defer { condition.unlock() }
            if !cancelled { full.append(lastBatch) }
            result = outcome
            condition.broadcast()
        }

        /// Decoding thread: the next full batch, waiting for one; `nil` once the reading thread
        /// has ended and every batch was taken.
        func next() -> CaptureEventBatch? {
            condition.lock()
            defer { condition.unlock() }
            while full.isEmpty, result == nil {
                decoderWaits = true
                condition.wait()
            }
            decoderWaits = false
            guard !full.isEmpty else { return nil }
            let batch = full.removeFirst()
            if readerWaits, full.count <= CaptureReadAhead.resumeAtQueuedBatches { condition.broadcast() }
            return batch
        }

        /// Decoding thread: gives a decoded, emptied batch back for the reader to fill again.
        func recycle(_ batch: CaptureEventBatch) {
            condition.lock()
            defer { condition.unlock() }
            empty.append(batch)
        }

        /// Decoding thread: stops the reader and waits until it has ended.
        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            full.removeAll()
            condition.broadcast()
            while result == nil { condition.wait() }
        }

        /// Decoding thread, after ``next()`` returned `nil`: the reading's statistics.
        func outcome() throws -> CaptureStatistics {
            condition.lock()
            defer { condition.unlock() }
            return try result!.get()
        }
    }
}
