import Foundation
import PacketCapture
import PacketDecoding
import TestSupport
import Testing

/// `CaptureReassembly` on PKTAP captures: each connection's process comes right before it opens,
/// and a `ProcessSelector` withholds every event of the other connections.
@Suite struct CaptureReassemblyProcessTests {
    private static let path = FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/captures/hb-pktap-v1.pcap").path

    private static func run(_ selector: ProcessSelector?) throws -> (events: [String], connections: Set<Int>, statistics: CaptureStatistics) {
        var events: [String] = []
        var connections = Set<Int>()
        let statistics = try CaptureReassembly(source: try PcapReader(path: path), processSelector: selector)
            .run(reportsLatestCounters: true) { event, _ in
                switch event {
                case .connectionProcess(let connection, let process): events.append("process \(connection) \(process.name ?? "?")")
                case .stream(.connectionOpened(let connection, _, _, _)): events.append("open \(connection)")
                case .stream(let other): connections.insert(other.connection)
                case .latestCounters(let summary): connections.insert(summary.connection)
                default: break
                }
            }
        return (events, connections, statistics)
    }

    @Test func everyConnectionsProcessComesBeforeItOpens() throws {
        let (events, connections, statistics) = try Self.run(nil)
        #expect(events == ["process 1 Safari", "open 1", "process 2 nsurlsessiond", "open 2"])
        #expect(connections == [1, 2])
        #expect(statistics.connectionsNotSelected == 0)
    }

    @Test func aSelectorWithholdsTheOtherConnections() throws {
        let (events, connections, statistics) = try Self.run(ProcessSelector("MyApp"))
        #expect(events == ["process 2 nsurlsessiond", "open 2"])
        #expect(connections == [2], "no event of connection 1, not even its counters")
        #expect(statistics.connectionsNotSelected == 1)
        #expect(statistics.segments == 28, "its packets were still read")
    }
}
