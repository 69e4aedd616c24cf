import PacketCapture
import PacketDecoding
import Foundation
import TestSupport
import Testing
@testable import FrameDumpCLI

/// The read-ahead hand-off (`decode FILE` reads on a second thread): the decoding side must get
/// exactly the events, times and bytes, in exactly the order, that reading on one thread gives,
/// and a failure on the decoding side must stop the reader and come back as it was thrown.
@Suite struct CaptureReadAheadTests {
    static let captures = String(#filePath.prefix(upTo: #filePath.range(of: "/Tests/")!.lowerBound)) + "/Fixtures/captures/"

    /// One event as text: what it is, its stream, offset and length, its bytes' sum, its time.
    static func describe(_ event: CaptureEvent, _ time: Timestamp) -> String {
        let what: String
        switch event {
        case .stream(.data(let connection, let direction, let offset, let bytes)):
            what = "data \(connection) \(direction) \(offset)+\(bytes.count) sum \(bytes.reduce(0) { $0 &* 31 &+ UInt64($1) })"
        case .stream(let other): what = "\(other)"
        case .malformedPacket(let number, let reason, let offset): what = "malformed \(number) \(reason) \(offset)"
        case .fragmentsDropped(let drop): what = "drop \(drop.identification)"
        case .unsupportedLinkType(let linkType): what = "unsupported \(linkType)"
        case .latestCounters(let summary): what = "counters \(summary.connection)"
        case .connectionProcess(let connection, let process): what = "process \(connection) \(process)"
        }
        return "\(time.nanoseconds) \(what)"
    }

    @Test(arguments: ["h12-large.pcap", "h12-concurrent.pcap", "hb-gap.pcap", "h12-conversation.pcapng", "hb-pktap-v1.pcap"])
    func readingAheadGivesTheSameEventsInTheSameOrder(_ name: String) throws {
        let path = Self.captures + name
        var direct: [String] = []
        let directStatistics = try CaptureSource(path: path, opened: InputKind.Opened(prefix: [], stream: nil))
            .run(limits: .default, overlapPolicy: .linux) { direct.append(Self.describe($0, $1)) }
        var ahead: [String] = []
        let aheadStatistics = try CaptureReadAhead.run(CaptureSource(path: path, opened: InputKind.Opened(prefix: [], stream: nil)),
                                                       limits: .default, overlapPolicy: .linux) { ahead.append(Self.describe($0, $1)) }
        #expect(direct.count > 5)
        #expect(ahead == direct)
        #expect(aheadStatistics.packets == directStatistics.packets && aheadStatistics.segments == directStatistics.segments)
    }

    /// A stream of many batches (3,000 segments of 1,400 bytes, ≈ 16 batches) decoded slowly at
    /// first: the reader fills the queue and sleeps, the decoder drains it and must wake the
    /// reader (at ``CaptureReadAhead/resumeAtQueuedBatches``), then outruns it and sleeps in its
    /// turn. Every event arrives, in order, as on one thread.
    @Test func aSlowDecoderAndAFastOneBothGetEveryEventInOrder() throws {
        func packet(_ flags: TCPFlags, from client: Bool, sequence: UInt32, payload: [UInt8] = []) -> [UInt8] {
            let tcp = PacketBuilder.tcp(sourcePort: client ? 40000 : 7000, destinationPort: client ? 7000 : 40000,
                                        sequence: sequence, acknowledgment: client ? 5001 : 1001, flags: flags, payload: payload)
            let ip = PacketBuilder.ipv4(source: client ? PacketBuilder.clientV4 : PacketBuilder.serverV4,
                                        destination: client ? PacketBuilder.serverV4 : PacketBuilder.clientV4, payload: tcp)
            return PacketBuilder.ethernet(etherType: 0x0800, payload: ip)
        }
        var packets = [packet([.syn], from: true, sequence: 1000), packet([.syn, .ack], from: false, sequence: 5000)]
        for index in 0..<3_000 {
            let payload = (0..<1_400).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
            packets.append(packet([.ack, .psh], from: true, sequence: 1001 + UInt32(index * 1_400), payload: payload))
        }
        let records = packets.enumerated().map { CaptureBytes.Record(seconds: 1, fraction: UInt32($0.offset), bytes: $0.element) }
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: records))
        defer { unlink(path) }
        var direct: [String] = []
        _ = try CaptureSource(path: path, opened: InputKind.Opened(prefix: [], stream: nil))
            .run(limits: .default, overlapPolicy: .linux) { direct.append(Self.describe($0, $1)) }
        // On a thread of its own, so that a hand-off that never wakes a side fails here, in time.
        let ahead = Collected()
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = try? CaptureReadAhead.run(CaptureSource(path: path, opened: InputKind.Opened(prefix: [], stream: nil)),
                                          limits: .default, overlapPolicy: .linux) { event, time in
                if ahead.lines.count < 1_000 { usleep(200) }
                ahead.lines.append(Self.describe(event, time))
            }
            done.signal()
        }.start()
        try #require(done.wait(timeout: .now() + 60) == .success, "the read-ahead stalled after \(ahead.lines.count) events")
        #expect(direct.count > 3_000)
        #expect(ahead.lines == direct)
    }

    /// Lines one thread appends and, once it has signalled, another reads.
    private final class Collected: @unchecked Sendable {
        var lines: [String] = []
    }

    struct Stop: Error, Equatable { let at: Int }

    /// The decoding side fails at several points, early and late (h12-large's 16 events carry
    /// 320 KB, more than one batch): `run` throws that error, having stopped and joined the
    /// reading thread.
    @Test(arguments: [0, 1, 8, 15])
    func aFailureOnTheDecodingSideStopsTheReader(_ failAt: Int) throws {
        var seen = 0
        #expect(throws: Stop(at: failAt)) {
            try CaptureReadAhead.run(CaptureSource(path: Self.captures + "h12-large.pcap", opened: InputKind.Opened(prefix: [], stream: nil)),
                                     limits: .default, overlapPolicy: .linux) { _, _ in
                if seen == failAt { throw Stop(at: failAt) }
                seen += 1
            }
        }
        #expect(seen == failAt)
    }
}
