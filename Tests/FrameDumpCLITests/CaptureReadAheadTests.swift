import PacketCapture
import PacketDecoding
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
        }
        return "\(time.nanoseconds) \(what)"
    }

    @Test(arguments: ["h12-large.pcap", "h12-concurrent.pcap", "hb-gap.pcap", "h12-conversation.pcapng"])
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
