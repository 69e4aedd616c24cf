import CZlib
import Foundation
import PacketDecoding
import TestSupport
import Testing

/// `decode --format websocket` on hand-built captures of what loopback traffic from a real
/// library cannot show: every breach of RFC 6455 an event at its frame's offset, never a crash,
/// and every byte of each direction in the handshake, a frame or a `ws_unread`. The frames are
/// built here, byte by byte from RFC 6455 §5.2, independently of the decoder.
@Suite struct WebSocketEndToEndTests {
    static let request = Array("GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8)
    static let response = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n".utf8)
    static let deflateResponse = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n".utf8)

    /// One frame: FIN, RSV bits (0-7), opcode, payload masked with `key` when given; the length
    /// in the shortest form unless `length` forces the 7-bit value 126 or 127, or `declared`
    /// overrides what the header says.
    static func frame(fin: Bool = true, rsv: UInt8 = 0, opcode: UInt8, key: [UInt8]? = nil, _ payload: [UInt8] = [],
                      declared: UInt64? = nil) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
        let length = declared ?? UInt64(payload.count)
        let maskBit: UInt8 = key == nil ? 0 : 0x80
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((length >> UInt64(shift)) & 0xFF)) }
        }
        guard let key else { return bytes + payload }
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    static let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]

    /// A loopback capture of one connection: handshake, then `segments` in order (true: client's), then FINs.
    /// A segment with `resent` over 0 starts that many bytes before its side's next sequence number:
    /// a retransmission of what was sent, with the bytes given (an overlap when they differ).
    static func capture(_ segments: [(client: Bool, bytes: [UInt8])], resent: [Int: Int] = [:]) throws -> String {
        try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: records(segments, resent: resent)))
    }

    /// ``capture(_:resent:)``'s packets, from client port `clientPort`, the first at `start` ms.
    static func records(_ segments: [(client: Bool, bytes: [UInt8])], resent: [Int: Int] = [:], clientPort: UInt16 = 40000,
                        start: Int = 0) -> [CaptureBytes.Record] {
        var records: [CaptureBytes.Record] = []
        var sequence: [UInt32] = [1000, 5000]
        func packet(_ client: Bool, _ flags: TCPFlagsLiteral, _ payload: [UInt8] = [], resent: Int = 0) {
            let side = client ? 0 : 1
            let segment = PacketBuilder.tcp(sourcePort: client ? clientPort : 8765, destinationPort: client ? 8765 : clientPort,
                                            sequence: sequence[side] &- UInt32(bitPattern: Int32(resent)), acknowledgment: sequence[1 - side],
                                            flags: flags.value, payload: payload)
            sequence[side] &+= UInt32(max(payload.count - resent, 0)) + (flags.consumesSequence ? 1 : 0)
            let ip = PacketBuilder.ipv4(source: PacketBuilder.loopbackV4, destination: PacketBuilder.loopbackV4, payload: segment)
            records.append(CaptureBytes.Record(seconds: 1_700_000_000, fraction: UInt32((start + records.count) * 1000),
                                               bytes: PacketBuilder.ethernet(etherType: 0x0800, pad: false, payload: ip)))
        }
        packet(true, .syn)
        packet(false, .synAck)
        packet(true, .ack)
        for (index, (client, bytes)) in segments.enumerated() { packet(client, .data, bytes, resent: resent[index] ?? 0) }
        packet(true, .fin)
        packet(false, .fin)
        packet(true, .ack)
        return records
    }

    static func decode(_ path: String, _ extra: [String] = []) throws -> (status: Int32, records: [[String: Any]]) {
        let result = try FrameDumpProcess.run(["decode", "--format", "websocket", "--json"] + extra + [path])
        return (result.status, try JSONLines.parse(result.stdout))
    }

    /// Every byte of `direction` is in the handshake head, a frame, or a `ws_unread`, once.
    static func accountsForEveryByte(_ records: [[String: Any]], _ direction: String, total: Int) -> Bool {
        var covered = 0
        for record in records where record["dir"] as? String == direction || record["type"] as? String == "ws_handshake" {
            switch record["type"] as? String {
            case "ws_handshake": covered += record[direction == "c2s" ? "request_length" : "response_length"] as? Int ?? 0
            case "ws_frame", "ws_unread": if record["dir"] as? String == direction { covered += record["length"] as? Int ?? 0 }
            default: break
            }
        }
        return covered == total
    }

    static func errors(_ records: [[String: Any]]) -> [String] {
        records.filter { $0["type"] as? String == "ws_error" }.map { "\($0["dir"] as? String ?? "") \($0["offset"] as? Int ?? -1) \($0["reason"] as? String ?? "")" }
    }

    @Test func everyBreachIsAnEventAtItsFrame() throws {
        let c2s = [
            Self.frame(opcode: 0x1, Array("no mask".utf8)),                       // unmasked client frame
            Self.frame(rsv: 0b010, opcode: 0x2, key: Self.key, [1, 2, 3]),         // RSV2 with no extension
            Self.frame(opcode: 0x3, key: Self.key, [9]),                           // reserved opcode
            Self.frame(fin: false, opcode: 0x9, key: Self.key, [7]),               // fragmented ping
            Self.frame(opcode: 0xA, key: Self.key, [UInt8](repeating: 0x41, count: 126)),  // pong payload 126
            Self.frame(opcode: 0x0, key: Self.key, [5]),                           // continuation, no message
            Self.frame(opcode: 0x8, key: Self.key, [0x03]),                        // a 1-byte close
        ]
        let s2c = [Self.frame(opcode: 0x2, key: Self.key, [0xAA, 0xBB])]          // masked server frame
        let path = try Self.capture([(true, Self.request), (false, Self.response)] + c2s.map { (true, $0) } + s2c.map { (false, $0) })
        let (status, records) = try Self.decode(path)
        #expect(status == 2)
        var offset = Self.request.count
        var offsets: [Int] = []
        for frame in c2s {
            offsets.append(offset)
            offset += frame.count
        }
        #expect(Self.errors(records) == [
            "c2s \(offsets[0]) unmasked_client_frame", "c2s \(offsets[1]) reserved_bits", "c2s \(offsets[2]) unknown_opcode",
            "c2s \(offsets[3]) fragmented_control_frame", "c2s \(offsets[4]) control_payload_too_long",
            "c2s \(offsets[5]) unexpected_continuation", "c2s \(offsets[6]) bad_close_payload",
            "s2c \(Self.response.count) masked_server_frame",
        ])
        let frames = records.filter { $0["type"] as? String == "ws_frame" }
        #expect(frames.count == c2s.count + s2c.count)
        #expect(frames.first?["payload_hex"] as? String == Array("no mask".utf8).map { String(format: "%02x", $0) }.joined())
        #expect(frames.last?["payload_hex"] as? String == "aabb")
        #expect(Self.accountsForEveryByte(records, "c2s", total: offset))
        #expect(Self.accountsForEveryByte(records, "s2c", total: Self.response.count + s2c[0].count))
    }

    @Test func aLengthWithItsTopBitSetEndsTheDirection() throws {
        let bad = Self.frame(opcode: 0x2, key: Self.key, declared: 1 << 63)
        let path = try Self.capture([(true, Self.request), (false, Self.response), (true, bad + [1, 2, 3, 4, 5])])
        let (status, records) = try Self.decode(path)
        #expect(status == 2)
        #expect(Self.errors(records) == ["c2s \(Self.request.count) length_top_bit_set"])
        let unread = records.filter { $0["type"] as? String == "ws_unread" }
        #expect(unread.count == 1)
        #expect(unread.first?["offset"] as? Int == Self.request.count)
        #expect(unread.first?["length"] as? Int == bad.count + 5)
        #expect(unread.first?["reason"] as? String == "after_error")
        #expect(Self.accountsForEveryByte(records, "c2s", total: Self.request.count + bad.count + 5))
    }

    /// `--max-frame-length` bounds a WebSocket frame's payload, given or detected.
    @Test(arguments: [true, false])
    func aFrameOverTheLimitIsSkippedAndDecodingGoesOn(given: Bool) throws {
        let big = Self.frame(opcode: 0x2, key: Self.key, [UInt8](repeating: 0x55, count: 5000))
        let next = Self.frame(opcode: 0x1, key: Self.key, Array("after".utf8))
        let path = try Self.capture([(true, Self.request), (false, Self.response), (true, big), (true, next)])
        let result = try FrameDumpProcess.run(["decode", "--json", "--max-frame-length", "1K"] + (given ? ["--format", "websocket"] : []) + [path])
        let (status, records) = (result.status, try JSONLines.parse(result.stdout))
        #expect(status == 2)
        #expect(Self.errors(records) == ["c2s \(Self.request.count) frame_too_long"])
        let frames = records.filter { $0["type"] as? String == "ws_frame" }
        #expect(frames.map { $0["payload_length"] as? Int } == [5000, 5])
        #expect(frames.first?["payload_hex"] as? String == "")
        #expect(frames.last?["payload_hex"] as? String == "6166746572")
        #expect(Self.accountsForEveryByte(records, "c2s", total: Self.request.count + big.count + next.count))
    }

    @Test func bytesAfterACloseAndACutFrameAreUnread() throws {
        let close = Self.frame(opcode: 0x8, key: Self.key, [0x03, 0xE8] + Array("done".utf8))
        let cut = Array(Self.frame(opcode: 0x2, [1, 2, 3, 4, 5, 6]).prefix(5))
        let path = try Self.capture([(true, Self.request), (false, Self.response), (true, close + [0xDE, 0xAD]), (false, cut)])
        let (status, records) = try Self.decode(path)
        #expect(status == 2)
        let closeFrame = records.first { $0["opcode"] as? String == "close" }
        #expect(closeFrame?["close_code"] as? Int == 1000)
        #expect(closeFrame?["close_reason"] as? String == "done")
        let unread = records.filter { $0["type"] as? String == "ws_unread" }.map { "\($0["dir"] as? String ?? "") \($0["offset"] as? Int ?? -1) \($0["length"] as? Int ?? -1) \($0["reason"] as? String ?? "")" }
        #expect(unread.sorted() == ["c2s \(Self.request.count + close.count) 2 after_close", "s2c \(Self.response.count) 5 truncated"])
        #expect(Self.accountsForEveryByte(records, "c2s", total: Self.request.count + close.count + 2))
        #expect(Self.accountsForEveryByte(records, "s2c", total: Self.response.count + 5))
    }

    @Test func aNon101ResponseIsAnEventAndNoFramesFollow() throws {
        let refusal = Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 5\r\n\r\nnope!".utf8)
        let path = try Self.capture([(true, Self.request), (false, refusal)])
        let (status, records) = try Self.decode(path)
        #expect(status == 2)
        let handshake = records.first { $0["type"] as? String == "ws_handshake" }
        #expect(handshake?["status"] as? Int == 403)
        #expect(handshake?["request"] as? String == "GET /chat HTTP/1.1")
        #expect(Self.errors(records) == ["s2c 0 not_switching"])
        #expect(records.filter { $0["type"] as? String == "ws_unread" }.map { $0["length"] as? Int } == [5])
        #expect(Self.accountsForEveryByte(records, "s2c", total: refusal.count))
    }

    @Test func aNonWebSocketConnectionIsOneBadHandshake() throws {
        let path = try Self.capture([(true, Array("\u{16}\u{03}\u{01}not http at all\r\n\r\n".utf8) + [1, 2, 3])])
        let (status, records) = try Self.decode(path)
        #expect(status == 2)
        #expect(Self.errors(records).first?.hasSuffix("bad_handshake") == true)
        #expect(!records.contains { $0["type"] as? String == "ws_frame" })
    }

    /// The heads' text and a close reason are the peers': in text output their control
    /// characters are escaped (`\x1B`), so a capture cannot recolour or retitle the terminal.
    @Test func controlCharactersFromThePeersAreEscaped() throws {
        let request = Array("GET /\u{1B}[31mred HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Protocol: \u{1B}]0;title\u{07}\r\n\r\n".utf8)
        let response = Array("HTTP/1.1 101 S\u{1B}[2J\r\nUpgrade: websocket\r\nSec-WebSocket-Protocol: \u{1B}]0;title\u{07}\r\n\r\n".utf8)
        let close = Self.frame(opcode: 0x8, key: Self.key, [0x03, 0xE8] + Array("\u{1B}[31mbye\u{9B}".utf8))
        let path = try Self.capture([(true, request), (false, response), (true, close)])
        let result = try FrameDumpProcess.run(["decode", "--format", "websocket", "--color", "never", path])
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        #expect(result.stdout.contains("GET /\\x1B[31mred HTTP/1.1 → 101 S\\x1B[2J, subprotocol \\x1B]0;title\\x07"), "\(result.stdout)")
        #expect(result.stdout.contains("close 1000 \"\\x1B[31mbye\\x9B\""), "\(result.stdout)")
    }

    /// Without `--format`, the Upgrade request makes the connection WebSocket's: the same lines
    /// as with `--format websocket`, and a note on standard error; a plain HTTP GET is not.
    /// Without `--inner` the layer consumes every byte, so the engine frames nothing of the
    /// connection: reassembly's notices of it (here an s2c retransmission whose bytes differ)
    /// come as they are, and the run neither waits for a format nor fails for want of one.
    @Test(arguments: [["--format", "websocket"], []])
    func reassemblyNoticesOfAWebSocketConnectionAreReported(_ format: [String]) throws {
        let first = Self.frame(opcode: 0x2, Array("first".utf8))
        let second = Self.frame(opcode: 0x2, Array("second".utf8))
        var altered = first
        altered[altered.count - 1] ^= 0xFF
        let c2s = Self.frame(opcode: 0x2, key: Self.key, [1, 2, 3])
        // The first server frame again, one byte changed, after the second: kept first (the default).
        let path = try Self.capture([(true, Self.request), (false, Self.response), (false, first), (false, second),
                                     (false, altered), (true, c2s)], resent: [4: first.count + second.count])
        let result = try FrameDumpProcess.run(["decode", "--json"] + format + [path])
        let records = try JSONLines.parse(result.stdout)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("no stream starts with data"), "\(result.stderr)")
        let overlaps = records.filter { $0["type"] as? String == "overlap" }
        #expect(overlaps.count == 1)
        #expect(overlaps.first?["dir"] as? String == "s2c")
        #expect(overlaps.first?["offset"] as? Int == Self.response.count + first.count - 1)
        #expect(overlaps.first?["length"] as? Int == 1)
        let frames = records.filter { $0["type"] as? String == "ws_frame" }.map { "\($0["dir"] as? String ?? "") \($0["payload_hex"] as? String ?? "")" }
        #expect(frames == ["s2c " + Self.hex("first"), "s2c " + Self.hex("second"), "c2s 010203"])
        #expect(Self.accountsForEveryByte(records, "s2c", total: Self.response.count + first.count + second.count))
        #expect(!records.contains { $0["type"] as? String == "skip" })
    }

    /// `--inner FORMAT` without `--format`: the connections detected as WebSocket frame their
    /// binary messages' payloads with it — here a spec no preset would detect — while the others
    /// are detected as ever (fefd), and it is not assumed for them.
    @Test func innerWithoutFormatFramesTheDetectedConnections() throws {
        let inner: [UInt8] = [0x00, 0x03] + Array("abc".utf8) + [0x00, 0x01]
        let webSocket = Self.records([(true, Self.request), (false, Self.response),
                                      (true, Self.frame(opcode: 0x2, key: Self.key, Array(inner.prefix(4)))),
                                      (true, Self.frame(opcode: 0x9, key: Self.key, [0x70])),
                                      (true, Self.frame(opcode: 0x2, key: Self.key, Array(inner.dropFirst(4)) + [0x7A]))])
        let fefd: [UInt8] = [0xFE, 0xFD, 0x00, 0x02] + Array("{}".utf8)
        let plain = Self.records([(true, fefd)], clientPort: 40001, start: 100)
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: webSocket + plain))
        let result = try FrameDumpProcess.run(["decode", "--json", "--inner", "len:u16", path])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "frame" }
            .map { "\($0["conn"] as? Int ?? 0) \($0["offset"] as? Int ?? -1) \($0["payload_hex"] as? String ?? "")" }
        #expect(frames == ["1 0 616263", "1 5 7a", "2 0 7b7d"])
        let without = try FrameDumpProcess.run(["decode", "--json", path])
        #expect(!without.stdout.contains("\"type\":\"frame\",\"conn\":1"))
        #expect(without.stdout.contains("\"type\":\"frame\",\"conn\":2"))
    }

    /// `--summary`: a direction that carried only its handshake head says so, with the head's
    /// bytes, rather than "no data".
    @Test func aDirectionWithOnlyTheResponseHeadIsSummarizedAsSuch() throws {
        let c2s = Self.frame(opcode: 0x2, key: Self.key, [1, 2, 3])
        let path = try Self.capture([(true, Self.request), (false, Self.response), (true, c2s)])
        let text = try FrameDumpProcess.run(["decode", "--summary", "--format", "websocket", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("  c2s  websocket  handshake (\(Self.request.count) bytes)  1 frame (\(c2s.count) bytes)  1 message (3 bytes)\n"),
                "\(text.stdout)")
        #expect(text.stdout.contains("  s2c  websocket  handshake (\(Self.response.count) bytes)  0 frames (0 bytes)  0 messages (0 bytes)\n"),
                "\(text.stdout)")
        let json = try FrameDumpProcess.run(["decode", "--summary", "--json", path])
        let summary = try #require(try JSONLines.parse(json.stdout).first { $0["type"] as? String == "summary" })
        let server = (summary["s2c"] as? [String: Any])?["websocket"] as? [String: Int]
        #expect(server?["handshake_bytes"] == Self.response.count && server?["frames"] == 0)
    }

    /// No preset fits the one framed stream, but the WebSocket connection's lines were written:
    /// the run fails as bad input (exit 2), not as a usage error (exit 1), still saying why.
    @Test func noFormatAfterOutputWasWrittenIsBadInput() throws {
        let webSocket = Self.records([(true, Self.request), (false, Self.response), (true, Self.frame(opcode: 0x2, key: Self.key, [1]))])
        let plain = Self.records([(true, Array("hello, world".utf8))], clientPort: 40001, start: 100)
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: webSocket + plain))
        let result = try FrameDumpProcess.run(["decode", "--json", path])
        #expect(result.status == 2)
        #expect(result.stdout.contains("\"type\":\"ws_frame\""))
        #expect(result.stderr.contains("no preset format fits the first bytes of any stream (first: conn 2"), "\(result.stderr)")
        let alone = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: plain))
        let nothingWritten = try FrameDumpProcess.run(["decode", "--json", alone])
        #expect(nothingWritten.status == 1 && nothingWritten.stdout.isEmpty)
    }

    /// Bytes reassembly discards (held behind a hole no ACK covered, past `--max-ooo-bytes`) are
    /// a hole in the layer's input: the layer takes them as a gap (the frames after it are
    /// unread, never read at offsets that leave the lost bytes out), and the `discarded` line
    /// says what reassembly dropped, in TCP offsets.
    @Test func discardedBytesAreAGapInTheLayersInput() throws {
        let first = Self.frame(opcode: 0x2, Array("first".utf8))
        let lost = Self.frame(opcode: 0x2, [UInt8](repeating: 0x41, count: 100))
        let after = (0..<20).map { _ in Self.frame(opcode: 0x2, [UInt8](repeating: 0x42, count: 100)) }
        // The lost frame is never sent: the server's next segments start after it.
        let path = try Self.capture([(true, Self.request), (false, Self.response), (false, first)] + after.map { (false, $0) },
                                    resent: [3: -lost.count])
        let (status, records) = try Self.decode(path, ["--max-ooo-bytes", "1K"])
        #expect(status == 2)
        let start = Self.response.count + first.count
        let discarded = records.filter { $0["type"] as? String == "discarded" }
        #expect(discarded.count == 1)
        #expect(discarded.first?["offset"] as? Int == start)
        let frames = records.filter { $0["type"] as? String == "ws_frame" && $0["dir"] as? String == "s2c" }
        #expect(frames.map { $0["offset"] as? Int } == [Self.response.count])
        let unread = records.filter { $0["type"] as? String == "ws_unread" }
        #expect(unread.map { "\($0["offset"] as? Int ?? -1) \($0["reason"] as? String ?? "")" } == ["\(start) after_gap"])
        #expect(Self.accountsForEveryByte(records, "s2c", total: start + lost.count + after.count * after[0].count))
    }

    static func hex(_ text: String) -> String { Array(text.utf8).map { String(format: "%02x", $0) }.joined() }

    @Test func detectionFindsTheUpgrade() throws {
        let detected = try FrameDumpProcess.run(["decode", "--json", WebSocketCapture.path("ws-plain")])
        let given = try FrameDumpProcess.run(["decode", "--json", "--format", "websocket", WebSocketCapture.path("ws-plain")])
        #expect(detected.status == 0)
        #expect(detected.stdout == given.stdout)
        #expect(detected.stderr.contains("framedump: detected WebSocket from the Upgrade request of conn 1"), "\(detected.stderr)")
        let plainGet = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let path = try Self.capture([(true, plainGet)])
        let lines = try FrameDumpProcess.run(["decode", "--json", "--format", "lines", path])
        #expect(!lines.stdout.contains("ws_"))
        let undetected = try FrameDumpProcess.run(["decode", "--json", path])
        #expect(!undetected.stdout.contains("ws_"))
        #expect(!undetected.stderr.contains("WebSocket"))
    }

    /// A 20 KiB Upgrade request (a browser's with many cookies: 145 `Cookie` fields of about 140
    /// bytes) in MSS-sized segments: over the 16 KiB default it is one `head_too_long` naming the
    /// limit and the option, its bytes unread; with `--max-upgrade-head 32K` it is read, and
    /// the frame after it too.
    @Test func aTwentyKiBHeadNeedsTheLimitRaised() throws {
        var head = "GET /chat HTTP/1.1\r\nHost: app.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for index in 0..<145 { head += "Cookie: session_\(index)=" + String(repeating: "abcdef0123456789", count: 7) + "0123456789\r\n" }
        let request = Array((head + "\r\n").utf8)
        #expect((20 << 10...21 << 10).contains(request.count))
        let frame = Self.frame(opcode: 0x1, key: Self.key, Array("hi".utf8))
        var segments: [(client: Bool, bytes: [UInt8])] = stride(from: 0, to: request.count, by: 1460).map {
            (true, Array(request[$0..<min($0 + 1460, request.count)]))
        }
        segments += [(false, Self.response), (true, frame)]
        let path = try Self.capture(segments)

        let (refused, refusedRecords) = try Self.decode(path)
        #expect(refused == 2)
        let error = refusedRecords.first { $0["type"] as? String == "ws_error" }
        #expect(error?["reason"] as? String == "head_too_long")
        #expect(error?["limit"] as? Int == 16384)
        #expect((error?["detail"] as? String)?.contains("--max-upgrade-head") == true, "\(String(describing: error))")
        #expect(!refusedRecords.contains { $0["type"] as? String == "ws_frame" && $0["dir"] as? String == "c2s" })
        #expect(Self.accountsForEveryByte(refusedRecords, "c2s", total: request.count + frame.count))
        let text = try FrameDumpProcess.run(["decode", "--format", "websocket", "--color", "never", path])
        #expect(text.stdout.contains("16384-byte limit: not read (--max-upgrade-head raises it)"), "\(text.stdout)")

        let (read, records) = try Self.decode(path, ["--max-upgrade-head", "32K"])
        #expect(read == 0)
        #expect(records.first { $0["type"] as? String == "ws_handshake" }?["request_length"] as? Int == request.count)
        let frames = records.filter { $0["type"] as? String == "ws_frame" }
        #expect(frames.map { $0["payload_hex"] as? String } == ["6869"])
        #expect(frames.first?["offset"] as? Int == request.count)

        // The bound is the head's length through its blank line, exactly.
        #expect(try Self.decode(path, ["--max-upgrade-head", "\(request.count)"]).status == 0)
        let (under, underRecords) = try Self.decode(path, ["--max-upgrade-head", "\(request.count - 1)"])
        #expect(under == 2)
        #expect(underRecords.first { $0["type"] as? String == "ws_error" }?["limit"] as? Int == request.count - 1)

        // A lowered limit still lets detection find the Upgrade (it waits for 16 KiB at least):
        // the head is then the layer's head_too_long, not a connection of another protocol.
        let short = try Self.capture([(true, Self.request), (false, Self.response), (true, frame)])
        let lowered = try FrameDumpProcess.run(["decode", "--json", "--max-upgrade-head", "100", short])
        #expect(lowered.status == 2)
        #expect(lowered.stderr.contains("detected WebSocket"), "\(lowered.stderr)")
        #expect(try JSONLines.parse(lowered.stdout).first { $0["type"] as? String == "ws_error" }?["reason"] as? String == "head_too_long")

        // Detection waits for a head as long as the option allows, so the connection is found.
        let detected = try FrameDumpProcess.run(["decode", "--json", "--max-upgrade-head", "32K", path])
        #expect(detected.status == 0, "\(detected.stderr)")
        #expect(detected.stdout == (try FrameDumpProcess.run(["decode", "--json", "--format", "websocket", "--max-upgrade-head", "32K", path])).stdout)
        #expect(detected.stderr.contains("detected WebSocket"), "\(detected.stderr)")
    }

    /// The layer reads captured connections: a hex dump, a live command and `--inner` alone are usage errors.
    @Test(arguments: [
        (["decode", "--format", "websocket", "-"], "not to a hex dump"),
        (["decode", "--inner", "h12", "-"], "--inner applies only to captures' WebSocket connections (decode, capture), not to a hex dump"),
        (["listen", "--format", "websocket", "127.0.0.1:0"], "not to a live command"),
        (["decode", "--format", "h12", "--inner", "h12", "Fixtures/websocket/ws-h12.pcap"], "--inner applies only with --format websocket, or without --format"),
        (["decode", "--format", "websocket", "--inner", "len:u9", "Fixtures/websocket/ws-h12.pcap"], "invalid --inner at column"),
        (["decode", "--format", "h12", "--max-upgrade-head", "32K", "Fixtures/websocket/ws-h12.pcap"], "--max-upgrade-head applies only to WebSocket: with --format websocket, or without --format (detection), not with --format h12"),
        (["decode", "--format", "websocket", "--max-upgrade-head", "0", "Fixtures/websocket/ws-h12.pcap"], "invalid --max-upgrade-head '0'"),
    ])
    func misuseIsAUsageError(_ arguments: [String], _ message: String) throws {
        let result = try FrameDumpProcess.run(arguments, input: Data("fe fd 00 01 41".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// permessage-deflate with the window kept across messages (RFC 7692 §7.2.3.2's "Hello"
    /// examples: the second message refers back into the first).
    @Test func deflatedMessagesInflateWithContextTakeover() throws {
        // RFC 7692 §7.2.3.1 and §7.2.3.2: "Hello" compressed, then "Hello" again with the window.
        let first: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
        let second: [UInt8] = [0xF2, 0x00, 0x11, 0x00, 0x00]
        let path = try Self.capture([(true, Self.request), (false, Self.deflateResponse),
                                     (false, Self.frame(rsv: 0b100, opcode: 0x1, first)), (false, Self.frame(rsv: 0b100, opcode: 0x2, second))])
        let (status, records) = try Self.decode(path)
        #expect(status == 0)
        let messages = records.filter { $0["type"] as? String == "ws_message" }
        #expect(messages.map { $0["payload_hex"] as? String } == ["48656c6c6f", "48656c6c6f"])
        #expect(messages.map { $0["wire_length"] as? Int } == [first.count, second.count])
        #expect(messages.last?["inner_offset"] as? Int == 0)
    }

    /// A deflate bomb: 64 MiB of zeros in a message of about 64 KiB is counted, not held.
    @Test func aDeflateBombIsCountedNotHeld() throws {
        let compressed = try Self.deflated(zeros: 64 << 20)
        let path = try Self.capture([(true, Self.request), (false, Self.deflateResponse),
                                     (false, Self.frame(rsv: 0b100, opcode: 0x2, compressed))])
        let (status, records) = try Self.decode(path, ["--max-frame-length", "1M", "--payload", "none"])
        #expect(status == 2)
        let message = records.first { $0["type"] as? String == "ws_message" }
        #expect(message?["length"] as? Int == 64 << 20)
        let error = records.first { $0["type"] as? String == "ws_error" }
        #expect(error?["reason"] as? String == "message_too_long")
        #expect(error?["dropped"] as? Int == (64 << 20) - (1 << 20))
    }
}

extension WebSocketEndToEndTests {
    /// `count` zero bytes as a permessage-deflate message body: zlib's raw DEFLATE
    /// (`windowBits` -15), sync-flushed, without the final 00 00 ff ff (RFC 7692 §7.2.1).
    static func deflated(zeros count: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw CocoaError(.featureUnsupported) }
        defer { deflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: count)
        var output = [UInt8](repeating: 0, count: count / 500 + 4096)
        let produced = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                _ = deflate(&stream, Z_SYNC_FLUSH)
                return output.count - Int(stream.avail_out)
            }
        }
        #expect(stream.avail_in == 0)
        #expect(Array(output[produced - 4..<produced]) == [0x00, 0x00, 0xFF, 0xFF])
        return Array(output[..<(produced - 4)])
    }
}

/// The TCP flags of the capture builder's packets.
enum TCPFlagsLiteral {
    case syn, synAck, ack, data, fin

    var value: TCPFlags {
        switch self {
        case .syn: [.syn]
        case .synAck: [.syn, .ack]
        case .ack: [.ack]
        case .data: [.ack, .psh]
        case .fin: [.fin, .ack]
        }
    }

    var consumesSequence: Bool { self == .syn || self == .synAck || self == .fin }
}
