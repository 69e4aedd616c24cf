import FrameCodec
import PacketDecoding

/// Capture order across streams. A stream whose format is undecided holds its inputs; when it
/// is decided, its outputs come with the times of the inputs that completed them, but after
/// whatever other streams emitted meanwhile. So that outputs come in the order of the inputs
/// that completed them (as Wireshark lists PDUs by the packet that completes them), every input
/// has a sequence number, and while any stream holds inputs, the outputs of inputs numbered
/// after its first held one are held too ("held outputs"); a decided stream's replayed outputs
/// are merged in by their inputs' numbers, and what no holding stream precedes is emitted at
/// the end of each call.
///
/// ```
/// input 1: conn 1 s2c [4 bytes]      holds (undecided: fewer than the probe)   barrier 1
/// input 2: conn 2 c2s [frame]        frame held back (2 > 1)
/// input 3: conn 1 s2c [12 bytes]     decided: its frame (input 1) merged before input 2's
///                                    → emitted: conn 1 frame (1), conn 2 frame (2), …
/// ```
///
/// Without ``FramingConfiguration/ordersAcrossStreams`` no stream holds others back.
///
/// Memory: held outputs count their frames' bytes (copied out of the decoders' buffers) and
/// ``heldOutputOverhead`` each, against ``FramingConfiguration/maxUndecidedBytes``; beyond it
/// the stream holding longest is decided now from what it has, or given up if it waits for a
/// fallback format (with a ``FramingLimit/heldOutputsTotal`` limit event), until the held
/// outputs fit or none is held back.
extension FramingEngine {
    /// What one held output costs besides its frame's bytes.
    @usableFromInline static var heldOutputOverhead: Int { 64 }

    /// An output held back, with the sequence number of the input that completed it.
    @usableFromInline struct HeldOutput {
        @usableFromInline enum Kind {
            case output(FrameDecoderOutput)
            case event(FramingEvent<Context>)
        }

        @usableFromInline let sequence: UInt64
        @usableFromInline let time: Timestamp
        @usableFromInline let stream: FramedStream<Context>
        @usableFromInline let kind: Kind
        @usableFromInline let cost: Int

        @inlinable init(sequence: UInt64, time: Timestamp, stream: FramedStream<Context>, kind: Kind) {
            self.sequence = sequence
            self.time = time
            self.stream = stream
            switch kind {
            case .output(.frame(let frame)):
                // Owned bytes: a slice would keep the decoder's buffer shared, copying it on its next append.
                var owned = frame
                owned.bytes = ArraySlice(Array(frame.bytes))
                self.kind = .output(.frame(owned))
                cost = frame.bytes.count + FramingEngine.heldOutputOverhead
            default:
                self.kind = kind
                cost = FramingEngine.heldOutputOverhead
            }
        }
    }

    /// Whether outputs must be held back now: some are, or some stream holds inputs (an entry
    /// of ``barriers`` may be stale; it is dropped when it reaches the front).
    @inlinable var holdsOutputs: Bool {
        heldOutputsHead < heldOutputs.count || barrierHead < barriers.count
    }

    /// Emits a decoder output of `stream`, or holds it back.
    @inlinable
    mutating func deliver<R: FramingReceiver>(_ output: FrameDecoderOutput, from stream: FramedStream<Context>, _ receiver: inout R) throws
    where R.Context == Context {
        if let replaySequence {
            guard replayMerges else { return try receiver.receive(output, from: stream) }
            replayed.append(HeldOutput(sequence: replaySequence, time: stream.currentTime, stream: stream, kind: .output(output)))
        } else if holdsOutputs {
            appendHeld(HeldOutput(sequence: inputSequence, time: stream.currentTime, stream: stream, kind: .output(output)))
        } else {
            try receiver.receive(output, from: stream)
        }
    }

    /// Emits an event about `stream`, or holds it back.
    @inlinable
    mutating func deliver<R: FramingReceiver>(_ event: FramingEvent<Context>, about stream: FramedStream<Context>, _ receiver: inout R) throws
    where R.Context == Context {
        if let replaySequence {
            guard replayMerges else { return try receiver.receive(event) }
            replayed.append(HeldOutput(sequence: replaySequence, time: stream.currentTime, stream: stream, kind: .event(event)))
        } else if holdsOutputs {
            appendHeld(HeldOutput(sequence: inputSequence, time: stream.currentTime, stream: stream, kind: .event(event)))
        } else {
            try receiver.receive(event)
        }
    }

    @inlinable mutating func appendHeld(_ output: HeldOutput) {
        heldOutputs.append(output)
        heldOutputBytes += output.cost
    }

    /// Holds `input` of an undecided stream; its first makes the stream a barrier.
    @inlinable
    mutating func holdInput(_ input: FramedStream<Context>.HeldInput, of stream: FramedStream<Context>, at time: Timestamp) {
        if stream.firstHeldSequence == nil, configuration.ordersAcrossStreams {
            stream.firstHeldSequence = inputSequence
            barriers.append((stream, inputSequence))
        }
        stream.hold(input, at: time, sequence: inputSequence)
    }

    /// The stream gives back what it held: it no longer holds other streams' outputs back.
    @inlinable mutating func releaseHeld(of stream: FramedStream<Context>) {
        stream.held.removeAll()
        stream.heldByteCount = 0
        stream.firstHeldSequence = nil
        dropStaleBarriers()
    }

    /// Drops the front entries of ``barriers`` whose stream holds nothing since (or holds
    /// again from a later input, with its own newer entry).
    @inlinable mutating func dropStaleBarriers() {
        while barrierHead < barriers.count, barriers[barrierHead].stream.firstHeldSequence != barriers[barrierHead].sequence {
            barrierHead += 1
        }
        if barrierHead == barriers.count {
            barriers.removeAll(keepingCapacity: true)
            barrierHead = 0
        } else if barrierHead >= 64, barrierHead * 2 >= barriers.count {
            barriers.removeFirst(barrierHead)
            barrierHead = 0
        }
    }

    /// Starts replaying a stream's held inputs: its outputs are merged into the held ones when
    /// any are held or another stream still holds inputs, and emitted directly otherwise.
    @inlinable mutating func beginReplay() {
        replayMerges = holdsOutputs
    }

    /// Merges the replayed outputs into the held ones by their inputs' sequence numbers (a
    /// replayed output before a held one of the same number: the stream's own inputs came first).
    @inlinable mutating func endReplay() {
        replaySequence = nil
        guard !replayed.isEmpty else { return }
        for output in replayed { heldOutputBytes += output.cost }
        if heldOutputsHead == heldOutputs.count || replayed[0].sequence > heldOutputs[heldOutputs.count - 1].sequence {
            heldOutputs.append(contentsOf: replayed)
        } else {
            var merged: [HeldOutput] = []
            merged.reserveCapacity(heldOutputs.count - heldOutputsHead + replayed.count)
            var held = heldOutputsHead
            for output in replayed {
                while held < heldOutputs.count, heldOutputs[held].sequence < output.sequence {
                    merged.append(heldOutputs[held])
                    held += 1
                }
                merged.append(output)
            }
            merged.append(contentsOf: heldOutputs[held...])
            heldOutputs = merged
            heldOutputsHead = 0
        }
        replayed.removeAll(keepingCapacity: true)
    }

    /// Emits the held outputs no holding stream precedes (all of them when `all`), each with its
    /// own time; then, while the held outputs are over the budget, decides the stream holding
    /// longest and emits again.
    @inlinable
    mutating func flushHeldOutputs<R: FramingReceiver>(_ receiver: inout R, all: Bool = false) throws where R.Context == Context {
        while true {
            dropStaleBarriers()
            let barrier = all || barrierHead == barriers.count ? UInt64.max : barriers[barrierHead].sequence
            while heldOutputsHead < heldOutputs.count, heldOutputs[heldOutputsHead].sequence < barrier {
                let output = heldOutputs[heldOutputsHead]
                heldOutputsHead += 1
                heldOutputBytes -= output.cost
                let latest = output.stream.currentTime
                output.stream.currentTime = output.time
                switch output.kind {
                case .output(let decoded): try receiver.receive(decoded, from: output.stream)
                case .event(let event): try receiver.receive(event)
                }
                output.stream.currentTime = latest
            }
            if heldOutputsHead == heldOutputs.count {
                heldOutputs.removeAll(keepingCapacity: heldOutputs.capacity <= 4096)
                heldOutputsHead = 0
            }
            guard heldOutputBytes > configuration.maxUndecidedBytes, barrierHead < barriers.count else { return }
            try decideLongestHolding(&receiver)
        }
    }

    /// The held outputs are over the budget: the stream holding longest decides from what it
    /// has (or, waiting for a fallback format, is given up), after a limit event.
    @usableFromInline
    mutating func decideLongestHolding<R: FramingReceiver>(_ receiver: inout R) throws where R.Context == Context {
        let stream = barriers[barrierHead].stream
        try deliver(.limit(.heldOutputsTotal, stream: stream), about: stream, &receiver)
        if stream.isWaiting {
            while stream.isWaiting, waitingHead < waiting.count { try giveUpOldestWaiting(&receiver) }
        } else {
            // Replays what it held, or (no format fits, none to fall back on) makes it wait: then
            // the next round gives it up.
            try detect(stream, &receiver)
        }
    }
}
