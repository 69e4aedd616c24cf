import FrameCodec

/// A stream of encoded frames and where to cut it into chunks.
private struct EncodedStream {
    var buffer: AlignedBuffer
    var frameCount: Int
    var chunks: [Range<Int>]
    /// The chunks as arrays made ahead of time, for rows that feed arrays (which the decoder
    /// frames in place); empty for rows that feed raw pointers into ``buffer``.
    var chunkArrays: [[UInt8]] = []
}

/// Encodes `frameCount` frames with bodies of `bodyLength` random bytes and cuts the stream into
/// chunks of random length in `chunkSizes`; `nil` when the encoder rejects the frames.
private func encodedStream(format: FrameFormat, frameCount: Int, bodyLength: Int, chunkSizes: ClosedRange<Int>, seed: UInt64) -> EncodedStream? {
    // A delimiter format's bodies hold none of its delimiters' first bytes.
    let avoided = Set(format.delimiters.map { $0[0] })
    let encoder = FrameEncoder(format: format)
    var generator = SplitMix64(seed: seed)
    var stream: [UInt8] = []
    stream.reserveCapacity(frameCount * (format.headerLength + bodyLength))
    var body = [UInt8](repeating: 0, count: bodyLength)
    for _ in 0..<frameCount {
        for index in body.indices {
            body[index] = UInt8(truncatingIfNeeded: generator.next())
            while avoided.contains(body[index]) { body[index] &+= 1 }
        }
        do {
            try encoder.encode(body: body, into: &stream)
        } catch {
            return nil
        }
    }
    return EncodedStream(buffer: AlignedBuffer(stream), frameCount: frameCount,
                         chunks: randomChunks(total: stream.count, sizes: chunkSizes, seed: seed ^ 0xC4C4))
}

/// What one pass of the decoder over a stream produced.
private struct DecodeTally {
    var frames = 0
    var crcOK = 0
    var otherEvents = 0
    /// Sum of frame offsets: depends on every frame, so nothing can be skipped.
    var checksum: UInt64 = 0
}

/// Feeds a whole stream, chunk by chunk, to a fresh decoder, then finishes it.
///
/// Kept out of line so profilers can attribute everything under it (callgrind
/// `--toggle-collect='*framedump_bench6decode*'`).
@inline(never)
private func decode(_ stream: EncodedStream, format: FrameFormat, bodyRetention: FrameDecoder.BodyRetention = .always) -> DecodeTally {
    var decoder = FrameDecoder(format: format, bodyRetention: bodyRetention)
    // The tally is reached through a pointer: a captured `var` would be boxed and checked for
    // exclusive access on every frame (swift_beginAccess), a cost of the benchmark, not the decoder.
    let tally = UnsafeMutablePointer<DecodeTally>.allocate(capacity: 1)
    tally.initialize(to: DecodeTally())
    defer { tally.deallocate() }
    let data = stream.buffer.readOnly
    func receive(_ output: FrameDecoderOutput) {
        if case .frame(let frame) = output {
            tally.pointee.frames += 1
            if frame.crcOK == true { tally.pointee.crcOK += 1 }
            tally.pointee.checksum &+= frame.offset &+ UInt64(frame.length)
        } else {
            tally.pointee.otherEvents += 1
        }
    }
    if stream.chunkArrays.isEmpty {
        for chunk in stream.chunks {
            decoder.process(UnsafeRawBufferPointer(rebasing: data[chunk]), receive)
        }
    } else {
        for chunk in stream.chunkArrays {
            decoder.process(chunk, receive)
        }
    }
    decoder.finish(receive)
    return tally.pointee
}

/// Decoder rows: many small frames (per-frame overhead: the fixed-offset fefd layout and the
/// walked varint one), large checksummed frames (bytes per second, measured against the CRC
/// alone over the same bytes), and large delimited frames (the delimiter scan's bytes per second).
func runDecoderBenchmarks(options: BenchmarkOptions, report: inout BenchmarkReport) {
    runSmallFrames(options: options, report: &report)
    runLargeFrames(options: options, report: &report)
    runDelimitedFrames(options: options, report: &report)
}

private func runSmallFrames(options: BenchmarkOptions, report: inout BenchmarkReport) {
    let rows: [(name: String, format: FrameFormat, seed: UInt64)] = [
        ("decoder fefd 16B bodies, 1–4096B chunks", .fefd, 0xFEFD),
        ("decoder varint 16B bodies, 1–4096B chunks", .varint, 0x7A41),
    ]
    let frameCount = options.size(500_000, quick: 5_000)
    let cases = decodeCases(rows.map { ($0.name, $0.format, 1...4096, $0.seed) }, frameCount: frameCount, bodyLength: 16,
                            options: options, report: &report)
    guard !cases.isEmpty else { return }
    report.add(group: "FrameDecoder, small frames (\(frameCount) frames, 16 B bodies)", measure(cases, options: options))
}

/// Lines of 64 KiB (the `lines` preset's max) ending in `\n`: what the delimiter scan costs
/// per byte, in segment-sized and socket-read-sized chunks.
private func runDelimitedFrames(options: BenchmarkOptions, report: inout BenchmarkReport) {
    let rows: [(name: String, sizes: ClosedRange<Int>)] = [
        ("decoder lines 64KiB lines, 1–4096B chunks", 1...4096),
        ("decoder lines 64KiB lines, 64KiB chunks", 65536...65536),
    ]
    let frameCount = options.size(256, quick: 4)
    let cases = decodeCases(rows.map { ($0.name, FrameFormat.lines, $0.sizes, 0x11E5) }, frameCount: frameCount, bodyLength: 64 << 10,
                            options: options, report: &report)
    guard !cases.isEmpty else { return }
    report.add(group: "FrameDecoder, delimited frames (\(frameCount) × 64 KiB lines)", measure(cases, options: options))
}

private func runLargeFrames(options: BenchmarkOptions, report: inout BenchmarkReport) {
    // Segment-sized chunks (what a capture delivers) and 64 KiB reads (what a socket delivers),
    // both through raw pointers; then, as a group of its own, 1 MiB arrays (a file read), which
    // the decoder frames in place. The arrays are a second copy of the stream (16 MiB): made
    // while the first group runs, they slowed its "crc alone" floor by ≈ 6 % (page placement),
    // which flattered the ratios; each group now has its own floor, measured beside its rows.
    largeFrameGroup(title: "raw pointer chunks", [
        ("decoder h12 64KiB bodies, 1–4096B chunks", 1...4096, target: 0.9, retention: .always),
        // Every chunk one full Ethernet segment's payload: a frame spans 46 of them, and its
        // checksum runs forward over each (FrameDecoder's running checksum).
        ("decoder h12 64KiB bodies, 1448B segments", 1448...1448, target: 0.9, retention: .always),
        ("decoder h12 64KiB bodies, 64KiB chunks", 65536...65536, target: nil, retention: .always),
        // The same segments to a consumer that reads no body (`decode --json --payload none`,
        // `BodyRetention.headersOnly`): each frame's header is kept and its body checksummed in
        // place, never copied.
        ("decoder h12 64KiB bodies, 1448B segments, bodies dropped", 1448...1448, target: 0.9, retention: .headersOnly),
        ("decoder h12 64KiB bodies, 1–4096B chunks, bodies dropped", 1...4096, target: 0.9, retention: .headersOnly),
    ], arrays: false, options: options, report: &report)
    largeFrameGroup(title: "array chunks, framed in place", [
        ("decoder h12 64KiB bodies, 1MiB array chunks", 1 << 20...1 << 20, target: 0.9, retention: .always),
    ], arrays: true, options: options, report: &report)
}

/// One group of large-frame rows and the CRC alone over the same stream, measured together.
private func largeFrameGroup(title: String,
                             _ chunkings: [(name: String, sizes: ClosedRange<Int>, target: Double?, retention: FrameDecoder.BodyRetention)],
                             arrays: Bool,
                             options: BenchmarkOptions, report: inout BenchmarkReport) {
    let chunkings = chunkings.filter { options.selects($0.name) }
    guard !chunkings.isEmpty else { return }
    let format = FrameFormat.h12
    let frameCount = options.size(256, quick: 4)
    let bodyLength = 64 << 10
    let crcAlgorithm: ChecksumAlgorithm = format.checksumFieldIndex.flatMap { index in
        if case .checksum(let algorithm, _) = format.fields[index].role { return algorithm }
        return nil
    } ?? .crc32
    var cases: [BenchmarkCase] = []
    var crcAlone: BenchmarkCase?
    for (name, sizes, _, retention) in chunkings {
        guard var stream = encodedStream(format: format, frameCount: frameCount, bodyLength: bodyLength, chunkSizes: sizes, seed: 0x4812) else {
            report.fail("h12 encoder rejected a 64 KiB body: large-frame rows skipped")
            return
        }
        if arrays {
            let data = stream.buffer.readOnly
            stream.chunkArrays = stream.chunks.map { Array(data[$0]) }
        }
        guard verify(decode(stream, format: format, bodyRetention: retention), stream, checksummed: true, row: name, report: &report) else { return }
        cases.append(BenchmarkCase(name: name, bytes: stream.buffer.count, items: frameCount, itemUnit: "frames") {
            decode(stream, format: format, bodyRetention: retention).checksum
        })
        if crcAlone == nil {
            // The floor: the same algorithm over every frame of the same stream, one call per frame.
            let frameLength = stream.buffer.count / frameCount
            crcAlone = BenchmarkCase(name: "crc alone (\(crcAlgorithm)) per frame", bytes: stream.buffer.count, items: frameCount, itemUnit: "frames") {
                let data = stream.buffer.readOnly
                var sum: UInt64 = 0
                var offset = 0
                while offset < data.count {
                    sum &+= UInt64(CRC32.checksum(UnsafeRawBufferPointer(rebasing: data[offset..<offset + frameLength]), algorithm: crcAlgorithm))
                    offset += frameLength
                }
                return sum
            }
        }
    }
    guard let crcAlone else { return }
    let rows = measure([crcAlone] + cases, options: options)
    report.add(group: "FrameDecoder, large frames (\(frameCount) × 64 KiB bodies, CRC checked), \(title)", rows)
    guard let floor = rows.first(where: { $0.name.hasPrefix("crc alone") }) else { return }
    for (row, chunking) in zip(rows.dropFirst(), chunkings) {
        report.add(RatioResult("\(row.name) / crc alone", row, over: floor, target: chunking.target))
    }
}

/// One decode case per selected row: a stream of `frameCount` frames with `bodyLength`-byte
/// bodies in the row's format and chunk sizes, verified once before it is timed.
private func decodeCases(
    _ rows: [(name: String, format: FrameFormat, sizes: ClosedRange<Int>, seed: UInt64)],
    frameCount: Int,
    bodyLength: Int,
    options: BenchmarkOptions,
    report: inout BenchmarkReport
) -> [BenchmarkCase] {
    var cases: [BenchmarkCase] = []
    for (name, format, sizes, seed) in rows where options.selects(name) {
        guard let stream = encodedStream(format: format, frameCount: frameCount, bodyLength: bodyLength, chunkSizes: sizes, seed: seed) else {
            report.fail("\(name): the \(format.name) encoder rejected a \(bodyLength)-byte body: row skipped")
            continue
        }
        guard verify(decode(stream, format: format), stream, checksummed: false, row: name, report: &report) else { continue }
        cases.append(BenchmarkCase(name: name, bytes: stream.buffer.count, items: frameCount, itemUnit: "frames") {
            decode(stream, format: format).checksum
        })
    }
    return cases
}

/// Checks that a pass decoded every frame, with good checksums when the format has them, and
/// reported nothing else; notes the failure otherwise (a fast wrong decoder is not a result).
private func verify(_ tally: DecodeTally, _ stream: EncodedStream, checksummed: Bool, row: String, report: inout BenchmarkReport) -> Bool {
    if tally.frames == stream.frameCount, tally.otherEvents == 0, !checksummed || tally.crcOK == stream.frameCount {
        return true
    }
    report.fail("\(row): decoded \(tally.frames)/\(stream.frameCount) frames, \(tally.crcOK) CRC ok, \(tally.otherEvents) other events: skipped")
    return false
}
