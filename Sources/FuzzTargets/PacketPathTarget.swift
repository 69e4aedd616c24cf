import FrameCodec
import PacketDecoding
import StreamFraming

/// libFuzzer target: the capture path below the CLI — link layer, IPv4/IPv6 (with fragment
/// reassembly), TCP header parsing, TCP reassembly under tight limits, and the framing engine
/// the CLI ships (`FramingEngine`, format detected per direction, a small partial-frame budget)
/// on every direction — ending with the parser's, the reassembler's and the engine's `finish`.
///
/// Input: a mode byte (bits 5–6 choose the ``OverlapPolicy``; bit 7 places every packet in
/// memory kept for the whole run, given as ``TCPReassembler/persistentBytes``, so delivered
/// bytes are kept in place rather than copied), then packet records until the
/// input ends. In raw mode a record is a captured packet of the chosen link type (bits 0–2 and
/// 4: sixteen link types, whose frames lead through VLAN tags, MPLS, PPPoE, PPP, Cisco HDLC,
/// PKTAP, and IP tunnels: GRE, VXLAN, IP in IP); in segment mode it describes a TCP segment (one
/// of four connections, either direction, flags, a sequence number near the expected one,
/// payload, bytes cut by the snaplen) that the harness wraps in Ethernet or raw IPv4, so the
/// fuzzer spends its time on reassembly rather than on finding valid headers.
///
/// Checked: for each direction, data, gap and discarded events tile the stream from offset 0
/// (RSTs at any sequence number, taken or ignored, and overlaps under each policy), a close
/// comes at the end of what was delivered and nothing follows it; every connection opens
/// once and closes once; out-of-order memory stays within its limit; the engine's outputs tile
/// each stream it framed from offset 0 (every byte in exactly one frame or event) and end where
/// the stream ended; its partial frames stay within budget; after `finish` nothing is held.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacketPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzedInput(data, size)
    let mode = input.byte()
    let segmentMode = mode & 8 != 0
    // In raw mode bit 4 picks the second row: the PPP family, Cisco HDLC and PKTAP (258, and 149).
    let linkTypes: [LinkType] = [.ethernet, .raw, .null, .loop, .linuxSLL, .linuxSLL2, .ipv4, .ipv6,
                                 .ppp, .pppSerial, .pppOverEthernet, .ciscoHDLC, .pktap, LinkType(rawValue: 149), .ethernet, .raw]
    let linkType = segmentMode ? (mode & 16 == 0 ? .ethernet : .raw) : linkTypes[Int(mode & 7) | Int(mode & 16) >> 1]
    var parser = PacketParser(linkType: linkType)
    let limits = ReassemblyLimits(
        maxOutOfOrderBytesPerDirection: 2048,
        maxOutOfOrderBytesTotal: 4096,
        maxConnections: 3,
        idleTimeoutNanoseconds: 1_000_000_000
    )
    let policies: [OverlapPolicy] = [.first, .last, .linux, .linux]
    var reassembler = TCPReassembler(limits: limits, overlapPolicy: policies[Int(mode >> 5 & 3)])
    // Packets that do not fit any more are read from their own array: a mix the window handles too.
    let arena = UnsafeMutableRawBufferPointer.allocate(byteCount: mode & 0x80 != 0 ? 1 << 18 : 0, alignment: 16)
    defer { arena.deallocate() }
    var arenaUsed = 0
    reassembler.persistentBytes = UnsafeRawBufferPointer(arena)
    var checker = EventChecker()
    var builder = SegmentBuilder()
    var time: Int64 = 1_000_000_000

    while !input.isEmpty {
        let step = input.byte()
        time += step == 0xFF ? 5_000_000_000 : Int64(step) * 1_000_000
        let packet: [UInt8]
        let wireLength: Int
        if segmentMode {
            (packet, wireLength) = builder.next(&input, ethernet: linkType == .ethernet)
        } else {
            packet = input.bytes(input.value(in: 0...1600))
            wireLength = packet.count + Int(input.byte() & 0x3F)
        }
        func handle(_ bytes: UnsafeRawBufferPointer) {
            let result = parser.parse(bytes, wireLength: wireLength, timestamp: Timestamp(nanoseconds: time))
            if case .malformed(_, let offset) = result, offset < 0 || offset > max(bytes.count, wireLength) {
                fatalError("malformed at byte \(offset) of a \(bytes.count)-byte packet")
            }
            _ = parser.process(of: bytes)
            if case .segment(let segment) = result {
                reassembler.process(segment, at: Timestamp(nanoseconds: time)) { checker.receive($0, at: Timestamp(nanoseconds: time)) }
            }
        }
        if arenaUsed + packet.count <= arena.count {
            let placed = UnsafeMutableRawBufferPointer(rebasing: arena[arenaUsed..<(arenaUsed + packet.count)])
            placed.copyBytes(from: packet)
            arenaUsed += packet.count
            handle(UnsafeRawBufferPointer(placed))
        } else {
            packet.withUnsafeBytes(handle)
        }
        if reassembler.outOfOrderBytesHeld > limits.maxOutOfOrderBytesTotal {
            fatalError("out-of-order bytes held \(reassembler.outOfOrderBytesHeld) > limit \(limits.maxOutOfOrderBytesTotal)")
        }
        _ = parser.takeDefragmentationDrops()
    }
    parser.finish()
    reassembler.finish { checker.receive($0, at: Timestamp(nanoseconds: time)) }
    checker.finish()
    guard reassembler.outOfOrderBytesHeld == 0, reassembler.trackedConnectionCount == 0 else {
        fatalError("after finish: \(reassembler.outOfOrderBytesHeld) out-of-order bytes held, \(reassembler.trackedConnectionCount) connections tracked")
    }
    return 0
}

/// Checks the reassembler's event sequence, feeds it to a ``FramingEngine`` and checks that
/// the engine's outputs account for every byte of every stream it framed.
private struct EventChecker {
    private struct Direction {
        /// Stream bytes the reassembler delivered (data and gaps).
        var cursor: UInt64 = 0
        var closed = false
    }

    /// Where each stream's next engine output must start.
    private final class Outputs {
        var next: [StreamKey: UInt64] = [:]
    }

    private var open: [Int: [Direction]] = [:]
    private var closed = Set<Int>()
    private var lastOpened = 0
    /// Small budgets, so the fuzzer reaches the partial-frame limit and the undecided-bytes limit.
    private var engine = FramingEngine<Void>(configuration: FramingConfiguration(maxBufferedBytes: 512, maxUndecidedBytes: 1024))
    private let outputs = Outputs()
    /// Set once the engine gave up detecting a format: it is not fed after that.
    private var detectionFailed = false

    mutating func receive(_ event: ReassemblyEvent, at time: Timestamp) {
        check(event)
        guard !detectionFailed else { return }
        let outputs = self.outputs
        do {
            try engine.consume(event, at: time, contexts: { _, _, _ in ((), ()) }) { framing in
                guard let (key, offset, byteCount) = Self.placed(framing) else { return }
                let expected = outputs.next[key, default: 0]
                guard offset == expected, byteCount > 0 else {
                    fatalError("\(key): output at \(offset)+\(byteCount), expected at \(expected)")
                }
                outputs.next[key] = expected + byteCount
            }
        } catch {
            detectionFailed = true
        }
        if engine.bufferedBytes > engine.configuration.maxBufferedBytes {
            fatalError("partial frames hold \(engine.bufferedBytes) bytes > budget \(engine.configuration.maxBufferedBytes)")
        }
    }

    /// The stream range an engine event takes: an output's, or a `discarded` notice's.
    private static func placed(_ event: FramingEvent<Void>) -> (StreamKey, UInt64, UInt64)? {
        switch event {
        case .output(let output, let stream): (stream.key, output.offset, output.byteCount)
        case .notice(.discarded(let offset, let length, _), let stream): (stream.key, offset, length)
        default: nil
        }
    }

    private mutating func check(_ event: ReassemblyEvent) {
        switch event {
        case .connectionOpened(let connection, _, _, _):
            guard connection > lastOpened, open[connection] == nil, !closed.contains(connection) else {
                fatalError("connection \(connection) opened again or out of order (last opened \(lastOpened))")
            }
            lastOpened = connection
            open[connection] = [Direction(), Direction()]
        case .data(let connection, let direction, let offset, let bytes):
            update(connection, direction, "data at \(offset)") { stream in
                guard offset == stream.cursor, !stream.closed, bytes.count > 0 else {
                    fatalError("\(bytes.count) data bytes at \(offset), stream at \(stream.cursor), closed \(stream.closed)")
                }
                stream.cursor += UInt64(bytes.count)
            }
        case .gap(let connection, let direction, let offset, let length, _):
            update(connection, direction, "gap at \(offset)") { stream in
                guard offset == stream.cursor, !stream.closed, length > 0 else {
                    fatalError("gap of \(length) at \(offset), stream at \(stream.cursor), closed \(stream.closed)")
                }
                stream.cursor += length
            }
        case .directionClosed(let connection, let direction, let offset, _):
            update(connection, direction, "close at \(offset)") { stream in
                guard offset == stream.cursor, !stream.closed else {
                    fatalError("direction closed at \(offset), stream at \(stream.cursor), closed before: \(stream.closed)")
                }
                stream.closed = true
            }
        case .connectionClosed(let summary, _):
            guard open.removeValue(forKey: summary.connection) != nil else {
                fatalError("connection \(summary.connection) closed but not open")
            }
            closed.insert(summary.connection)
        case .connectionForgotten(let summary):
            guard closed.contains(summary.connection), open[summary.connection] == nil else {
                fatalError("connection \(summary.connection) forgotten but not closed before")
            }
        case .limitHit(_, let connection, _):
            guard open[connection] != nil else { fatalError("limit hit for connection \(connection), which is not open") }
        case .notice(.discarded(let offset, let length, let captured), let connection, let direction):
            update(connection, direction, "discarded at \(offset)") { stream in
                guard offset == stream.cursor, !stream.closed, length > 0, captured <= length else {
                    fatalError("discarded \(length) (\(captured) captured) at \(offset), stream at \(stream.cursor), closed \(stream.closed)")
                }
                stream.cursor += length
            }
        case .notice(.resetIgnored(let sequenceNumber, let expected), let connection, _):
            guard open[connection] != nil, sequenceNumber != expected else {
                fatalError("RST at \(sequenceNumber) ignored with \(expected) expected, connection \(connection)")
            }
        case .notice(.overlap(_, let length, _), let connection, _):
            guard open[connection] != nil, length > 0 else { fatalError("overlap of \(length) bytes, connection \(connection)") }
        case .notice(.outOfWindow(_, _, let byteCount), let connection, _):
            guard open[connection] != nil, byteCount > 0 else { fatalError("out of window: \(byteCount) bytes, connection \(connection)") }
        }
    }

    private mutating func update(_ connection: Int, _ direction: StreamDirection, _ what: String, _ body: (inout Direction) -> Void) {
        guard open[connection] != nil else { fatalError("\(what) for connection \(connection), which is not open") }
        body(&open[connection]![direction.rawValue])
        delivered[StreamKey(connection: connection, direction: direction)] = open[connection]![direction.rawValue].cursor
    }

    /// Bytes the reassembler delivered per stream, for the final check.
    private var delivered: [StreamKey: UInt64] = [:]

    mutating func finish() {
        guard open.isEmpty else { fatalError("connections \(open.keys.sorted()) never closed") }
        if !detectionFailed {
            let outputs = self.outputs
            do {
                try engine.finish { framing in
                    guard let (key, _, byteCount) = Self.placed(framing) else { return }
                    outputs.next[key] = outputs.next[key, default: 0] + byteCount
                }
            } catch {
                detectionFailed = true
            }
        }
        // A failed detection ends the run, as it ends `decode`: the engine is not fed after it.
        guard !detectionFailed else { return }
        guard engine.openConnectionCount == 0, engine.bufferedBytes == 0 else {
            fatalError("after finish: \(engine.openConnectionCount) connections open, \(engine.bufferedBytes) bytes buffered")
        }
        // Every stream the engine framed ends where the reassembler's stream ended.
        for (key, end) in delivered where end > 0 && outputs.next[key, default: 0] != end {
            fatalError("\(key): outputs end at \(outputs.next[key, default: 0]), stream at \(end)")
        }
    }
}

/// Wraps input-described TCP segments in IPv4 (and Ethernet) headers.
private struct SegmentBuilder {
    /// Next sequence number per connection (4) and direction (2), from an input ISN.
    private var next: [UInt32?] = Array(repeating: nil, count: 8)

    mutating func next(_ input: inout FuzzedInput, ethernet: Bool) -> (packet: [UInt8], wireLength: Int) {
        let selector = input.byte()
        let connection = Int(selector & 3)
        let reverse = selector & 4 != 0
        let flags = input.byte()
        let slot = connection * 2 + (reverse ? 1 : 0)
        let base = next[slot] ?? UInt32(truncatingIfNeeded: input.integer(width: 4))
        // Mostly in order; sometimes behind (retransmission, overlap) or ahead (out of order).
        let shift = selector & 0x80 != 0 ? Int32(Int16(bitPattern: UInt16(input.integer(width: 2)))) : 0
        let sequence = base &+ UInt32(bitPattern: shift)
        let acknowledgment = (next[slot ^ 1] ?? 0) &+ UInt32(bitPattern: Int32(Int8(bitPattern: input.byte())))
        let payload = input.bytes(input.value(in: 0...300))
        let cut = Int(input.byte() & 0x1F) % (payload.count + 1)
        let advance = payload.count + (flags & 0x03 != 0 ? 1 : 0)  // SYN and FIN take a sequence number
        if shift == 0 { next[slot] = sequence &+ UInt32(advance) } else if next[slot] == nil { next[slot] = base }

        let client: [UInt8] = [10, 0, 0, 1], server: [UInt8] = [10, 0, 0, 2]
        let clientPort = UInt16(40000 + connection), serverPort: UInt16 = 443
        let (source, destination) = reverse ? (server, client) : (client, server)
        let (sourcePort, destinationPort) = reverse ? (serverPort, clientPort) : (clientPort, serverPort)
        let totalLength = 20 + 20 + payload.count
        var packet: [UInt8] = ethernet ? [2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00] : []
        packet += [0x45, 0, UInt8(totalLength >> 8), UInt8(totalLength & 0xFF), 0, 1, 0x40, 0, 64, 6, 0, 0]
        packet += source + destination
        packet += [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF)]
        for value in [sequence, acknowledgment] {
            packet += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
        packet += [0x50, flags, 0xFF, 0xFF, 0, 0, 0, 0]
        packet += payload
        let wireLength = packet.count
        packet.removeLast(cut)
        return (packet, wireLength)
    }
}
