import FrameCodec
import TestSupport
import PacketDecoding
import Testing
@testable import StreamFraming

/// The engine fed directly: format policy, chunking, gaps, ends, closes and the partial-frame
/// budget. Each scenario whose outputs should not depend on how the bytes were cut is fed whole,
/// a byte at a time and in seeded random chunks (swift-nio's verifier idea).
@Suite struct FramingEngineTests {
    /// Cuts `bytes` three ways: whole, one byte at a time, random chunks of 1…64 bytes.
    static func chunkings(_ bytes: [UInt8], seed: UInt64 = 7) -> [[[UInt8]]] {
        var random = FuzzRandom(seed: seed)
        var chunks: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int(random.next() % 64) + 1)
            chunks.append(Array(bytes[start..<end]))
            start = end
        }
        return [[bytes], bytes.map { [$0] }, chunks]
    }

    @Test func givenFormatOutputsDoNotDependOnChunking() throws {
        let bytes = h12Frames(30) + [0x00, 0x01, 0x02] + h12Frames(5) + [0x55, 0xAA, 0x01]
        var results: [[Recorded]] = []
        for chunks in Self.chunkings(bytes) {
            var recorder = FramingRecorder(FramingConfiguration(format: .h12))
            recorder.open(1)
            for chunk in chunks { try recorder.receive(chunk, 1) }
            try recorder.finish()
            results.append(recorder.outputs.map { var event = $0; event.time = 0; return event })
        }
        #expect(results[0].filter { $0.kind == "frame" }.count == 35)
        #expect(results[0].map(\.kind).filter { $0 != "frame" } == ["skip", "truncated"])
        #expect(results[1] == results[0])
        #expect(results[2] == results[0])
        // Every byte is in exactly one output, back to back from 0.
        var next: UInt64 = 0
        for output in results[0] {
            #expect(output.offset == next)
            next += output.byteCount
        }
        #expect(next == UInt64(bytes.count))
    }

    @Test func eachStreamDetectsItsOwnFormat() throws {
        var recorder = FramingRecorder(FramingConfiguration())
        recorder.open(1)
        recorder.open(2)
        let h12 = h12Frames(3), fefd = fefdFrames(4)
        for chunk in Self.chunkings(h12)[1] { try recorder.receive(chunk, 1) }
        try recorder.receive(fefd, 2, .serverToClient)
        try recorder.receive(h12, 2)
        try recorder.finish()
        let detections = recorder.events.filter { $0.kind.hasPrefix("detected") }.map { "\($0.connection)/\($0.direction) \($0.kind)" }
        #expect(detections == ["1/c2s detected h12 new", "2/s2c detected fefd new", "2/c2s detected h12"])
        #expect(recorder.engine.formats.map(\.name) == ["h12", "fefd"])
        #expect(recorder.outputs.filter { $0.kind == "frame" }.count == 3 + 4 + 3)
        #expect(recorder.outputs.allSatisfy { $0.kind == "frame" })
    }

    /// Detection copies at most the probe window of a large first chunk; the rest is framed in place.
    @Test func detectionHoldsAtMostItsWindow() throws {
        let bytes = h12Frames(1000, bodySize: 1000)
        var recorder = FramingRecorder(FramingConfiguration())
        recorder.open(1)
        try recorder.receive(Array(bytes.prefix(5)), 1)
        #expect(recorder.engine.stream(StreamKey(connection: 1, direction: .clientToServer))!.heldByteCount == 5)
        try recorder.receive(Array(bytes.dropFirst(5)), 1)
        #expect(recorder.engine.stream(StreamKey(connection: 1, direction: .clientToServer))!.held.isEmpty)
        try recorder.finish()
        #expect(recorder.outputs.count == 1000 && recorder.outputs.allSatisfy { $0.kind == "frame" })
    }

    /// A stream that starts mid-frame waits for a format found elsewhere, then is decoded with
    /// it, each output carrying the time of the input that completed it (the decoder reports a
    /// skip once it has found the next whole frame), and in input order: its outputs, completed
    /// by inputs at t200, come before the other stream's at t300 (only the new format's
    /// detection is said at once, so that it is known before anything uses it).
    @Test func aStreamThatFitsNoPresetFallsBackToTheFirstDetected() throws {
        var recorder = FramingRecorder(FramingConfiguration())
        recorder.open(1)
        recorder.open(2)
        let frames = h12Frames(2)
        try recorder.receive([0x01, 0x02, 0x03] + Array(frames.prefix(20)), 1, at: 100)
        try recorder.receive(Array(frames.dropFirst(20)), 1, at: 200)
        #expect(recorder.outputs.isEmpty)
        try recorder.receive(frames, 2, at: 300)
        let kinds = recorder.events.map { "\($0.connection) \($0.kind) t\($0.time)" }
        #expect(kinds == [
            "2 detected h12 new t300",
            "1 assumed t200", "1 skip t200", "1 frame t200", "1 frame t200",
            "2 frame t300", "2 frame t300",
        ])
        #expect(recorder.engine.assumedStreams == 1)
    }

    /// A connection whose bytes a layer consumes frames nothing: what its streams held while
    /// undecided (notices, a discarded range that put one on the waiting list) comes out at
    /// once, later notices as they come, data given anyway as skips; and the run does not fail
    /// for want of a format.
    @Test func aConnectionFramedWithNoneDeliversItsNoticesAsTheyCome() throws {
        var recorder = FramingRecorder(FramingConfiguration())
        recorder.open(1)
        try recorder.notice(.resetIgnored(sequenceNumber: 7, expected: 1), 1, .serverToClient, at: 10)
        try recorder.notice(.discarded(offset: 0, length: 40, capturedBytes: 40), 1, at: 20)
        #expect(recorder.events.isEmpty)
        #expect(recorder.engine.stream(StreamKey(connection: 1, direction: .clientToServer))!.isWaiting)
        try recorder.frame(1, with: .none)
        try recorder.notice(.resetIgnored(sequenceNumber: 9, expected: 1), 1, .serverToClient, at: 30)
        try recorder.receive([1, 2, 3], 1, at: 40)
        try recorder.finish()
        #expect(recorder.events.map { "\($0.direction) \($0.kind)@\($0.offset)+\($0.byteCount) t\($0.time)" } == [
            "s2c notice resetIgnored(sequenceNumber: 7, expected: 1)@0+0 t10", "c2s discarded@0+40 t20",
            "s2c notice resetIgnored(sequenceNumber: 9, expected: 1)@0+0 t30", "c2s skip@40+3 t40", "c2s closed@0+0 t40",
        ])
        #expect(recorder.engine.formats.isEmpty && recorder.engine.skippedStreams == 0)
    }

    /// A connection framed with a format its caller chose (not detected, not the fallback):
    /// what it held is replayed under it; other streams go on detecting, and the chosen format is
    /// not assumed for a stream that fits no preset.
    @Test func aConnectionFramedWithAChosenFormatReplaysWhatItHeld() throws {
        var recorder = FramingRecorder(FramingConfiguration())
        recorder.open(1)
        recorder.open(2)
        let frames = h12Frames(3)
        try recorder.receive(Array(frames.prefix(5)), 1, at: 10)
        let (index, isNew) = recorder.engine.addFormat(.h12)
        #expect(index == 0 && isNew)
        #expect(recorder.engine.addFormat(.h12) == (0, false))
        try recorder.frame(1, with: .format(index))
        try recorder.receive(Array(frames.dropFirst(5)), 1, at: 20)
        try recorder.receive(Array("hello, world".utf8), 2)
        #expect(recorder.outputs.map(\.kind) == ["frame", "frame", "frame"])
        #expect(!recorder.events.contains { $0.kind.hasPrefix("detected") })
        #expect(throws: FormatDetectionError.self) { try recorder.finish() }
    }

    @Test func noFormatAtTheEndIsAnEventThenAnError() throws {
        var recorder = FramingRecorder(FramingConfiguration())
        recorder.open(1)
        try recorder.receive(Array("hello, world".utf8), 1)
        #expect(throws: FormatDetectionError.self) { try recorder.finish() }
        // The open connection is closed first; then the stream that waited has no fallback.
        #expect(recorder.events.map(\.kind) == ["closed", "undetectable"])
        #expect(recorder.events[1].byteCount == 12)
    }

    @Test func undecidedBytesAreBoundedWithoutCopyingWhatIsOver() throws {
        var recorder = FramingRecorder(FramingConfiguration(maxUndecidedBytes: 100))
        recorder.open(1)
        try recorder.receive(Array(repeating: 0x41, count: 50), 1)
        // Over the budget: the stream is given up, what it held and the new input are skips, nothing is copied.
        try recorder.receive(Array(repeating: 0x41, count: 1 << 20), 1)
        let stream = recorder.engine.stream(StreamKey(connection: 1, direction: .clientToServer))!
        #expect(stream.heldByteCount == 0)
        #expect(recorder.outputs.map { "\($0.kind)@\($0.offset)+\($0.byteCount)" } == ["skip@0+50", "skip@50+\(1 << 20)"])
        #expect(recorder.engine.skippedStreams == 1)
    }

    @Test func givenUpStreamsLetDetectionGoOnInBoundedMemory() throws {
        var recorder = FramingRecorder(FramingConfiguration(maxUndecidedBytes: 100))
        for connection in 1...5 {
            recorder.open(connection)
            try recorder.receive(Array(repeating: 0x41, count: 40), connection)
        }
        #expect(recorder.engine.skippedStreams == 3, "200 bytes waiting over a 100-byte budget: the 3 oldest are given up")
        recorder.open(6)
        try recorder.receive(h12Frames(2), 6)
        // After the format is found: nothing waits, so nothing is held back behind a waiting stream.
        try recorder.gap(10, 1)
        try recorder.receive(Array(repeating: 0x42, count: 5), 1)
        try recorder.finish()
        let first = recorder.outputs.filter { $0.connection == 1 }.map { "\($0.kind)@\($0.offset)+\($0.byteCount)" }
        #expect(first == ["skip@0+40", "gap@40+10", "skip@50+5"], "a given-up stream stays skipped, offsets continue")
        #expect(recorder.outputs.filter { $0.connection == 6 }.map(\.kind) == ["frame", "frame"])
        #expect(recorder.outputs.filter { $0.connection == 5 }.map(\.kind) == ["skip"], "still waiting: decoded with the format found")
        #expect(recorder.events.contains { $0.connection == 5 && $0.kind == "assumed" })
    }

    @Test func aGapTruncatesThePartialFrameAndResyncs() throws {
        let frames = h12Frames(3)
        var recorder = FramingRecorder(FramingConfiguration(format: .h12))
        recorder.open(1)
        try recorder.receive(Array(frames.prefix(30)), 1)
        try recorder.gap(40, 1)
        try recorder.receive(frames, 1)
        try recorder.end(1)
        let outputs = recorder.outputs.map { "\($0.kind)@\($0.offset)+\($0.byteCount)" }
        // Frames of 12-byte headers and 9-, 10- and 11-byte bodies.
        #expect(outputs == ["frame@0+21", "truncated@21+9", "gap@30+40", "frame@70+21", "frame@91+22", "frame@113+23"])
    }

    @Test func endAndCloseReportUnfinishedTails() throws {
        var recorder = FramingRecorder(FramingConfiguration(format: .h12))
        recorder.open(1)
        try recorder.receive([0x55, 0xAA, 0x01], 1)
        try recorder.receive([0x55, 0xAA], 1, .serverToClient)
        try recorder.end(1)
        try recorder.receive([0x55], 1)  // after the end: ignored
        try recorder.close(1)
        try recorder.receive([0x55], 1, .serverToClient)  // after the close: ignored
        #expect(recorder.events.map { "\($0.direction) \($0.kind)@\($0.offset)+\($0.byteCount)" } == [
            "c2s truncated@0+3", "s2c truncated@0+2", "c2s closed@0+0",
        ])
        #expect(recorder.engine.openConnectionCount == 0)
        #expect(recorder.engine.bufferedBytes == 0)
    }

    /// Past the budget, the partial frame that has waited longest is given up first.
    @Test func thePartialFrameBudgetGivesUpTheOldest() throws {
        let big = try FrameEncoder(format: .h12).encode(body: Array(repeating: 7, count: 1000))
        var recorder = FramingRecorder(FramingConfiguration(format: .h12, maxBufferedBytes: 1500))
        for connection in 1...3 { recorder.open(connection) }
        try recorder.receive(Array(big.prefix(600)), 1, at: 1)
        try recorder.receive(Array(big.prefix(600)), 2, at: 2)
        #expect(recorder.engine.bufferedBytes == 1200)
        try recorder.receive(Array(big.prefix(600)), 3, at: 3)
        #expect(recorder.events.map { "\($0.connection) \($0.kind)@\($0.offset)+\($0.byteCount) t\($0.time)" } == [
            "1 limit bufferedBytesTotal@0+0 t3", "1 truncated@0+600 t3",
        ])
        #expect(recorder.engine.bufferedBytes == 1200)
        // Connection 1 resyncs: the rest of its frame is skipped, the next frame is whole.
        try recorder.receive(Array(big.dropFirst(600)) + big, 1, at: 4)
        #expect(recorder.outputs.suffix(2).map { "\($0.kind)@\($0.offset)+\($0.byteCount)" } == ["skip@600+412", "frame@1012+1012"])
    }

    @Test func theAdapterFramesReassemblerEvents() throws {
        let client = Endpoint(address: .v4(0x7F00_0001), port: 40000), server = Endpoint(address: .v4(0x7F00_0001), port: 9000)
        let frames = h12Frames(4)
        var recorder = FramingRecorder(FramingConfiguration())
        try recorder.consume(.connectionOpened(connection: 1, client: client, server: server, roles: .syn), at: 1)
        try frames.withUnsafeBytes { raw in
            var events: [Recorded] = []
            try recorder.engine.consume(.data(connection: 1, direction: .clientToServer, offset: 0, bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(30))),
                                        at: Timestamp(nanoseconds: 2), contexts: { _, _, _ in ("", "") }) { events.append(FramingRecorder.record($0)) }
            #expect(events.map(\.kind) == ["detected h12 new", "frame"])
        }
        try recorder.consume(.gap(connection: 1, direction: .clientToServer, offset: 30, length: 5, cause: .segmentsMissing), at: 3)
        try recorder.consume(.limitHit(.outOfOrderBytesPerDirection, connection: 1, direction: .serverToClient), at: 4)
        try recorder.consume(.directionClosed(connection: 1, direction: .clientToServer, offset: 35, reason: .fin), at: 5)
        #expect(recorder.events.map { "\($0.direction) \($0.kind) t\($0.time)" } == [
            "c2s truncated t3", "c2s gap t3", "s2c limit reassembly(out_of_order_bytes_per_direction) t4",
        ])
        try recorder.finish()
        #expect(recorder.events.last?.kind == "closed")
    }
}


/// An error thrown by the receiver at any event comes out of the engine's call, through the
/// closure form and the receiver form alike (Swift 6.3.1 lost errors thrown from closures that
/// build multi-payload enum cases inside `rethrows` functions: docs/performance.md).
@Suite struct FramingEngineErrorTests {
    struct Stop: Error, Equatable {}

    /// Throws at its `failAt`-th event (counting from 0); counts the events it saw.
    struct FailingReceiver: FramingReceiver {
        var failAt: Int
        var seen = 0

        mutating func receive(_ output: FrameDecoderOutput, from stream: FramedStream<Int>) throws { try count() }
        mutating func receive(_ event: FramingEvent<Int>) throws { try count() }

        private mutating func count() throws {
            defer { seen += 1 }
            if seen == failAt { throw Stop() }
        }
    }

    /// Detection, frames, a skip, a gap, the partial-frame limit, truncated tails, a close and
    /// the end: each step's events go to `receiver`; returns how many steps threw.
    static func run(_ receiver: inout FailingReceiver, closures: Bool) -> Int {
        var engine = FramingEngine<Int>(configuration: FramingConfiguration(maxBufferedBytes: 300))
        engine.openConnection(1, client: 1, server: 2)
        engine.openConnection(2, client: 3, server: 4)
        let frames = h12Frames(4)
        let partial = try! FrameEncoder(format: .h12).encode(body: Array(repeating: 1, count: 300))
        let c2s = StreamKey(connection: 1, direction: .clientToServer), s2c = StreamKey(connection: 1, direction: .serverToClient)
        let other = StreamKey(connection: 2, direction: .clientToServer), otherBack = StreamKey(connection: 2, direction: .serverToClient)
        let time = Timestamp(nanoseconds: 1)
        var thrown = 0
        func step(_ body: (inout FramingEngine<Int>, inout FailingReceiver) throws -> Void) {
            do {
                try body(&engine, &receiver)
            } catch is Stop {
                thrown += 1
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        // With `closures`, each call goes through the closure form, the closure forwarding to the receiver.
        func call(_ engine: inout FramingEngine<Int>, _ receiver: inout FailingReceiver,
                  _ viaClosure: (inout FramingEngine<Int>, FramingEngine<Int>.Emit) throws -> Void,
                  _ viaReceiver: (inout FramingEngine<Int>, inout FailingReceiver) throws -> Void) throws {
            if closures {
                var forwarded = receiver
                defer { receiver = forwarded }
                try viaClosure(&engine) { event in
                    if case .output(let output, let stream) = event {
                        try forwarded.receive(output, from: stream)
                    } else {
                        try forwarded.receive(event)
                    }
                }
            } else {
                try viaReceiver(&engine, &receiver)
            }
        }
        func bytes(_ data: [UInt8], _ key: StreamKey) {
            step { engine, receiver in
                try data.withUnsafeBytes { raw in
                    try call(&engine, &receiver, { try $0.receive(raw, on: key, at: time, $1) }, { try $0.receive(raw, on: key, at: time, into: &$1) })
                }
            }
        }
        bytes(frames, c2s)
        bytes([0, 1, 2] + frames, s2c)
        bytes(Array(partial.prefix(200)), other)
        step { try call(&$0, &$1, { try $0.noteGap(byteCount: 5, on: c2s, at: time, $1) }, { try $0.noteGap(byteCount: 5, on: c2s, at: time, into: &$1) }) }
        bytes(Array(partial.prefix(200)), otherBack)
        step { try call(&$0, &$1, { try $0.endStream(c2s, at: time, $1) }, { try $0.endStream(c2s, at: time, into: &$1) }) }
        step { try call(&$0, &$1, { try $0.closeConnection(1, at: time, $1) }, { try $0.closeConnection(1, at: time, into: &$1) }) }
        step { try call(&$0, &$1, { try $0.finish(at: time, $1) }, { try $0.finish(at: time, into: &$1) }) }
        return thrown
    }

    @Test(arguments: [false, true])
    func anErrorAtAnyEventComesOut(closures: Bool) {
        var counting = FailingReceiver(failAt: .max)
        #expect(Self.run(&counting, closures: closures) == 0)
        let total = counting.seen
        #expect(total >= 15)
        for failAt in 0..<total {
            var receiver = FailingReceiver(failAt: failAt)
            let thrown = Self.run(&receiver, closures: closures)
            #expect(thrown == 1, "failing at event \(failAt) of \(total)")
        }
    }

    // MARK: Input order across streams

    /// MQTT frames can be shorter than the detection probe: a stream whose first frame is a
    /// 4-byte CONNACK holds it until more bytes come, while another connection's frames are
    /// decoded. Its CONNACK is still emitted before them, since the input that completed it
    /// came first; each output in the order of the inputs (numbered here by their times).
    @Test func outputsComeInTheOrderOfTheInputsThatCompletedThem() throws {
        var recorder = FramingRecorder(FramingConfiguration())
        let connect: [UInt8] = [0x10, 0x0E, 0x00, 0x04] + Array("MQTT".utf8) + [0x04, 0x02, 0x00, 0x3C, 0x00, 0x02] + Array("c1".utf8)
        let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
        let puback: [UInt8] = [0x40, 0x02, 0x00, 0x01]
        recorder.open(1)
        recorder.open(2)
        try recorder.receive(connect, 1, at: 1)
        try recorder.receive(connack, 1, .serverToClient, at: 2)  // 4 bytes: held, undecided
        try recorder.receive(connect, 2, at: 3)
        try recorder.receive(connect, 2, at: 4)
        try recorder.receive(puback + puback, 1, .serverToClient, at: 5)  // 12 bytes: decided
        let frames = recorder.events.filter { $0.kind == "frame" }.map { "\($0.connection)/\($0.direction) t\($0.time)" }
        #expect(frames == ["1/c2s t1", "1/s2c t2", "2/c2s t3", "2/c2s t4", "1/s2c t5", "1/s2c t5"])
        #expect(recorder.engine.heldOutputs.count == recorder.engine.heldOutputsHead, "nothing is held back once no stream holds")
    }

    /// Without ``FramingConfiguration/ordersAcrossStreams`` (live input) each output comes as
    /// soon as it is known: the held CONNACK after the other connection's frames.
    @Test func liveInputEmitsEachOutputAtOnce() throws {
        var configuration = FramingConfiguration()
        configuration.ordersAcrossStreams = false
        var recorder = FramingRecorder(configuration)
        let connect: [UInt8] = [0x10, 0x0E, 0x00, 0x04] + Array("MQTT".utf8) + [0x04, 0x02, 0x00, 0x3C, 0x00, 0x02] + Array("c1".utf8)
        recorder.open(1)
        recorder.open(2)
        try recorder.receive(connect, 1, at: 1)
        try recorder.receive([0x20, 0x02, 0x00, 0x00], 1, .serverToClient, at: 2)
        try recorder.receive(connect, 2, at: 3)
        #expect(recorder.events.filter { $0.kind == "frame" }.map(\.time) == [1, 3], "frames of decided streams at once")
        try recorder.receive([0x40, 0x02, 0x00, 0x01, 0x40, 0x02, 0x00, 0x02], 1, .serverToClient, at: 5)
        #expect(recorder.events.filter { $0.kind == "frame" }.map(\.time) == [1, 3, 2, 5, 5])
        #expect(recorder.engine.barriers.isEmpty)
    }

    /// What is held back for input order counts against ``FramingConfiguration/maxUndecidedBytes``:
    /// past it the stream holding longest is decided from the bytes it has, after a limit event,
    /// and nothing is lost; the held outputs stay within the budget after each input.
    @Test func heldOutputsAreBoundedByTheUndecidedBudget() throws {
        var recorder = FramingRecorder(FramingConfiguration(maxUndecidedBytes: 1000))
        let frames = h12Frames(1)
        recorder.open(1)
        recorder.open(2)
        try recorder.receive(frames, 1, at: 1)
        try recorder.receive([0x55, 0xAA, 0x01], 1, .serverToClient, at: 2)  // 3 bytes of a header: held
        for index in 0..<100 {
            try recorder.receive(frames, 2, at: 10 + Int64(index))
            #expect(recorder.engine.heldOutputBytes <= 1000)
        }
        let limits = recorder.events.filter { $0.kind.hasPrefix("limit") }
        #expect(limits.map { "\($0.connection)/\($0.direction) \($0.kind)" } == ["1/s2c limit heldOutputsTotal"])
        #expect(recorder.events.filter { $0.kind == "frame" && $0.connection == 2 }.count == 100)
        try recorder.receive(Array(frames.dropFirst(3)), 1, .serverToClient, at: 500)
        try recorder.finish()
        #expect(recorder.events.filter { $0.kind == "frame" && $0.connection == 1 }.count == 2, "decided early as h12, its frame still whole")
        let times = recorder.events.filter { $0.kind == "frame" }.map(\.time)
        #expect(times == times.sorted(), "input order throughout")
    }
}
