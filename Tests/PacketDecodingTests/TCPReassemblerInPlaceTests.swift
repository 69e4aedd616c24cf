import TestSupport
import PacketDecoding
import Testing

/// Delivered bytes kept in place (``TCPReassembler/persistentBytes``) instead of copied: the
/// events must be those of the copying reassembler, and the window must not copy.
@Suite("TCPReassembler, delivered bytes kept in place")
struct TCPReassemblerInPlaceTests {
    static let stream = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }

    /// The stream in `size`-byte segments after a SYN at ISN 99, none acknowledged.
    static func sendInOrder(_ harness: inout ReassemblyHarness, upTo end: Int = stream.count, size: Int = 1000) {
        harness.send(seq: 99, [.syn])
        for start in stride(from: 0, to: end, by: size) {
            harness.send(seq: 100 + UInt32(start), Array(stream[start..<min(end, start + size)]))
        }
    }

    @Test("a retransmission that differs from bytes kept in place is a notice at the byte that differs")
    func differingRetransmission() {
        var harness = ReassemblyHarness(arenaCapacity: 1 << 20)
        Self.sendInOrder(&harness, upTo: 10_000)
        var copy = Array(Self.stream[3_500..<4_800])
        copy[1_000 - 500] ^= 0xFF  // stream offset 4,000
        copy[1_100 - 500] ^= 0x01  // stream offset 4,100
        harness.send(seq: 100 + 3_500, copy)
        harness.send(seq: 100 + 6_000, Array(Self.stream[6_000..<7_000]))
        #expect(harness.notices() == [.overlap(offset: 4_000, length: 101, kept: .earlier)])
        // Kept in place: ten 1,000-byte payloads cost their pieces, not 10,000 bytes of copies.
        #expect(harness.reassembler.retainedBytesHeld > 0)
        #expect(harness.reassembler.retainedBytesHeld < 1_000)
    }

    @Test("the same stream read from temporary buffers copies what it keeps")
    func copiedWindowCost() {
        var harness = ReassemblyHarness()
        Self.sendInOrder(&harness, upTo: 10_000)
        #expect(harness.reassembler.retainedBytesHeld >= 10_000)
    }

    @Test("bytes kept in place, then copied bytes after them, then more in place: a retransmission over all three is compared")
    func mixedWindow() {
        var harness = ReassemblyHarness(arenaCapacity: 1 << 20)
        Self.sendInOrder(&harness, upTo: 3_000)
        harness.placesInArena = false
        harness.send(seq: 100 + 3_000, Array(Self.stream[3_000..<4_000]))
        harness.placesInArena = true
        harness.send(seq: 100 + 4_000, Array(Self.stream[4_000..<5_000]))
        var copy = Array(Self.stream[0..<5_000])
        copy[2_999] ^= 0x80
        copy[4_500] ^= 0x80
        harness.send(seq: 100, copy)
        #expect(harness.notices() == [.overlap(offset: 2_999, length: 1_502, kept: .earlier)])
    }

    @Test("ACKs trim a window kept in place; bytes acknowledged are no longer compared")
    func acknowledgedBytesAreNotCompared() {
        var harness = ReassemblyHarness(arenaCapacity: 1 << 20)
        Self.sendInOrder(&harness, upTo: 5_000)
        harness.send(server, client, seq: 1, ack: 100 + 2_500)
        var copy = Array(Self.stream[2_000..<3_000])
        copy[100] ^= 1  // offset 2,100: acknowledged, so not kept
        copy[900] ^= 1  // offset 2,900: kept
        harness.send(seq: 100 + 2_000, copy)
        #expect(harness.notices() == [.overlap(offset: 2_900, length: 1, kept: .earlier)])
    }

    @Test("random streams, retransmissions with changed bytes, ACKs and small per-direction limits: kept in place, copied, or a mix, the events are the same",
          arguments: 0..<150)
    func sameEventsEitherWay(seed: UInt64) {
        var random = FuzzRandom(seed: seed &+ 7_000)
        let length = Int.random(in: 0...6000, using: &random)
        let stream = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Tiny segments now and then, so that the pieces' own memory passes small capacities.
        let maxSize = [4, 40, 300, 1448].randomElement(using: &random)!
        var sends: [(seq: UInt32, ack: UInt32?, payload: [UInt8], inArena: Bool)] = []
        var cursor = 0
        while cursor < length {
            let size = min(length - cursor, Int.random(in: 1...maxSize, using: &random))
            sends.append((100 + UInt32(cursor), nil, Array(stream[cursor..<(cursor + size)]), Bool.random(using: &random)))
            cursor += size
            if Int.random(in: 0..<3, using: &random) == 0 {
                // A retransmission of recent delivered bytes, sometimes with some of them changed.
                let start = Int.random(in: max(0, cursor - 3000)..<cursor, using: &random)
                var copy = Array(stream[start..<min(cursor, start + Int.random(in: 1...1500, using: &random))])
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    copy[Int.random(in: 0..<copy.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
                }
                sends.append((100 + UInt32(start), nil, copy, Bool.random(using: &random)))
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                sends.append((1, 100 + UInt32(Int.random(in: 0...cursor, using: &random)), [], false))
            }
        }
        // The total bound stays out of reach: bytes kept in place cost less of it, so where it
        // binds the two ways keep different amounts (documented on `persistentBytes`).
        let limits = ReassemblyLimits(maxRetainedBytesPerDirection: Int.random(in: 0...5000, using: &random))
        func run(_ mode: Int) -> ReassemblyHarness {
            var harness = ReassemblyHarness(limits: limits, arenaCapacity: mode == 0 ? 0 : 1 << 20)
            harness.send(seq: 99, [.syn])
            for send in sends {
                if let ack = send.ack {
                    harness.send(server, client, seq: send.seq, ack: ack)
                } else {
                    harness.placesInArena = mode == 1 || (mode == 2 && send.inArena)
                    harness.send(seq: send.seq, send.payload)
                }
            }
            harness.send(seq: 100 + UInt32(length), [.fin])
            harness.finish()
            return harness
        }
        let copied = run(0)
        let intact = copied.stream() == stream.map { $0 }
        #expect(intact)
        for mode in 1...2 {
            let same = run(mode).events == copied.events
            #expect(same, "mode \(mode)")
        }
    }

    @Test("one-byte segments are copied, not kept as pieces larger than they are, and a changed retransmission is still noticed")
    func tinySegmentsAreCopied() {
        var harness = ReassemblyHarness(arenaCapacity: 1 << 20)
        Self.sendInOrder(&harness, upTo: 8_000, size: 1)
        // 8,000 pieces would take 128 KB for 8,000 bytes: the bytes were copied instead.
        #expect(harness.reassembler.retainedBytesHeld >= 8_000)
        #expect(harness.reassembler.retainedBytesHeld < 16_000)
        var copy = Array(Self.stream[7_000..<8_000])
        copy[999] ^= 0x55
        harness.send(seq: 100 + 7_000, copy)
        #expect(harness.notices() == [.overlap(offset: 7_999, length: 1, kept: .earlier)])
    }

    /// What the window is charged must not depend on the heap: the arrays' own capacity is the
    /// allocator's rounding of what was asked (`malloc_usable_size`, which varies with the
    /// heap's state, so with other threads' timing), and charging it made the 16 MiB total —
    /// and so which retransmissions are compared — differ from run to run on one capture.
    @Test("the window is charged the capacity it asked for: the bytes, doubling as it grows, whatever the allocator rounds to")
    func costIsWhatWasAskedFor() {
        var harness = ReassemblyHarness()
        harness.send(seq: 99, [.syn])
        // 1,001 bytes: an allocation the allocator rounds up (to a multiple of 16, and more
        // when it splits a larger free chunk).
        harness.send(seq: 100, Array(Self.stream[0..<1_001]))
        #expect(harness.reassembler.retainedBytesHeld == 1_001)
        harness.send(seq: 100 + 1_001, Array(Self.stream[1_001..<1_002]))
        #expect(harness.reassembler.retainedBytesHeld == 2_002)
        harness.send(seq: 100 + 1_002, Array(Self.stream[1_002..<3_500]))
        #expect(harness.reassembler.retainedBytesHeld == 4_004)

        var inPlace = ReassemblyHarness(arenaCapacity: 1 << 20)
        Self.sendInOrder(&inPlace, upTo: 3_000, size: 1_000)
        // Three pieces (an address and a length: 16 bytes each): room asked for one, two, four.
        #expect(inPlace.reassembler.retainedBytesHeld == 4 * 16)
    }

    /// A retransmission is compared from the piece that holds its first byte, found by a
    /// binary search over the pieces' ends: a walk from the oldest of 4,000 pieces made every
    /// short retransmission at the window's end cost 4,000 steps (20 times slower than copies).
    @Test("4,000 pieces of 16 bytes: retransmissions at the first, a middle and the last piece, and across pieces, are compared byte for byte",
          arguments: [0, 15, 16, 17, 31_999, 32_000, 63_984, 63_998])
    func retransmissionAmongManyPieces(changed: Int) {
        let stream = (0..<64_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        var harness = ReassemblyHarness(arenaCapacity: 1 << 20)
        harness.send(seq: 99, [.syn])
        for start in stride(from: 0, to: stream.count, by: 16) {
            harness.send(seq: 100 + UInt32(start), Array(stream[start..<(start + 16)]))
        }
        // The retransmission: 3 bytes from the one before the changed byte (from it at offset 0).
        let from = max(0, changed - 1)
        var copy = Array(stream[from..<(from + 3)])
        copy[changed - from] ^= 0x20
        harness.send(seq: 100 + UInt32(from), copy)
        #expect(harness.notices() == [.overlap(offset: UInt64(changed), length: 1, kept: .earlier)])
        // An unchanged copy: no notice.
        harness.send(seq: 100 + UInt32(from), Array(stream[from..<(from + 3)]))
        #expect(harness.notices().count == 1)
    }
}
