import TestSupport
import Testing
@testable import FrameCodec

/// A `fefd` frame: `FE FD`, u16 body length, body.
private func fefdFrame(_ body: [UInt8]) -> [UInt8] {
    [0xFE, 0xFD, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
}

/// Runs one input three ways — one chunk, one byte at a time, random chunks — and checks all
/// give the same outputs (swift-nio's `ByteToMessageDecoderVerifier` idea).
private func decodeEveryWay(_ format: FrameFormat, _ input: [UInt8], seed: UInt64 = 1) -> [FrameDecoderOutput] {
    let whole = decodeAll(format, [input])
    let drip = decodeAll(format, input.map { [$0] })
    var random = FuzzRandom(seed: seed)
    let chunked = decodeAll(format, randomChunks(input, sizes: 1...17, using: &random))
    #expect(drip == whole, "one byte at a time differs from one chunk")
    #expect(chunked == whole, "random chunks differ from one chunk")
    #expect(isContiguous(whole, length: UInt64(input.count)), "outputs do not cover the input back to back")
    return whole
}

@Suite struct FrameDecoderTests {
    @Test func documentedExample() {
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var outputs: [FrameDecoderOutput] = []
        decoder.process([0xFE, 0xFD, 0x00, 0x02, 0xAA] as [UInt8]) { outputs.append($0) }
        #expect(outputs.isEmpty, "a partial frame waits")
        #expect(decoder.bufferedByteCount == 5)
        decoder.process([0xBB, 0xFE, 0xFD, 0x00] as [UInt8]) { outputs.append($0) }
        #expect(outputs.map(\.frame?.offset) == [0])
        decoder.process([0x00, 0xFE, 0xFD, 0x00, 0x05, 0x01] as [UInt8]) { outputs.append($0) }
        decoder.finish { outputs.append($0) }
        #expect(outputs.count == 3)
        #expect(outputs[0].frame?.bytes == [0xFE, 0xFD, 0x00, 0x02, 0xAA, 0xBB])
        #expect(outputs[0].frame?.body == [0xAA, 0xBB])
        #expect(outputs[0].frame?.crcOK == nil)
        #expect(outputs[1].frame?.offset == 6)
        #expect(outputs[1].frame?.body.isEmpty == true, "length 0 is a valid frame")
        #expect(outputs[2] == .truncated(offset: 10, byteCount: 5))
        #expect(decoder.streamOffset == 15)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func everySplitPointGivesTheSameFrames() {
        let input = fefdFrame([1, 2, 3]) + fefdFrame([]) + fefdFrame(Array(0..<40)) + fefdFrame([9])
        let expected = decodeEveryWay(TestFormats.fefd(), input)
        #expect(expected.compactMap(\.frame).count == 4)
        // Covers a header ending exactly at a chunk boundary and the length field split in two.
        for split in 0...input.count {
            let outputs = decodeAll(TestFormats.fefd(), [Array(input[..<split]), Array(input[split...])])
            #expect(outputs == expected, "split at \(split)")
        }
    }

    @Test func startOffsetMakesOffsetsAbsolute() {
        let start: UInt64 = 1 << 40
        let outputs = decodeAll(TestFormats.fefd(), [fefdFrame([1]) + fefdFrame([2]) + [0xFE]], startOffset: start)
        #expect(outputs.map(\.offset) == [start, start + 5, start + 10])
        #expect(isContiguous(outputs, from: start, length: 11))
    }

    @Test func framesAreZeroCopySlicesOfOneBuffer() {
        let input = fefdFrame([1, 2]) + fefdFrame([3, 4, 5])
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var bases: [UnsafeRawPointer] = []
        var ends: [UnsafeRawPointer] = []
        decoder.process(input) { output in
            output.frame!.bytes.withUnsafeBytes { raw in
                bases.append(raw.baseAddress!)
                ends.append(raw.baseAddress! + raw.count)
            }
        }
        #expect(bases.count == 2)
        #expect(bases[1] == ends[0], "the second frame's bytes follow the first's in the same storage")
    }

    // MARK: - Resync

    @Test func badMagicIsOneSkipToTheNextMagic() {
        let garbage: [UInt8] = [0x00, 0xFE, 0x00, 0xFD, 0xFE, 0xFE] + Array(repeating: 0x41, count: 100) + [0xFD, 0xFE]
        let input = fefdFrame([7]) + garbage + fefdFrame([8, 9])
        let outputs = decodeEveryWay(TestFormats.fefd(), input)
        #expect(outputs.count == 3)
        #expect(outputs[0].frame?.body == [7])
        #expect(outputs[1] == .skip(offset: 5, byteCount: UInt64(garbage.count)))
        #expect(outputs[2].frame?.body == [8, 9])
    }

    @Test func magicAtAHeaderOffsetResyncsToMatchMinusOffset() {
        // len (LE u16), then AB CD; garbage holds a lone AB and a CD AB pair.
        let frame: [UInt8] = [0x03, 0x00, 0xAB, 0xCD, 1, 2, 3]
        let input = [0xAB, 0x11, 0xCD, 0xAB, 0x22] + frame + [0x99] + frame
        let outputs = decodeEveryWay(TestFormats.magicAtOffset2, input)
        #expect(outputs == [
            .skip(offset: 0, byteCount: 5),
            .frame(Frame(offset: 5, bytes: frame[...], headerLength: 4, crcOK: nil)),
            .skip(offset: 12, byteCount: 1),
            .frame(Frame(offset: 13, bytes: frame[...], headerLength: 4, crcOK: nil)),
        ])
    }

    @Test func rangeCheckedFieldsAdvanceOneByteIntoOneSkip() {
        let record: [UInt8] = [0x17, 0x03, 0x03, 0x00, 0x02, 0xAA, 0xBB]
        // 0x16 0x03 0x05: type fits, version does not; 0x03 0x03 0x00: type does not.
        let garbage: [UInt8] = [0x16, 0x03, 0x05, 0x03, 0x03, 0x00, 0x00, 0x19]
        let outputs = decodeEveryWay(TestFormats.tlsLike, garbage + record + record)
        #expect(outputs.count == 3)
        #expect(outputs[0] == .skip(offset: 0, byteCount: UInt64(garbage.count)))
        #expect(outputs[1].frame?.bytes == record[...])
        #expect(outputs[2].frame?.offset == UInt64(garbage.count + record.count))
    }

    @Test func garbageTailIsSkipButAMagicPrefixIsTruncated() {
        let frame = fefdFrame([1])
        #expect(decodeEveryWay(TestFormats.fefd(), frame + [0x00, 0x10, 0x00]).dropFirst()
            == [.skip(offset: 5, byteCount: 3)])
        #expect(decodeEveryWay(TestFormats.fefd(), frame + [0x00, 0x10, 0xFE]).dropFirst()
            == [.skip(offset: 5, byteCount: 2), .truncated(offset: 7, byteCount: 1)])
    }

    @Test func scanningNeverStallsOnRunsOfTheFirstMagicByte() {
        let input = [UInt8](repeating: 0xFE, count: 3000) + fefdFrame([1, 2, 3])
        let outputs = decodeEveryWay(TestFormats.fefd(), input)
        #expect(outputs == [
            .skip(offset: 0, byteCount: 3000),
            .frame(Frame(offset: 3000, bytes: fefdFrame([1, 2, 3])[...], headerLength: 4, crcOK: nil)),
        ])
    }

    // MARK: - Lengths and limits

    @Test func maxFrameLengthCountsTheWholeFrame() {
        let format = TestFormats.fefd(maxFrameLength: 100)
        let atMaxMinusOne = fefdFrame(Array(repeating: 1, count: 95))
        let atMax = fefdFrame(Array(repeating: 2, count: 96))
        let aboveMax = fefdFrame(Array(repeating: 3, count: 97))
        let outputs = decodeEveryWay(format, atMaxMinusOne + atMax + aboveMax + fefdFrame([4]))
        #expect(outputs.count == 5)
        #expect(outputs[0].frame?.bytes.count == 99)
        #expect(outputs[1].frame?.bytes.count == 100)
        #expect(outputs[2] == .oversize(offset: 199, declaredLength: 97))
        #expect(outputs[3] == .skip(offset: 200, byteCount: 100))
        #expect(outputs[4].frame?.body == [4])
    }

    @Test func magiclessGarbageIsOneOversizeThenOneSkip() {
        let format = TestFormats.bareLength(width: 2, maxFrameLength: 64)
        let garbage = [UInt8](repeating: 0xFF, count: 1000)
        let frames: [UInt8] = [0x00, 0x02, 0xAA, 0xBB, 0x00, 0x00, 0x00, 0x01, 0xCC]
        let outputs = decodeEveryWay(format, garbage + frames)
        #expect(outputs == [
            .oversize(offset: 0, declaredLength: 0xFFFF),
            .skip(offset: 1, byteCount: 999),
            .frame(Frame(offset: 1000, bytes: frames[0..<4], headerLength: 2, crcOK: nil)),
            .frame(Frame(offset: 1004, bytes: frames[4..<6], headerLength: 2, crcOK: nil)),
            .frame(Frame(offset: 1006, bytes: frames[6..<9], headerLength: 2, crcOK: nil)),
        ])
    }

    @Test func a64BitLengthAboveIntMaxIsOversize() throws {
        let format = try FrameFormat(name: "u64", fields: [HeaderField(name: "len", width: 8, role: .length)],
                                     maxFrameLength: Int.max)
        let header: [UInt8] = [0x80, 0, 0, 0, 0, 0, 0, 0]
        let outputs = decodeEveryWay(format, header)
        #expect(outputs.first == .oversize(offset: 0, declaredLength: 1 << 63))
    }

    @Test func aHugeValidLengthWaitsWithoutAllocatingIt() throws {
        let format = try FrameFormat(name: "u64", fields: [HeaderField(name: "len", width: 8, role: .length)],
                                     maxFrameLength: Int.max)
        var decoder = FrameDecoder(format: format)
        var outputs: [FrameDecoderOutput] = []
        decoder.process([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 1, 2, 3] as [UInt8]) { outputs.append($0) }
        #expect(outputs.isEmpty)
        #expect(decoder.bufferedByteCount == 11)
        decoder.finish { outputs.append($0) }
        #expect(outputs == [.truncated(offset: 0, byteCount: 11)])
    }

    @Test(arguments: [
        // A negative adjustment that takes the body length below zero.
        (LengthCounts.body, Int64(-5), UInt64(4), true),
        (LengthCounts.body, -4, 4, false),
        // Whole-frame lengths below the header length.
        (LengthCounts.wholeFrame, 0, 1, true),
        (LengthCounts.wholeFrame, 0, 2, false),
        // Adjustments that overflow Int64 one way or the other.
        (LengthCounts.body, Int64.max, 1, true),
        (LengthCounts.wholeFrame, Int64.min, 0, true),
        (LengthCounts.body, Int64.max - 1, 0, true),
    ])
    func lengthArithmeticNeverTraps(counts: LengthCounts, adjustment: Int64, declared: UInt64, oversize: Bool) throws {
        let format = try FrameFormat(name: "adj", fields: [HeaderField(name: "len", width: 2, role: .length)],
                                     lengthCounts: counts, lengthAdjustment: adjustment, maxFrameLength: Int.max)
        let input: [UInt8] = [UInt8(declared >> 8), UInt8(declared & 0xFF)]
        let outputs = decodeAll(format, [input])
        if oversize {
            #expect(outputs.first == .oversize(offset: 0, declaredLength: declared))
        } else {
            #expect(outputs.first?.frame?.bytes.count == 2)
        }
    }

    // MARK: - Checksums

    @Test(arguments: [
        (ChecksumAlgorithm.crc32, ChecksumCoverage.body),
        (.crc32c, .body),
        (.crc32, .headerAndBody),
        (.crc32c, .headerAndBody),
    ])
    func checksumMismatchStillDeliversTheFrame(algorithm: ChecksumAlgorithm, coverage: ChecksumCoverage) throws {
        let format = TestFormats.h12(algorithm: algorithm, coverage: coverage)
        let body = Array("hello, frames".utf8)
        let good = try FrameEncoder(format: format).encode(fields: ["cmd": 3], body: body)
        var bad = good
        bad[bad.count - 1] ^= 0x01
        var badHeader = good
        badHeader[3] ^= 0x01  // cmd: covered only by header-and-body checksums
        let outputs = decodeEveryWay(format, good + bad + badHeader)
        #expect(outputs.map(\.frame?.crcOK) == [true, false, coverage == .body])
        // The checksum itself is computed independently here.
        var crc = CRC32(algorithm)
        if coverage == .headerAndBody {
            crc.update(good[0..<8])
            crc.update([0, 0, 0, 0] as [UInt8])
        }
        crc.update(body)
        #expect(format.value(ofField: "crc", in: outputs[0].frame!.header) == UInt64(crc.value))
    }

    // MARK: - Gaps and end of stream

    @Test func gapReportsTheUnfinishedFrameThenResyncs() {
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var outputs: [FrameDecoderOutput] = []
        decoder.process(fefdFrame([1]) + [0xFE, 0xFD, 0x00, 0x09, 1, 2]) { outputs.append($0) }
        decoder.noteGap(byteCount: 100) { outputs.append($0) }
        #expect(decoder.streamOffset == 111)
        // Resumes mid-frame: the rest of some frame, then a valid one.
        decoder.process([7, 8, 9] + fefdFrame([2, 3])) { outputs.append($0) }
        decoder.noteGap(byteCount: 0) { outputs.append($0) }
        decoder.finish { outputs.append($0) }
        #expect(outputs == [
            .frame(Frame(offset: 0, bytes: fefdFrame([1])[...], headerLength: 4, crcOK: nil)),
            .truncated(offset: 5, byteCount: 6),
            .gap(offset: 11, byteCount: 100),
            .skip(offset: 111, byteCount: 3),
            .frame(Frame(offset: 114, bytes: fefdFrame([2, 3])[...], headerLength: 4, crcOK: nil)),
        ])
        #expect(isContiguous(outputs, length: 120))
    }

    @Test func abandoningThePartialFrameReportsItTruncatedAndResyncs() {
        var decoder = FrameDecoder(format: TestFormats.fefd(maxFrameLength: 50))
        var outputs: [FrameDecoderOutput] = []
        decoder.abandonPartialFrame { outputs.append($0) }
        #expect(outputs.isEmpty, "nothing buffered, nothing to report")
        decoder.process(fefdFrame([1]) + [0xFE, 0xFD, 0x00, 0x20, 1, 2, 3]) { outputs.append($0) }
        #expect(decoder.bufferedByteCount == 7)
        decoder.abandonPartialFrame { outputs.append($0) }
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.streamOffset == 12, "the offset does not move: the bytes are accounted as truncated")
        // Resyncing: the rest of the abandoned frame, a bad length, then a valid frame.
        decoder.process([4, 5, 0xFE, 0xFD, 0x40, 0x00] + fefdFrame([6])) { outputs.append($0) }
        decoder.finish { outputs.append($0) }
        #expect(outputs == [
            .frame(Frame(offset: 0, bytes: fefdFrame([1])[...], headerLength: 4, crcOK: nil)),
            .truncated(offset: 5, byteCount: 7),
            .skip(offset: 12, byteCount: 6),
            .frame(Frame(offset: 18, bytes: fefdFrame([6])[...], headerLength: 4, crcOK: nil)),
        ])
        #expect(isContiguous(outputs, length: 23))
    }

    @Test func aDecoderHoldingNothingHoldsNoStorage() {
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var frames = 0
        #expect(decoder.bufferCapacity == 0)
        decoder.process(fefdFrame(Array(repeating: 1, count: 1000)) + fefdFrame([2])) { _ in frames += 1 }
        #expect(decoder.bufferCapacity == 0, "every byte was in a frame")
        decoder.process(fefdFrame([3, 4]).dropLast()) { _ in frames += 1 }
        #expect(decoder.bufferCapacity > 0 && decoder.bufferedByteCount == 5)
        decoder.process([4] as [UInt8]) { _ in frames += 1 }
        #expect(decoder.bufferCapacity == 0 && frames == 3)
        #expect(decoder.streamOffset == 1004 + 5 + 6)
    }

    @Test func afterAGapABadLengthJoinsTheSkip() {
        var decoder = FrameDecoder(format: TestFormats.fefd(maxFrameLength: 50))
        var outputs: [FrameDecoderOutput] = []
        decoder.noteGap(byteCount: 10) { outputs.append($0) }
        decoder.process([0xFE, 0xFD, 0x40, 0x00, 0x00] + fefdFrame([5])) { outputs.append($0) }
        #expect(outputs == [
            .gap(offset: 0, byteCount: 10),
            .skip(offset: 10, byteCount: 5),
            .frame(Frame(offset: 15, bytes: fefdFrame([5])[...], headerLength: 4, crcOK: nil)),
        ])
    }

    @Test func aThrowingReceiverLosesNothing() {
        struct Stop: Error {}
        let input = fefdFrame([1]) + [0x00] + fefdFrame([2]) + fefdFrame([3])
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var outputs: [FrameDecoderOutput] = []
        var calls = 0
        #expect(throws: Stop.self) {
            try decoder.process(input) { output in
                calls += 1
                outputs.append(output)
                if calls == 2 { throw Stop() }  // stops after taking the skip
            }
        }
        while true {
            let before = outputs.count
            decoder.process([] as [UInt8]) { outputs.append($0) }
            if outputs.count == before { break }
        }
        decoder.finish { outputs.append($0) }
        #expect(outputs.map(\.offset) == [0, 5, 6, 11])
        #expect(outputs[1] == .skip(offset: 5, byteCount: 1))
    }

    /// A receiver that throws at output k — for every k of a stream that gives every kind of
    /// output (frames, skip, oversize, gap, truncated, an abandoned partial frame) — sees its
    /// error come out of the call that produced the output, once; and nothing is lost: feeding
    /// on gives the same outputs as a run where nothing threw.
    @Test func anOutputThatThrowsAlwaysReachesTheCaller() {
        struct Stop: Error {}
        let format = TestFormats.fefd(maxFrameLength: 64)
        let steps: [(inout FrameDecoder, (FrameDecoderOutput) throws -> Void) throws -> Void] = [
            { try $0.process(fefdFrame([1, 2]) + [0x00, 0x01] + fefdFrame([3]), $1) },
            { try $0.process([0xFE, 0xFD, 0x01, 0x00] + fefdFrame([4]), $1) },   // oversize (declares 256)
            { try $0.process(fefdFrame([5, 6, 7]).prefix(5), $1) },
            { try $0.noteGap(byteCount: 9, $1) },
            { try $0.process(fefdFrame([8]) + fefdFrame([9, 9]).prefix(3), $1) },
            { try $0.abandonPartialFrame($1) },
            { try $0.process(fefdFrame([10]).prefix(2), $1) },
            { try $0.noteGap(byteCount: 1, $1) },
            // A frame whose header is in hand, completed by the head of an array chunk that
            // holds the next frame too (framed in place).
            { try $0.process(Array(fefdFrame([11, 12, 13]).prefix(5)), $1) },
            { try $0.process(Array(fefdFrame([11, 12, 13]).suffix(2)) + fefdFrame([14]), $1) },
            { try $0.process([] as [UInt8], $1) },
            { try $0.finish($1) },
        ]
        func run(throwingAt target: Int?) -> (outputs: [FrameDecoderOutput], errors: Int) {
            var decoder = FrameDecoder(format: format)
            var outputs: [FrameDecoderOutput] = []
            var errors = 0
            var index = 0
            let receive: (FrameDecoderOutput) throws -> Void = { output in
                defer { index += 1 }
                if index == target { throw Stop() }
                outputs.append(output)
            }
            for step in steps {
                do { try step(&decoder, receive) } catch { errors += 1 }
            }
            return (outputs, errors)
        }
        let clean = run(throwingAt: nil)
        #expect(clean.errors == 0)
        let kinds = Set(clean.outputs.map { output -> String in
            switch output {
            case .frame: "frame"
            case .skip: "skip"
            case .oversize: "oversize"
            case .gap: "gap"
            case .truncated: "truncated"
            }
        })
        #expect(kinds == ["frame", "skip", "oversize", "gap", "truncated"])
        for target in 0..<clean.outputs.count {
            let thrown = run(throwingAt: target)
            #expect(thrown.errors == 1, "a throw at output \(target) of \(clean.outputs.count)")
            var expected = clean.outputs
            expected.remove(at: target)
            #expect(thrown.outputs == expected, "the outputs after a throw at \(target) are the clean run's, less the one thrown at")
        }
    }

    /// Frames wholly inside an array chunk fed to an empty decoder are slices of that very
    /// array (no copy); the unfinished tail is copied into storage of the decoder's own, so the
    /// caller's array is not held.
    @Test func framesOfAnArrayChunkAreSlicesOfIt() {
        let chunk = fefdFrame([1, 2, 3]) + fefdFrame([4]) + Array(fefdFrame([5, 6]).prefix(3))
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var frames: [Frame] = []
        decoder.process(chunk) { if case .frame(let frame) = $0 { frames.append(frame) } }
        #expect(frames.count == 2)
        chunk.withUnsafeBufferPointer { chunkBytes in
            for frame in frames {
                frame.bytes.withUnsafeBufferPointer { frameBytes in
                    #expect(frameBytes.baseAddress == chunkBytes.baseAddress! + Int(frame.offset), "frame at \(frame.offset) was copied")
                }
            }
        }
        #expect(decoder.bufferedByteCount == 3)
        #expect(decoder.bufferCapacity < chunk.count, "the decoder keeps only the tail")
        var rest: [FrameDecoderOutput] = []
        decoder.process(Array(fefdFrame([5, 6]).dropFirst(3))) { rest.append($0) }
        #expect(rest == [.frame(Frame(offset: 12, bytes: fefdFrame([5, 6])[...], headerLength: 4, crcOK: nil))])
    }

    // MARK: - Cost and memory

    @Test func compactionMovesLinearlyManyBytesAndMemoryStaysBounded() {
        let frameCount = 200_000
        var input: [UInt8] = []
        input.reserveCapacity(frameCount * 8)
        for index in 0..<frameCount {
            input += fefdFrame(Array(repeating: UInt8(truncatingIfNeeded: index), count: index % 7))
        }
        let format = TestFormats.fefd(maxFrameLength: 64)
        var decoder = FrameDecoder(format: format)
        var random = FuzzRandom(seed: 3)
        var frames = 0
        var maxBuffered = 0
        var position = 0
        while position < input.count {
            let next = min(input.count, position + Int.random(in: 1...64, using: &random))
            input[position..<next].withUnsafeBytes { chunk in
                decoder.process(chunk) { output in
                    if output.frame != nil { frames += 1 }
                }
            }
            maxBuffered = max(maxBuffered, decoder.bufferedByteCount)
            position = next
        }
        #expect(frames == frameCount)
        #expect(maxBuffered <= 64 + 64)
        #expect(decoder.bytesMovedByCompaction <= 2 * input.count)
        #expect(decoder.bytesMovedByCompaction <= input.count / 16, "moves only the short tails")
    }

    @Test func aLargeFrameInTinyChunksIsNotMovedOverAndOver() {
        let big = fefdFrame(Array(repeating: 0x5A, count: 60_000))
        let input = fefdFrame([1]) + big + fefdFrame([2])
        var decoder = FrameDecoder(format: TestFormats.fefd())
        var sizes: [Int] = []
        var position = 0
        while position < input.count {
            let next = min(input.count, position + 100)
            decoder.process(input[position..<next]) { sizes.append($0.byteCount == 0 ? 0 : Int($0.byteCount)) }
            position = next
        }
        #expect(sizes == [5, big.count, 5])
        #expect(decoder.bytesMovedByCompaction <= input.count)
    }

    @Test func chunksShorterThanTheAwaitedRestAreOnlyAppendedUntilAGapOrFinish() {
        // A header declaring 1,000 body bytes: the decoder waits for them without re-reading it.
        let pending: [UInt8] = [0xFE, 0xFD, 0x03, 0xE8]
        for ending in ["gap", "finish"] {
            var decoder = FrameDecoder(format: TestFormats.fefd())
            var outputs: [FrameDecoderOutput] = []
            decoder.process(pending + [1, 2]) { outputs.append($0) }
            decoder.process([3]) { outputs.append($0) }
            #expect(outputs.isEmpty)
            if ending == "gap" {
                decoder.noteGap(byteCount: 10) { outputs.append($0) }
            } else {
                decoder.finish { outputs.append($0) }
            }
            // A whole frame in a chunk far shorter than the 995 bytes that were awaited.
            decoder.process(fefdFrame([9])) { outputs.append($0) }
            let start: UInt64 = ending == "gap" ? 17 : 7
            #expect(outputs.last == .frame(Frame(offset: start, bytes: fefdFrame([9])[...], headerLength: 4, crcOK: nil)), "after \(ending)")
        }
    }

    // MARK: - Accounting over random inputs

    @Test(arguments: propertySeeds)
    func everyByteIsInExactlyOneOutput(seed: UInt64) throws {
        var random = FuzzRandom(seed: seed)
        let formats = [
            TestFormats.fefd(maxFrameLength: 300),
            TestFormats.h12(coverage: .headerAndBody, maxFrameLength: 400),
            TestFormats.bareLength(width: 2, maxFrameLength: 200),
            TestFormats.tlsLike,
            TestFormats.magicAtOffset2,
        ]
        for format in formats {
            let encoder = FrameEncoder(format: format)
            var input: [UInt8] = []
            var gaps: [Int: UInt64] = [:]
            for _ in 0..<60 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6:
                    let body = random.bytes(Int.random(in: 0...120, using: &random))
                    let fields = format.fields.first { $0.name == "type" } != nil ? ["type": UInt64(23), "version": 0x0303] : [:]
                    try encoder.encode(fields: fields, body: body, into: &input)
                case 6..<9:
                    input += random.bytes(Int.random(in: 1...40, using: &random))
                default:
                    gaps[input.count] = UInt64.random(in: 1...1000, using: &random)
                }
            }
            var decoder = FrameDecoder(format: format, startOffset: 77)
            var outputs: [FrameDecoderOutput] = []
            var gapTotal: UInt64 = 0
            var segmentStart = 0
            // Gaps fall between random chunks of the bytes around them, mid-frame or not.
            for boundary in Set(gaps.keys).union([input.count]).sorted() {
                for chunk in randomChunks(Array(input[segmentStart..<boundary]), sizes: 1...50, using: &random) {
                    decoder.process(chunk) { outputs.append($0) }
                }
                if let count = gaps[boundary] {
                    decoder.noteGap(byteCount: count) { outputs.append($0) }
                    gapTotal += count
                }
                segmentStart = boundary
            }
            decoder.finish { outputs.append($0) }
            let total = outputs.reduce(0) { $0 + $1.byteCount }
            #expect(total == UInt64(input.count) + gapTotal, "seed \(seed), format \(format.name)")
            #expect(isContiguous(outputs, from: 77, length: UInt64(input.count) + gapTotal), "seed \(seed), format \(format.name)")
            let oneChunk = decodeAll(format, [input])
            #expect(oneChunk.reduce(0) { $0 + $1.byteCount } == UInt64(input.count), "seed \(seed), format \(format.name)")
            #expect(decodeAll(format, input.map { [$0] }) == oneChunk, "seed \(seed), format \(format.name): drip differs")
        }
    }
}
