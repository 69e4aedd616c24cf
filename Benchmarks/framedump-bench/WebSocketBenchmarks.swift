import FrameFuzzing
import PacketDecoding
import StreamFraming
import WebSocketFraming

/// The WebSocket layer (`WebSocketConnectionLayer`) on a client's stream of masked binary
/// messages, one frame each, fed in 64 KiB chunks as reassembly delivers them: the Upgrade head,
/// then frames whose payloads are unmasked, kept for their events and passed on as the inner
/// stream (counted, not framed). MB/s of wire bytes.
func runWebSocketBenchmarks(options: BenchmarkOptions, report: inout BenchmarkReport) {
    var random = FuzzRandom(seed: 0x5E55)
    let head = Array("GET /chat HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8)
    var cases: [BenchmarkCase] = []
    for payloadLength in [64, 1024, 16384] {
        // Each stream is 32 MiB of random bytes, built only for a row that runs.
        let name = "websocket layer \(payloadLength)-byte binary messages"
        guard options.selects(name) else { continue }
        let count = options.size((32 << 20) / payloadLength, quick: 200)
        var stream = head
        stream.reserveCapacity(head.count + count * (payloadLength + 14))
        var payload = [UInt8](repeating: 0, count: payloadLength)
        for _ in 0..<count {
            for index in payload.indices { payload[index] = UInt8.random(in: 0...255, using: &random) }
            WebSocketFrameEncoder.append(opcode: .binary, maskKey: UInt32.random(in: 0...UInt32.max, using: &random), payload: payload, to: &stream)
        }
        let chunks = stride(from: 0, to: stream.count, by: 65536).map { Array(stream[$0..<min($0 + 65536, stream.count)]) }
        cases.append(BenchmarkCase(name: name, bytes: stream.count, items: count, itemUnit: "frames") {
            let layer = WebSocketConnectionLayer(makeInflater: { nil })
            var inner: UInt64 = 0
            var frames: UInt64 = 0
            func emit(_ output: ConnectionLayerOutput<WebSocketEvent>) {
                switch output {
                case .data(let bytes, _): inner &+= UInt64(bytes.count)
                case .event(.frame): frames &+= 1
                default: break
                }
            }
            for chunk in chunks { chunk.withUnsafeBytes { try? layer.receive($0, from: .clientToServer, emit) } }
            try? layer.endStream(.clientToServer, emit)
            return inner &+ frames
        })
    }
    guard !cases.isEmpty else { return }
    report.add(group: "WebSocket (RFC 6455 frames, masked, 64 KiB chunks)", measure(cases, options: options))
}
