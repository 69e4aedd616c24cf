import Foundation
import PacketCapture
import PacketDecoding
import StreamFraming
import TestSupport
import TLSDecryption

/// A TLS fixture's TCP streams as the reassembler delivered them (library code only), to replay
/// through a ``TLSConnectionLayer`` whole, drip-fed or damaged.
struct CapturedTLS {
    /// One delivery: a direction's next bytes of connection 1.
    struct Chunk {
        var direction: StreamDirection
        var bytes: [UInt8]
    }

    var chunks: [Chunk] = []
    let keys: TLSKeyLog
    let summary: [String: Any]

    /// Connection 1 of `Fixtures/captures/tls/NAME.pcap`, and its key log.
    init(_ name: String) throws {
        let fixture = CaptureFixture(file: "\(name).pcap", in: CaptureFixture.tlsDirectory)
        let root = FrameDumpProcess.packageRoot
        let reader = try PcapReader(path: root.appendingPathComponent(fixture.path).path)
        var chunks: [Chunk] = []
        _ = try CaptureReassembly(source: reader).run { event, _ in
            if case .stream(.data(1, let direction, _, let bytes)) = event { chunks.append(Chunk(direction: direction, bytes: Array(bytes))) }
        }
        self.chunks = chunks
        keys = TLSKeyLog()
        keys.add(try Data(contentsOf: root.appendingPathComponent(fixture.keyLogPath)), isComplete: true)
        summary = try fixture.summary()
    }

    /// Connection 1's plaintext byte count per direction, as the generator wrote it.
    var writtenBytes: [Int] {
        let connection = (summary["connections"] as? [[String: Any]])?.first ?? [:]
        return ["client_to_server", "server_to_client"].map { (connection[$0] as? [String: Any])?["bytes"] as? Int ?? -1 }
    }

    /// One direction's whole stream.
    func stream(_ direction: StreamDirection) -> [UInt8] {
        chunks.filter { $0.direction == direction }.flatMap(\.bytes)
    }

    /// The stream offsets and lengths of a direction's records (header included).
    func records(_ direction: StreamDirection) -> [(offset: Int, length: Int, type: UInt8)] {
        let bytes = stream(direction)
        var records: [(Int, Int, UInt8)] = []
        var index = 0
        while index + 5 <= bytes.count {
            let length = 5 + (Int(bytes[index + 3]) << 8 | Int(bytes[index + 4]))
            records.append((index, length, bytes[index]))
            index += length
        }
        return records
    }

    /// Changes the byte at stream offset `offset` of `direction` with `change`.
    mutating func damage(_ direction: StreamDirection, at offset: Int, _ change: (UInt8) -> UInt8) {
        var position = 0
        for index in chunks.indices where chunks[index].direction == direction {
            if offset < position + chunks[index].bytes.count {
                chunks[index].bytes[offset - position] = change(chunks[index].bytes[offset - position])
                return
            }
            position += chunks[index].bytes.count
        }
    }
}

/// What a layer gave: each direction's plaintext, its gaps, ends and the events.
struct LayerOutputs {
    var plaintext: [[UInt8]] = [[], []]
    var gaps: [[UInt64]] = [[], []]
    var ends: [Int] = [0, 0]
    var events: [TLSEvent] = []

    mutating func take(_ output: ConnectionLayerOutput<TLSEvent>) {
        switch output {
        case .data(let bytes, let direction): plaintext[direction.rawValue] += bytes
        case .gap(let count, let direction): gaps[direction.rawValue].append(count)
        case .end(let direction): ends[direction.rawValue] += 1
        case .event(let event): events.append(event)
        }
    }

    /// Feeds `chunks` in order, each cut into pieces of at most `piece` bytes (nil: whole), then ends both directions.
    static func replay(_ chunks: [CapturedTLS.Chunk], keys: TLSKeyProvider, piece: Int? = nil,
                       gapAt: Int? = nil, handshakeMayBeMissing: Bool = false) throws -> LayerOutputs {
        let layer = TLSConnectionLayer(keys: keys, handshakeMayBeMissing: handshakeMayBeMissing)
        var outputs = LayerOutputs()
        for (index, chunk) in chunks.enumerated() {
            if index == gapAt {
                try layer.noteGap(byteCount: UInt64(chunk.bytes.count), from: chunk.direction) { outputs.take($0) }
                continue
            }
            let size = piece ?? max(1, chunk.bytes.count)
            var start = 0
            while start < chunk.bytes.count {
                let end = min(chunk.bytes.count, start + size)
                try chunk.bytes[start..<end].withUnsafeBytes { bytes in
                    try layer.receive(bytes, from: chunk.direction) { outputs.take($0) }
                }
                start = end
            }
        }
        for direction in StreamDirection.allCases { try layer.endStream(direction) { outputs.take($0) } }
        return outputs
    }
}
