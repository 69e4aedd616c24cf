import FrameCodec
import PacketDecoding
import StreamFraming

/// A capture built in memory: Ethernet II / IPv4 / TCP packets of h12 traffic, back to back,
/// with where each packet starts and ends.
private struct SyntheticCapture {
    var bytes: AlignedBuffer
    var packets: [Range<Int>]
    var frames: Int
}

/// Writes the packets of `connections` connections sending h12 frames (mixed body sizes, as
/// scripts/bench-e2e-traffic.py sends) in full 1448-byte segments, round-robin over the
/// connections, each connection opened by a three-way handshake and closed by FINs, with a pure
/// ACK from the server after every second data segment — the shape of the loopback captures
/// scripts/bench-e2e records, without the file.
private func syntheticCapture(connections: Int, streamBytes: Int, seed: UInt64) -> SyntheticCapture? {
    let encoder = FrameEncoder(format: .h12)
    var generator = SplitMix64(seed: seed)
    var streams: [[UInt8]] = Array(repeating: [], count: connections)
    var frames = 0
    for index in 0..<connections {
        while streams[index].count < streamBytes / connections {
            let pick = Int.random(in: 0..<10, using: &generator)
            let length = pick < 6 ? Int.random(in: 16...512, using: &generator)
                : pick < 9 ? Int.random(in: 512...2048, using: &generator) : Int.random(in: 2048...8192, using: &generator)
            let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            do {
                try encoder.encode(fields: ["cmd": UInt64(frames & 0xFF)], body: body, into: &streams[index])
            } catch {
                return nil
            }
            frames += 1
        }
    }

    var out: [UInt8] = []
    var packets: [Range<Int>] = []
    func packet(_ index: Int, fromClient: Bool, sequence: UInt32, acknowledgment: UInt32, flags: UInt8, payload: ArraySlice<UInt8>) {
        let start = out.count
        let client: [UInt8] = [10, 0, UInt8(index >> 8), UInt8(index & 0xFF)], server: [UInt8] = [10, 255, 0, 1]
        let clientPort = UInt16(20_000 + index), serverPort: UInt16 = 5512
        out += [2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00]  // Ethernet II, EtherType IPv4
        let totalLength = 20 + 20 + payload.count
        out += [0x45, 0, UInt8(totalLength >> 8), UInt8(totalLength & 0xFF), 0, 0, 0x40, 0, 64, 6, 0, 0]
        out += fromClient ? client + server : server + client
        func be16(_ value: UInt16) { out += [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func be32(_ value: UInt32) { out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
        be16(fromClient ? clientPort : serverPort)
        be16(fromClient ? serverPort : clientPort)
        be32(sequence)
        be32(acknowledgment)
        out += [5 << 4, flags]
        be16(65535)
        out += [0, 0, 0, 0]  // checksum (offloaded, as on a loopback capture), urgent pointer
        out += payload
        packets.append(start..<out.count)
    }
    let fin: UInt8 = 0x01, syn: UInt8 = 0x02, psh: UInt8 = 0x08, ack: UInt8 = 0x10
    let clientISN = (0..<connections).map { UInt32(truncatingIfNeeded: $0 &* 0x9E37_79B9) }
    let serverISN = (0..<connections).map { UInt32(truncatingIfNeeded: $0 &* 0x85EB_CA6B &+ 7) }
    for index in 0..<connections {
        packet(index, fromClient: true, sequence: clientISN[index], acknowledgment: 0, flags: syn, payload: [])
        packet(index, fromClient: false, sequence: serverISN[index], acknowledgment: clientISN[index] &+ 1, flags: syn | ack, payload: [])
        packet(index, fromClient: true, sequence: clientISN[index] &+ 1, acknowledgment: serverISN[index] &+ 1, flags: ack, payload: [])
    }
    var sent = Array(repeating: 0, count: connections)
    var segments = 0
    while sent.indices.contains(where: { sent[$0] < streams[$0].count }) {
        for index in 0..<connections where sent[index] < streams[index].count {
            let end = min(streams[index].count, sent[index] + 1448)
            packet(index, fromClient: true, sequence: clientISN[index] &+ 1 &+ UInt32(truncatingIfNeeded: sent[index]),
                   acknowledgment: serverISN[index] &+ 1, flags: ack | psh, payload: streams[index][sent[index]..<end])
            sent[index] = end
            segments += 1
            if segments % 2 == 0 {
                packet(index, fromClient: false, sequence: serverISN[index] &+ 1,
                       acknowledgment: clientISN[index] &+ 1 &+ UInt32(truncatingIfNeeded: end), flags: ack, payload: [])
            }
        }
    }
    for index in 0..<connections {
        let end = clientISN[index] &+ 1 &+ UInt32(truncatingIfNeeded: streams[index].count)
        packet(index, fromClient: true, sequence: end, acknowledgment: serverISN[index] &+ 1, flags: fin | ack, payload: [])
        packet(index, fromClient: false, sequence: serverISN[index] &+ 1, acknowledgment: end &+ 1, flags: fin | ack, payload: [])
        packet(index, fromClient: true, sequence: end &+ 1, acknowledgment: serverISN[index] &+ 2, flags: ack, payload: [])
    }
    return SyntheticCapture(bytes: AlignedBuffer(out), packets: packets, frames: frames)
}

/// How far down the pipeline a run goes.
private enum PipelineStage: CaseIterable {
    case parse, reassemble, decode

    var name: String {
        switch self {
        case .parse: "pipeline parse (Ethernet/IPv4/TCP)"
        case .reassemble: "pipeline parse + reassemble"
        case .decode: "pipeline parse + reassemble + decode h12"
        }
    }
}

/// What a pipeline run counted: segments parsed, stream bytes delivered, frames (CRC good).
private struct PipelineTally {
    var segments = 0
    var streamBytes = 0
    var frames = 0
    var crcOK = 0
    var otherEvents = 0
}

/// Runs the capture through the stages up to `stage`: what `framedump decode` does to a capture
/// before rendering — the parser, the reassembler and the same ``FramingEngine`` the CLI ships.
@inline(never)
private func runPipeline(_ capture: SyntheticCapture, upTo stage: PipelineStage) -> PipelineTally {
    var parser = PacketParser(linkType: .ethernet)
    var reassembler = TCPReassembler()
    var engine = FramingEngine<Void>(configuration: FramingConfiguration(format: .h12))
    // Reached through a pointer so the closures below do not box a `var` (see DecoderBenchmarks).
    let tally = UnsafeMutablePointer<PipelineTally>.allocate(capacity: 1)
    tally.initialize(to: PipelineTally())
    defer { tally.deallocate() }
    func framingEvent(_ event: FramingEvent<Void>) {
        switch event {
        case .output(.frame(let frame), _):
            tally.pointee.frames += 1
            if frame.crcOK == true { tally.pointee.crcOK += 1 }
        case .output, .limit, .notice, .formatUndetectable:
            tally.pointee.otherEvents += 1
        case .formatDetected, .formatAssumed, .connectionClosed:
            break
        }
    }
    func reassemblyEvent(_ event: ReassemblyEvent, at time: Timestamp) {
        switch event {
        case .data(_, _, _, let bytes): tally.pointee.streamBytes += bytes.count
        case .gap, .limitHit, .notice: tally.pointee.otherEvents += 1
        case .connectionOpened, .directionClosed, .connectionClosed, .connectionForgotten: break
        }
        guard stage == .decode else { return }
        do {
            try engine.consume(event, at: time, contexts: { _, _, _ in ((), ()) }, framingEvent)
        } catch {
            tally.pointee.otherEvents += 1
        }
    }
    let data = capture.bytes.readOnly
    var clock: Int64 = 1_700_000_000_000_000_000
    for range in capture.packets {
        clock += 10_000
        let time = Timestamp(nanoseconds: clock)
        guard case .segment(let segment) = parser.parse(UnsafeRawBufferPointer(rebasing: data[range]), wireLength: range.count, timestamp: time) else {
            tally.pointee.otherEvents += 1
            continue
        }
        tally.pointee.segments += 1
        guard stage != .parse else { continue }
        reassembler.process(segment, at: time) { reassemblyEvent($0, at: time) }
    }
    reassembler.finish { reassemblyEvent($0, at: Timestamp(nanoseconds: clock)) }
    return tally.pointee
}

/// The capture pipeline in process, stage by stage: parsing, then reassembly, then framing —
/// where the time of `framedump decode` on a capture goes before any output is written.
func runPipelineBenchmarks(options: BenchmarkOptions, report: inout BenchmarkReport) {
    let stages = PipelineStage.allCases.filter { options.selects($0.name) }
    guard !stages.isEmpty else { return }
    guard let capture = syntheticCapture(connections: 6, streamBytes: options.size(32 << 20, quick: 256 << 10), seed: 0xE2E) else {
        report.fail("pipeline: the h12 encoder rejected a frame")
        return
    }
    let full = runPipeline(capture, upTo: .decode)
    guard full.frames == capture.frames, full.crcOK == capture.frames, full.otherEvents == 0 else {
        report.fail("pipeline: decoded \(full.frames)/\(capture.frames) frames, \(full.crcOK) CRC good, \(full.otherEvents) other events")
        return
    }
    let rows = measure(stages.map { stage in
        BenchmarkCase(name: stage.name, bytes: capture.bytes.count, items: capture.packets.count, itemUnit: "packets") {
            let tally = runPipeline(capture, upTo: stage)
            return UInt64(tally.segments &+ tally.streamBytes &+ tally.frames)
        }
    }, options: options)
    report.add(group: "Capture pipeline in process (\(capture.packets.count) packets, \(capture.bytes.count >> 20) MiB, \(capture.frames) h12 frames, 6 connections)", rows)
}
