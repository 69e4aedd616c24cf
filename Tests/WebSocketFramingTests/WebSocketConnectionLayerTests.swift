import PacketDecoding
import StreamFraming
import Testing
import WebSocketFraming

/// The layer alone, fed one connection three ways (whole, a byte at a time, in seeded random
/// chunks — NIO's `ByteToMessageDecoderVerifier` idea): the same events and inner streams, and
/// every byte accounted for.
@Suite struct WebSocketConnectionLayerTests {
    static let key: [UInt8] = [0x01, 0x02, 0x03, 0x04]

    /// A frame laid out from RFC 6455 §5.2 by hand (not by the decoder's code).
    static func frame(_ first: UInt8, masked: Bool, _ payload: [UInt8]) -> [UInt8] {
        var bytes = [first]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            bytes.append(maskBit | UInt8(payload.count))
        } else {
            bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        guard masked else { return bytes + payload }
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    static let client: [UInt8] = Array("GET /x HTTP/1.1\r\nUpgrade: WebSocket\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n".utf8)
        + frame(0x02, masked: true, Array(0..<200))                  // binary, not final
        + frame(0x89, masked: true, Array("ping".utf8))              // ping between fragments
        + frame(0x80, masked: true, [7, 7, 7])                       // final continuation
        + frame(0xC2, masked: true, Array("squeezed".utf8))          // compressed binary (identity inflater)
        + frame(0x88, masked: true, [0x03, 0xE8])                    // close
        + [0xEE]                                                     // after the close
    static let server: [UInt8] = Array("HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n\r\n".utf8)
        + frame(0x81, masked: false, Array("hi".utf8))
        + frame(0x82, masked: false, [UInt8](repeating: 0x42, count: 300))

    /// Passes bytes through unchanged; the tail RFC 7692 restores (00 00 ff ff) is dropped.
    final class IdentityInflater: WebSocketInflater {
        func inflate(_ input: UnsafeRawBufferPointer, chunkLimit: Int, _ output: (UnsafeRawBufferPointer) throws -> Void) throws {
            if Array(input) == [0x00, 0x00, 0xFF, 0xFF] { return }
            try output(input)
        }
        func reset() {}
    }

    struct Run: Equatable {
        var events: [WebSocketEvent] = []
        var inner: [[UInt8]] = [[], []]
        var ends = [0, 0]
    }

    static func run(chunkSizes: (Int) -> Int) throws -> Run {
        let layer = WebSocketConnectionLayer(makeInflater: { IdentityInflater() })
        var run = Run()
        func emit(_ output: ConnectionLayerOutput<WebSocketEvent>) {
            switch output {
            case .data(let bytes, let direction): run.inner[direction.rawValue] += bytes
            case .gap: Issue.record("no gap expected")
            case .end(let direction): run.ends[direction.rawValue] += 1
            case .event(let event): run.events.append(event)
            }
        }
        // The client's head, the server's whole stream, then the client's frames: as a capture orders them.
        let headLength = client.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
        for (direction, bytes) in [(StreamDirection.clientToServer, client[..<headLength]), (.serverToClient, server[...]), (.clientToServer, client[headLength...])] {
            var start = bytes.startIndex
            var index = 0
            while start < bytes.endIndex {
                let end = min(bytes.endIndex, start + max(1, chunkSizes(index)))
                try Array(bytes[start..<end]).withUnsafeBytes { try layer.receive($0, from: direction, emit) }
                start = end
                index += 1
            }
        }
        for direction in StreamDirection.allCases { try layer.endStream(direction, emit) }
        return run
    }

    @Test func sameEventsWholeDripFedAndInRandomChunks() throws {
        let whole = try Self.run { _ in Int.max / 2 }
        let drip = try Self.run { _ in 1 }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let random = try Self.run { _ in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 59) + 1
        }
        #expect(drip == whole)
        #expect(random == whole)
        #expect(whole.ends == [1, 1])
        #expect(whole.inner[0] == Array(0..<200) + [7, 7, 7] + Array("squeezed".utf8))
        #expect(whole.inner[1] == [UInt8](repeating: 0x42, count: 300))
        let frames = whole.events.compactMap { if case .frame(let frame) = $0 { return frame } else { return nil } }
        #expect(frames.map(\.opcode) == [.text, .binary, .binary, .ping, .continuation, .binary, .close])
        #expect(frames.first { $0.opcode == .ping }?.payload == Array("ping".utf8))
        #expect(frames.last?.closeCode == 1000)
        let messages = whole.events.compactMap { if case .message(let message) = $0 { return message } else { return nil } }
        #expect(messages.map(\.frames) == [1, 1, 2, 1])
        #expect(messages.map(\.innerOffset) == [nil, 0, 0, 203])
        #expect(messages.last?.compressed == true)
        #expect(!whole.events.contains { if case .violation = $0 { return true } else { return false } })
    }

    @Test func everyByteIsInAHeadAFrameOrAnUnreadRange() throws {
        let run = try Self.run { _ in 7 }
        var covered: [UInt64] = [0, 0]
        for event in run.events {
            switch event {
            case .handshake(let handshake):
                covered[0] += UInt64(handshake.requestLength)
                covered[1] += UInt64(handshake.responseLength)
                #expect(handshake.deflate)
            case .frame(let frame): covered[frame.direction.rawValue] += frame.wireLength
            case .unread(let direction, _, let length, let reason):
                covered[direction.rawValue] += length
                #expect(reason == .afterClose)
            case .message, .violation: break
            }
        }
        #expect(covered == [UInt64(Self.client.count), UInt64(Self.server.count)])
    }

    @Test func detectionNeedsTheUpgradeHeader() {
        var upgrade = WebSocketDetection()
        #expect(Array(Self.client.prefix(20)).withUnsafeBytes { upgrade.take($0, from: .clientToServer) } == nil)
        #expect(Array(Self.client.dropFirst(20)).withUnsafeBytes { upgrade.take($0, from: .clientToServer) } == .webSocket)
        var plainGet = WebSocketDetection()
        #expect(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8).withUnsafeBytes { plainGet.take($0, from: .clientToServer) } == .plain)
        var binary = WebSocketDetection()
        #expect([0x55, 0xAA, 1].withUnsafeBytes { binary.take($0, from: .clientToServer) } == .plain)
        var serverFirst = WebSocketDetection()
        #expect([0x32, 0x32, 0x30].withUnsafeBytes { serverFirst.take($0, from: .serverToClient) } == .plain)
        #expect(serverFirst.held.count == 1)
    }

    /// Encode then decode: random frames (every opcode but close, which ends the direction; FIN,
    /// RSV bits, masked or not; payloads at the edges of the three length forms) come back with
    /// the same fields and payload, fed in random chunks.
    @Test func encodedFramesDecodeToTheSameFields() throws {
        var seed: UInt64 = 0x1234_5678
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 17
        }
        var stream: [UInt8] = Array("GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n".utf8)
        var sent: [(WebSocketOpcode, Bool, UInt8, UInt32?, [UInt8])] = []
        for _ in 0..<120 {
            let opcode = WebSocketOpcode(rawValue: [0, 1, 2, 3, 7, 9, 10, 11, 15][Int(next() % 9)])
            let length = [0, 1, 125, 126, 127, 65535, 65536][Int(next() % 7)]
            let payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            let key: UInt32? = next() % 4 == 0 ? nil : UInt32(truncatingIfNeeded: next())
            let fin = next() % 3 != 0
            let rsv = UInt8(next() % 8)
            WebSocketFrameEncoder.append(opcode: opcode, fin: fin, rsv: rsv, maskKey: key, payload: payload, to: &stream)
            sent.append((opcode, fin, rsv, key, payload))
        }
        let layer = WebSocketConnectionLayer(makeInflater: { nil })
        var frames: [WebSocketFrame] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + Int(next() % 20000) + 1)
            try Array(stream[start..<end]).withUnsafeBytes { chunk in
                try layer.receive(chunk, from: .clientToServer) { if case .event(.frame(let frame)) = $0 { frames.append(frame) } }
            }
            start = end
        }
        #expect(frames.count == sent.count)
        for (frame, (opcode, fin, rsv, key, payload)) in zip(frames, sent) {
            #expect(frame.opcode == opcode)
            #expect(frame.fin == fin)
            #expect([frame.rsv1, frame.rsv2, frame.rsv3] == [rsv & 4 != 0, rsv & 2 != 0, rsv & 1 != 0])
            #expect(frame.maskKey == key)
            #expect(frame.payloadLength == UInt64(payload.count))
            #expect(frame.payload == payload)
        }
    }

    /// A head with no blank line, in chunks that cross the 64-byte limit mid-chunk: the chunk's
    /// bytes past the limit were once dropped from the unread range (only those up to the limit
    /// were counted), so a 100-byte head was 65 unread bytes.
    @Test func aHeadOverTheLimitIsUnreadToItsLastByte() throws {
        let head = Array("GET / HTTP/1.1\r\nUpgrade: websocket\r\nX-Long: ".utf8) + [UInt8](repeating: 0x61, count: 100)
        for chunk in [head.count, 50, 7] {
            let layer = WebSocketConnectionLayer(limits: WebSocketLimits(maxHandshakeBytes: 64), makeInflater: { nil })
            var unread: [UInt64] = []
            func emit(_ output: ConnectionLayerOutput<WebSocketEvent>) {
                if case .event(.unread(.clientToServer, let offset, let length, _)) = output { unread.append(offset + length) }
            }
            for start in stride(from: 0, to: head.count, by: chunk) {
                try Array(head[start..<min(head.count, start + chunk)]).withUnsafeBytes { try layer.receive($0, from: .clientToServer, emit) }
            }
            try layer.endStream(.clientToServer, emit)
            #expect(unread == [UInt64(head.count)], "chunks of \(chunk)")
        }
    }

    /// A response that is no HTTP response, read before the request's head is whole (the
    /// websocket-layer fuzz target, crash-de399373…): the handshake was reported with the
    /// request still unread, and the request's head, completed later, was then counted
    /// nowhere — 102 of 146 client bytes in no event. The client's bytes are unread from 0, as
    /// when a whole response comes first.
    @Test(arguments: [false, true]) func aBadResponseBeforeTheWholeRequestLeavesTheRequestUnread(responseIsWhole: Bool) throws {
        let layer = WebSocketConnectionLayer(limits: WebSocketLimits(), makeInflater: { nil })
        let request = Array("GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n".utf8), frame = Self.frame(0x81, masked: true, [1, 2])
        let response = Array((responseIsWhole ? "garbage\r\n\r\n" : "\r\nUpgrade: websocket\r\n\r\n").utf8)
        var covered: [UInt64] = [0, 0], handshakes = 0
        func emit(_ output: ConnectionLayerOutput<WebSocketEvent>) {
            guard case .event(let event) = output else { return }
            switch event {
            case .handshake(let handshake):
                handshakes += 1
                covered[0] += UInt64(handshake.requestLength)
                covered[1] += UInt64(handshake.responseLength)
            case .frame(let frame): covered[frame.direction.rawValue] += frame.wireLength
            case .unread(let direction, _, let length, _): covered[direction.rawValue] += length
            default: break
            }
        }
        try Array(request[..<10]).withUnsafeBytes { try layer.receive($0, from: .clientToServer, emit) }
        try response.withUnsafeBytes { try layer.receive($0, from: .serverToClient, emit) }
        try (Array(request[10...]) + frame).withUnsafeBytes { try layer.receive($0, from: .clientToServer, emit) }
        for direction in StreamDirection.allCases { try layer.endStream(direction, emit) }
        #expect(handshakes == 1)
        #expect(covered == [UInt64(request.count + frame.count), UInt64(response.count)])
    }

    /// Rejects every input, as zlib does bytes that are not DEFLATE.
    final class FailingInflater: WebSocketInflater {
        func inflate(_ input: UnsafeRawBufferPointer, chunkLimit: Int, _ output: (UnsafeRawBufferPointer) throws -> Void) throws {
            throw WebSocketInflateError(message: "invalid block type")
        }
        func reset() {}
    }

    /// A compressed message that does not inflate is one `inflate_failed`: the restored
    /// 00 00 ff ff tail of a message already broken is not inflated (and refused) again. With
    /// no inflater at all (zlib could not start) it is one too, as the layer's `init` promises,
    /// where the message once passed with no event and length 0.
    @Test(arguments: [true, false]) func aMessageThatDoesNotInflateIsOneViolation(hasInflater: Bool) throws {
        let layer = WebSocketConnectionLayer(makeInflater: { hasInflater ? FailingInflater() : nil })
        var violations: [WebSocketViolation] = []
        func emit(_ output: ConnectionLayerOutput<WebSocketEvent>) {
            if case .event(.violation(let violation)) = output { violations.append(violation) }
        }
        let response = Array("HTTP/1.1 101 Switching Protocols\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n".utf8)
        let request = Array(Self.client[..<Self.client.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound])
        let frames = Self.frame(0xC2, masked: true, [0xFF, 0xFF])
        try request.withUnsafeBytes { try layer.receive($0, from: .clientToServer, emit) }
        try response.withUnsafeBytes { try layer.receive($0, from: .serverToClient, emit) }
        try frames.withUnsafeBytes { try layer.receive($0, from: .clientToServer, emit) }
        #expect(violations.map(\.kind) == [.inflateFailed(hasInflater ? "invalid block type" : "no inflater")])
        #expect(violations.map(\.offset) == [UInt64(request.count)])
    }
}
