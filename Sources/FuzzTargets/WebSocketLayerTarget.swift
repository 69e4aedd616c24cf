import PacketDecoding
import StreamFraming
import WebSocketFraming

/// libFuzzer target: the WebSocket connection layer (`WebSocketConnectionLayer`): the Upgrade
/// heads, frame headers and payloads across chunks, unmasking, messages, permessage-deflate
/// through a stand-in inflater, violations and limits, on both directions of one connection.
///
/// Input: chunks until the input ends, each a control byte (bit 0: direction; bit 1: a gap
/// instead of bytes; bits 2–7: length / 4) and that many bytes. Inputs that begin `W` are
/// preceded by a valid Upgrade request and a 101 response agreeing permessage-deflate, so the
/// fuzzer spends its time in frames. The stand-in inflater turns each input byte into 1,000
/// bytes (a deflate bomb), and fails on 0xFF.
///
/// Checked: each direction ends exactly once, with no output after its end; every byte of a
/// direction is in the handshake's head, a frame, or an unread range, exactly once; a frame's
/// kept payload and a message's inflated bytes stay within the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketLayer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzedInput(data, size)
    let limits = WebSocketLimits(maxFramePayload: 4096, maxMessageLength: 8192, maxHandshakeBytes: 1024)
    let layer = WebSocketConnectionLayer(limits: limits, makeInflater: { BombInflater() })
    var received: [UInt64] = [0, 0]
    var covered: [UInt64] = [0, 0]
    var ended = [false, false]
    func check(_ output: ConnectionLayerOutput<WebSocketEvent>) {
        switch output {
        case .data(_, let direction), .gap(_, let direction):
            precondition(!ended[direction.rawValue], "output after the end")
        case .end(let direction):
            precondition(!ended[direction.rawValue], "ended twice")
            ended[direction.rawValue] = true
        case .event(let event):
            switch event {
            case .handshake(let handshake):
                covered[0] += UInt64(handshake.requestLength)
                covered[1] += UInt64(handshake.responseLength)
            case .frame(let frame):
                precondition(frame.payload.count <= limits.maxFramePayload, "a frame payload over the limit kept")
                precondition(frame.payload.isEmpty || UInt64(frame.payload.count) == frame.payloadLength, "a payload of another length")
                covered[frame.direction.rawValue] += frame.wireLength
            case .message(let message):
                precondition(message.inflated.count <= limits.maxMessageLength, "an inflated message over the limit kept")
            case .unread(let direction, let offset, let length, _):
                precondition(offset + length <= received[direction.rawValue], "unread beyond the input")
                covered[direction.rawValue] += length
            case .violation(let violation):
                precondition(violation.offset <= received[violation.direction.rawValue], "a violation beyond the input")
            }
        }
    }
    func feed(_ bytes: [UInt8], _ direction: StreamDirection) {
        received[direction.rawValue] += UInt64(bytes.count)
        bytes.withUnsafeBytes { chunk in try? layer.receive(chunk, from: direction, check) }
    }
    if size > 0, data[0] == UInt8(ascii: "W") {
        feed(Array("GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n".utf8), .clientToServer)
        feed(Array("HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n".utf8), .serverToClient)
        _ = input.byte()
    }
    input.playConnection(bytes: { chunk, number in feed(chunk, StreamDirection(rawValue: number)!) }, gap: { length, number in
        received[number] += UInt64(length)
        try? layer.noteGap(byteCount: UInt64(length), from: StreamDirection(rawValue: number)!, check)
    })
    for direction in StreamDirection.allCases { try? layer.endStream(direction, check) }
    precondition(ended == [true, true], "a direction never ended")
    precondition(covered == received, "bytes not accounted for: \(covered) of \(received)")
    return 0
}

/// Each input byte inflates to 1,000 copies of itself, handed on a chunk at a time; 0xFF is invalid data.
private final class BombInflater: WebSocketInflater {
    func inflate(_ input: UnsafeRawBufferPointer, chunkLimit: Int, _ output: (UnsafeRawBufferPointer) throws -> Void) throws {
        for byte in input {
            if byte == 0xFF { throw WebSocketInflateError(message: "0xff") }
            let chunk = [UInt8](repeating: byte, count: min(1000, chunkLimit))
            var left = 1000
            while left > 0 {
                let count = min(left, chunk.count)
                try chunk.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                left -= count
            }
        }
    }

    func reset() {}
}
