import FrameFuzzing
import PacketDecoding
import WebSocketFraming

/// One case of `framedump fuzz --target websocket`: a random WebSocket conversation written by
/// the library's own writers (``WebSocketUpgrade``, ``WebSocketMessageEncoder``), optionally
/// damaged, and a random way of feeding its two directions to a ``WebSocketConnectionLayer``.
///
/// ```
/// seed ─> scripts (messages, fragments, control frames between them, close) ─> c2s, s2c bytes
///      ─> damage? ─> chunks of both directions, interleaved ─> WebSocketConnectionLayer ─> check
/// ```
///
/// An undamaged case must decode to exactly what was written: the handshake, every frame (its
/// offset, length, FIN, RSV bits, opcode, masking key and payload as sent), every message
/// (opcode, frame count, lengths, inflated payload) and each direction's inner stream (binary
/// message payloads, uncompressed), with no violation and nothing unread. A damaged one
/// (``Damage``) must only keep the layer's promises: each direction ends once and nothing comes
/// after its end; every byte of a direction is in its head, a frame or an unread range, exactly
/// once; kept payloads and inflated messages stay within the limits.
///
/// Compression needs zlib, which this module (standard library only) does not link: the caller
/// passes the deflater and inflater (the CLI's are zlib's), and the `Sec-WebSocket-Accept`
/// function (SHA-1 is libcrypto's).
public struct WebSocketFuzzCase {
    /// The seed everything in the case is drawn from; `--seed SEED --iterations 1` runs it again.
    public let seed: UInt64
    /// Whether permessage-deflate is agreed.
    public let deflate: Bool
    /// Whether `*_no_context_takeover` is agreed (each compressed message starts afresh).
    public let noContextTakeover: Bool
    /// What was done to the bytes; empty for a valid case.
    public private(set) var damage: [Damage] = []
    /// Each direction's bytes (by ``StreamDirection/rawValue``), head included.
    public private(set) var streams: [[UInt8]] = [[], []]
    /// The feeding order: which direction, how many bytes.
    public private(set) var chunks: [(direction: StreamDirection, count: Int)] = []
    /// The frames written, by direction (valid cases are checked against them).
    var frames: [[ExpectedFrame]] = [[], []]
    var messages: [[ExpectedMessage]] = [[], []]
    var inner: [[UInt8]] = [[], []]
    var headLengths = [0, 0]

    /// The layer's bounds in every case: small enough that oversize lengths are reached.
    public static let limits = WebSocketLimits(maxFramePayload: 256 << 10, maxMessageLength: 1 << 20, maxHandshakeBytes: 4096)

    /// Ways a case is damaged. Some are made while writing (a frame written wrongly), the others
    /// on the written bytes.
    public enum Damage: Sendable, Equatable, CustomStringConvertible {
        /// A frame with a reserved opcode (0x3-0x7, 0xB-0xF).
        case badOpcode(StreamDirection, frame: Int)
        /// A frame with RSV2 or RSV3 set.
        case reservedBits(StreamDirection, frame: Int)
        /// A client frame without a mask.
        case unmaskedClientFrame(frame: Int)
        /// A binary frame header declaring `length` bytes (over the limit, or with the top bit
        /// set), before the frame written there: what follows is read as its payload.
        case oversizeLength(StreamDirection, frame: Int, length: UInt64)
        /// A compressed frame's payload replaced by random bytes.
        case garbageInflateData(StreamDirection, frame: Int)
        /// One byte XORed with `mask`.
        case flipBits(StreamDirection, at: Int, mask: UInt8)
        /// The direction cut at `at` bytes.
        case truncate(StreamDirection, at: Int)

        public var description: String {
            switch self {
            case .badOpcode(let direction, let frame): "bad opcode (\(direction) frame \(frame))"
            case .reservedBits(let direction, let frame): "reserved bits (\(direction) frame \(frame))"
            case .unmaskedClientFrame(let frame): "unmasked client frame \(frame)"
            case .oversizeLength(let direction, let frame, let length): "length \(length) (\(direction) frame \(frame))"
            case .garbageInflateData(let direction, let frame): "garbage inflate data (\(direction) frame \(frame))"
            case .flipBits(let direction, let at, let mask): "bit flip 0x\(String(mask, radix: 16)) at \(direction) byte \(at)"
            case .truncate(let direction, let at): "\(direction) cut at byte \(at)"
            }
        }
    }

    struct ExpectedFrame: Equatable {
        var offset: Int
        var wireLength: Int
        var fin: Bool
        var rsv: UInt8
        var opcode: WebSocketOpcode
        var maskKey: UInt32?
        var payload: [UInt8]
    }

    struct ExpectedMessage: Equatable {
        var offset: Int
        var opcode: WebSocketOpcode
        var frames: Int
        var wireLength: Int
        var length: Int
        var compressed: Bool
        var inflated: [UInt8]
        var innerOffset: Int?
    }

    /// Draws the case from `seed` and writes its bytes.
    ///
    /// - Parameters:
    ///   - seed: The case seed.
    ///   - makeDeflater: Makes a direction's deflater; `nil` from it: the case is not compressed.
    ///   - accept: `Sec-WebSocket-Accept` for a key (RFC 6455 §4.2.2).
    /// - Throws: What the deflater throws.
    public init(seed: UInt64, makeDeflater: () -> (any WebSocketDeflater)?, accept: (String) -> String) throws {
        self.seed = seed
        var random = FuzzRandom(seed: seed)
        let deflaters = random.chance(1, in: 2) ? StreamDirection.allCases.compactMap { _ in makeDeflater() } : []
        deflate = deflaters.count == 2
        noContextTakeover = deflate && random.chance(1, in: 3)
        let damaged = random.chance(1, in: 2)
        let key = WebSocketUpgrade.sampleKey
        let upgrade = WebSocketUpgrade(path: "/fuzz", host: "127.0.0.1:7777", key: key, accept: accept(key),
                                       deflate: deflate, noContextTakeover: noContextTakeover)
        streams = [upgrade.request, upgrade.response]
        headLengths = [streams[0].count, streams[1].count]
        for direction in StreamDirection.allCases {
            var encoder = WebSocketMessageEncoder(deflater: deflate ? deflaters[direction.rawValue] : nil, resetsWindow: noContextTakeover)
            try writeDirection(direction, encoder: &encoder, damaged: damaged, random: &random)
        }
        if damaged {
            // At least one step, when writing damaged nothing.
            for _ in 0..<Int.random(in: (damage.isEmpty ? 1 : 0)...2, using: &random) {
                let direction = StreamDirection(rawValue: Int.random(in: 0...1, using: &random))!
                guard !streams[direction.rawValue].isEmpty else { continue }
                let at = Int.random(in: 0..<streams[direction.rawValue].count, using: &random)
                if random.chance(1, in: 3) {
                    damage.append(.truncate(direction, at: at))
                    streams[direction.rawValue].removeSubrange(at...)
                } else {
                    let mask = UInt8.random(in: 1...255, using: &random)
                    damage.append(.flipBits(direction, at: at, mask: mask))
                    streams[direction.rawValue][at] ^= mask
                }
            }
        }
        chunks = Self.chunking(streams.map(\.count), heads: damage.isEmpty ? headLengths : [0, 0], random: &random)
    }

    /// Writes one direction's messages, control frames between and after them, and maybe a close.
    private mutating func writeDirection(_ direction: StreamDirection, encoder: inout WebSocketMessageEncoder, damaged: Bool,
                                         random: inout FuzzRandom) throws {
        let side = direction.rawValue
        let masks = direction == .clientToServer
        var frameIndex = 0
        func randomMask() -> UInt32? { masks ? UInt32(truncatingIfNeeded: random.next()) : nil }
        func write(_ opcode: WebSocketOpcode, fin: Bool, payload: [UInt8], compress: Bool = false) throws {
            var rsv: UInt8 = 0
            var maskKey = randomMask()
            var writtenOpcode = opcode
            if damaged, random.chance(1, in: 12) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    writtenOpcode = WebSocketOpcode(rawValue: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF][Int.random(in: 0..<10, using: &random)])
                    damage.append(.badOpcode(direction, frame: frameIndex))
                case 1:
                    rsv = random.chance(1, in: 2) ? 0b010 : 0b001
                    damage.append(.reservedBits(direction, frame: frameIndex))
                case 2 where masks:
                    maskKey = nil
                    damage.append(.unmaskedClientFrame(frame: frameIndex))
                default:
                    let length = random.chance(1, in: 2) ? UInt64(Self.limits.maxFramePayload) + 1 + random.next() % 100_000 : random.next() | 1 << 63
                    var header: [UInt8] = [0x82, (maskKey == nil ? 0 : 0x80) | 127]
                    for shift in stride(from: 56, through: 0, by: -8) { header.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
                    if let maskKey { header += [UInt8(maskKey >> 24), UInt8(truncatingIfNeeded: maskKey >> 16), UInt8(truncatingIfNeeded: maskKey >> 8), UInt8(truncatingIfNeeded: maskKey)] }
                    streams[side] += header
                    damage.append(.oversizeLength(direction, frame: frameIndex, length: length))
                    frameIndex += 1
                }
            }
            let offset = streams[side].count
            var sent = try encoder.append(opcode: writtenOpcode, fin: fin, rsv: rsv, maskKey: maskKey, payload: payload,
                                          compress: compress, to: &streams[side])
            if damaged, !sent.isEmpty, compress, deflate, random.chance(1, in: 6) {
                // Replace the compressed payload, masked as the frame was: the header stays right.
                let garbage = random.bytes(sent.count)
                let payloadStart = streams[side].count - sent.count
                for index in 0..<garbage.count {
                    let keyByte = maskKey.map { UInt8(truncatingIfNeeded: $0 >> UInt32(24 - 8 * (index & 3))) } ?? 0
                    streams[side][payloadStart + index] = garbage[index] ^ keyByte
                }
                sent = garbage
                damage.append(.garbageInflateData(direction, frame: frameIndex))
            }
            frames[side].append(ExpectedFrame(offset: offset, wireLength: streams[side].count - offset, fin: fin,
                                              rsv: rsv | (compress && deflate && (opcode == .text || opcode == .binary) ? 0b100 : 0),
                                              opcode: writtenOpcode, maskKey: maskKey, payload: sent))
            frameIndex += 1
        }
        func control() throws {
            let opcode: WebSocketOpcode = random.chance(1, in: 2) ? .ping : .pong
            try write(opcode, fin: true, payload: random.bytes(Int(random.edgy(in: 0...125))))
        }
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let opcode: WebSocketOpcode = random.chance(2, in: 3) ? .binary : .text
            let payload = Self.payload(&random)
            let compress = deflate && random.chance(3, in: 4)
            var cuts = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0...payload.count, using: &random) }.sorted()
            cuts.append(payload.count)
            let offset = streams[side].count
            var start = 0
            var wireLength = 0
            let innerOffset = opcode == .binary ? inner[side].count : nil
            for (index, end) in cuts.enumerated() {
                try write(index == 0 ? opcode : .continuation, fin: index == cuts.count - 1, payload: Array(payload[start..<end]), compress: compress)
                wireLength += frames[side].last!.payload.count
                start = end
                if index < cuts.count - 1, random.chance(1, in: 3) { try control() }
            }
            messages[side].append(ExpectedMessage(offset: offset, opcode: opcode, frames: cuts.count, wireLength: wireLength,
                                                  length: payload.count, compressed: compress, inflated: compress ? payload : [],
                                                  innerOffset: innerOffset))
            if opcode == .binary { inner[side] += payload }
            if random.chance(1, in: 4) { try control() }
        }
        if random.chance(1, in: 2) {
            let code = UInt16.random(in: 1000...4999, using: &random)
            try write(.close, fin: true, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye".utf8).prefix(Int.random(in: 0...3, using: &random)))
        }
    }

    /// A message payload: mostly short, sometimes across the 16-bit and 64-bit length forms;
    /// random bytes or a repeated pattern (which compresses).
    private static func payload(_ random: inout FuzzRandom) -> [UInt8] {
        let length: Int = switch Int.random(in: 0..<10, using: &random) {
        case 0: Int(random.edgy(in: 125...126))
        case 1: Int(random.edgy(in: 65_535...65_536)) + Int.random(in: 0...3_000, using: &random)
        default: Int.random(in: 0...400, using: &random)
        }
        guard random.chance(1, in: 2) else { return random.bytes(length) }
        let pattern = random.bytes(Int.random(in: 1...12, using: &random))
        return (0..<length).map { pattern[$0 % pattern.count] }
    }

    /// Chunks of both directions, interleaved at random, after the heads: the request's bytes,
    /// then the response's (`heads`; none for a damaged case). RFC 6455 §4.1 has a client wait
    /// for the response before it sends frames, so a capture shows them in that order, and the
    /// layer knows whether RSV1 is permessage-deflate's only once the response is read.
    private static func chunking(_ counts: [Int], heads: [Int], random: inout FuzzRandom) -> [(direction: StreamDirection, count: Int)] {
        let mode = Int.random(in: 0..<4, using: &random)
        func size(_ left: Int) -> Int {
            switch mode {
            case 0: left
            case 1 where counts.reduce(0, +) < 20_000: 1
            default: min(left, Int.random(in: 1...(mode == 2 ? 64 : 4000), using: &random))
            }
        }
        var left = counts
        var chunks: [(direction: StreamDirection, count: Int)] = []
        for direction in StreamDirection.allCases {
            var headLeft = min(heads[direction.rawValue], counts[direction.rawValue])
            while headLeft > 0 {
                let count = size(headLeft)
                chunks.append((direction, count))
                headLeft -= count
                left[direction.rawValue] -= count
            }
        }
        while left[0] + left[1] > 0 {
            let side = left[0] == 0 ? 1 : left[1] == 0 ? 0 : Int.random(in: 0...1, using: &random)
            let count = size(left[side])
            chunks.append((StreamDirection(rawValue: side)!, count))
            left[side] -= count
        }
        return chunks
    }
}
