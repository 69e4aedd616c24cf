import FrameFuzzing
import PacketDecoding

/// One case of `framedump fuzz --target reassembly`: a random stream cut into segments, with
/// extra copies of random spans (half of them with altered bytes), shuffled, RSTs at sequence
/// numbers no receiver expects mixed in, then the FIN — fed to a `TCPReassembler` under a random
/// ``OverlapPolicy``, and the events checked against what the case sent:
///
/// - data events tile the stream from 0 to its end (nothing is missing, so no gap, no discard),
///   and the direction closes with its FIN there;
/// - every RST is a `resetIgnored` notice and none ends the connection (RFC 5961 §3.2);
/// - under `first` and `last`, the delivered bytes are a byte-by-byte model's (delivered bytes
///   stay; held bytes keep the first, or take the last, copy), and an `overlap` notice comes
///   exactly when the model saw two copies differ; under `linux`, every delivered byte is one of
///   the copies sent for its offset.
struct ReassemblyFuzzCase {
    let seed: UInt64
    let policy: OverlapPolicy
    let stream: [UInt8]
    let isn: UInt32
    /// Segments in capture order: a data copy (offset, bytes) or a RST (sequence number).
    let segments: [Segment]

    enum Segment {
        case data(offset: Int, bytes: [UInt8])
        case reset(sequenceNumber: UInt32)
    }

    init(seed: UInt64) {
        self.seed = seed
        var random = FuzzRandom(seed: seed)
        policy = OverlapPolicy.allCases[Int(random.next() % 3)]
        stream = random.bytes(Int(random.next() % 3000))
        isn = UInt32(truncatingIfNeeded: random.next())
        var segments: [Segment] = []
        var cursor = 0
        while cursor < stream.count {
            let size = min(stream.count - cursor, 1 + Int(random.next() % 300))
            segments.append(.data(offset: cursor, bytes: Array(stream[cursor..<(cursor + size)])))
            cursor += size
        }
        for _ in 0..<(stream.isEmpty ? 0 : Int(random.next() % UInt64(segments.count + 1))) {
            let start = Int(random.next() % UInt64(stream.count))
            let end = min(stream.count, start + 1 + Int(random.next() % 400))
            var copy = Array(stream[start..<end])
            if random.chance(1, in: 2) {
                let from = Int(random.next() % UInt64(copy.count))
                for index in from..<min(copy.count, from + 1 + Int(random.next() % 40)) { copy[index] ^= 0x5A }
            }
            segments.append(.data(offset: start, bytes: copy))
        }
        segments.shuffle(using: &random)
        // Past the end of everything sent: never the next expected byte, and the receiver sends no ACKs.
        let end = isn &+ 1 &+ UInt32(stream.count)
        for _ in 0..<Int(random.next() % 4) {
            let at = Int(random.next() % UInt64(segments.count + 1))
            segments.insert(.reset(sequenceNumber: end &+ 1 &+ UInt32(random.next() % 1_000_000)), at: at)
        }
        self.segments = segments
    }

    /// Bytes of segment payload the case feeds.
    var byteCount: Int {
        segments.reduce(0) { total, segment in
            if case .data(_, let bytes) = segment { return total + bytes.count }
            return total
        }
    }

    /// Runs the case; `nil` when every check holds, else what failed.
    func run() -> String? {
        let client = Endpoint(address: .v4(0x0A00_0001), port: 40000), server = Endpoint(address: .v4(0x0A00_0002), port: 7000)
        var reassembler = TCPReassembler(overlapPolicy: policy)
        var delivered: [UInt8] = []
        var problems: [String] = []
        var ignoredResets = 0, overlaps = 0, finAt: UInt64?
        func receive(_ event: ReassemblyEvent) {
            switch event {
            case .data(_, .clientToServer, let offset, let bytes):
                if offset != UInt64(delivered.count) { problems.append("data at \(offset), stream at \(delivered.count)") }
                delivered += bytes
            case .gap(_, _, let offset, let length, _):
                problems.append("gap of \(length) at \(offset), though every byte was sent")
            case .notice(.discarded(let offset, let length, _), _, _):
                problems.append("\(length) bytes discarded at \(offset), though every byte was sent")
            case .notice(.resetIgnored, _, _):
                ignoredResets += 1
            case .notice(.overlap, _, _):
                overlaps += 1
            case .notice(let notice, _, _):
                problems.append("unexpected \(notice)")
            case .directionClosed(_, .clientToServer, let offset, let reason):
                if reason != .fin { problems.append("closed by \(reason) at \(offset)") }
                finAt = offset
            case .connectionClosed(_, let reason) where reason == .reset:
                problems.append("the connection was reset")
            default:
                break
            }
        }
        func send(_ sequenceNumber: UInt32, _ flags: TCPFlags, _ payload: [UInt8] = []) {
            payload.withUnsafeBytes { bytes in
                reassembler.process(TCPSegment(source: client, destination: server, sequenceNumber: sequenceNumber, acknowledgmentNumber: 0,
                                               flags: flags, window: 65535, payload: bytes, missingPayloadLength: 0),
                                    at: Timestamp(nanoseconds: 1), receive)
            }
        }
        send(isn, [.syn])
        var resets = 0
        for segment in segments {
            switch segment {
            case .data(let offset, let bytes): send(isn &+ 1 &+ UInt32(offset), [.psh], bytes)
            case .reset(let sequenceNumber):
                resets += 1
                send(sequenceNumber, [.rst])
            }
        }
        send(isn &+ 1 &+ UInt32(stream.count), [.fin])
        reassembler.finish(receive)

        if delivered.count != stream.count { problems.append("\(delivered.count) bytes delivered of \(stream.count)") }
        if finAt != UInt64(stream.count) { problems.append("FIN at \(finAt.map(String.init) ?? "none"), stream of \(stream.count)") }
        if ignoredResets != resets { problems.append("\(ignoredResets) RSTs ignored of \(resets) that no receiver expects") }
        let (expected, differing) = model()
        switch policy {
        case .first, .last:
            if delivered != expected { problems.append("delivered bytes differ from the \(policy) model") }
            if (overlaps > 0) != differing { problems.append("\(overlaps) overlap notices; the model saw copies differ: \(differing)") }
        case .linux:
            var copies = Array(repeating: Set<UInt8>(), count: stream.count)
            for case .data(let offset, let bytes) in segments { for (index, byte) in bytes.enumerated() { copies[offset + index].insert(byte) } }
            if let bad = delivered.indices.first(where: { $0 < copies.count && !copies[$0].contains(delivered[$0]) }) {
                problems.append("byte \(bad) delivered was in no copy sent")
            }
        }
        return problems.isEmpty ? nil : "policy \(policy): " + problems.prefix(3).joined(separator: "; ")
    }

    /// The `first` / `last` rule byte by byte: delivered bytes stay, a held byte keeps its first
    /// copy (`first`) or takes each later one (`last`); and whether any two copies differed.
    private func model() -> (delivered: [UInt8], differing: Bool) {
        var delivered: [UInt8] = [], held: [Int: UInt8] = [:], differing = false
        for case .data(let offset, let bytes) in segments {
            // A one-byte copy just before the next byte is a keep-alive probe: not compared.
            let isProbe = bytes.count == 1 && offset + 1 == delivered.count
            for (index, byte) in bytes.enumerated() {
                let position = offset + index
                if position < delivered.count {
                    if delivered[position] != byte, !isProbe { differing = true }
                } else if let kept = held[position] {
                    if kept != byte { differing = true }
                    if policy == .last { held[position] = byte }
                } else {
                    held[position] = byte
                }
            }
            while let byte = held.removeValue(forKey: delivered.count) { delivered.append(byte) }
        }
        return (delivered, differing)
    }
}
