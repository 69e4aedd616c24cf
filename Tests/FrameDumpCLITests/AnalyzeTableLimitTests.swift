import PacketDecoding
import Testing
@testable import FrameDumpCLI

/// The state tables of the analysis that fixtures cannot fill: their bound and its count.
@Suite struct AnalyzeTableLimitTests {
    /// Session-count changes: 4,096 kept per client host and type, the rest counted.
    @Test func sessionStepsAreBounded() {
        var tracker = SessionPoolTracker(policy: .imDefault)
        let client = Endpoint(address: .v4(0x0A00_0001), port: 40000), server = Endpoint(address: .v4(0x0A00_0002), port: 7000)
        let opens = SessionPoolTracker.maxSteps
        for number in 1...opens {
            let opened = Timestamp(nanoseconds: Int64(number) * 1_000_000)
            let connection = ConnectionAnalysis(number: number, client: client, server: server, openedAt: opened, sawSYN: true)
            connection.sessionType = "chat"
            tracker.typed(connection, evidence: Evidence(connection: number, direction: .clientToServer, offset: 0, time: opened, note: ""))
            tracker.ended(connection, at: Timestamp(nanoseconds: opened.nanoseconds + 500_000), closed: true)
        }
        let pool = tracker.pools.values.first
        #expect(pool?.steps.count == SessionPoolTracker.maxSteps)
        #expect(tracker.stepsNotKept == 2 * opens - SessionPoolTracker.maxSteps)
        #expect(pool?.steps.prefix(4).map(\.count) == [1, 0, 1, 0])
    }

    /// A connection's ladder: 64 windows that widen to hold its whole span, 16 rows each, rows
    /// from the shared budget, and what is not kept counted.
    @Test func ladderWindowsWidenAndKeepTheirFirstRows() {
        var ladder = LadderTimeline()
        var budget = 10_000
        let entries = 5_000
        for index in 0..<entries {
            // One entry every 100 ms: 500 s in all.
            ladder.add(LadderEntry(time: Timestamp(nanoseconds: Int64(index) * 100_000_000), direction: index % 2 == 0 ? .clientToServer : .serverToClient,
                                   label: "ping", mark: .none), budget: &budget)
        }
        #expect(ladder.width * Int64(LadderTimeline.bucketCount) >= Int64(entries - 1) * 100_000_000)
        #expect(ladder.counts.reduce(0) { $0 + $1.clientToServer + $1.serverToClient } == entries)
        #expect(ladder.keptCount + ladder.rowsNotKept == entries)
        #expect(ladder.keptCount <= LadderTimeline.bucketCount * LadderTimeline.rowsPerBucket)
        #expect(budget == 10_000 - ladder.keptCount)
        // The last kept row is from the last windows, not the first minutes.
        #expect((ladder.entries.last?.time.nanoseconds ?? 0) > Int64(entries) * 100_000_000 * 9 / 10)
        var empty = 0
        var small = LadderTimeline()
        small.add(LadderEntry(time: Timestamp(nanoseconds: 0), direction: .clientToServer, label: "ping", mark: .none), budget: &empty)
        #expect(small.keptCount == 0 && small.rowsNotKept == 1)
    }

    /// A connection's own distributions: percentiles from the first 1,024 samples, the count exact.
    @Test func connectionSamplesAreBounded() {
        let connection = ConnectionAnalysis(number: 1, client: Endpoint(address: .v4(0x0A00_0001), port: 40000),
                                            server: Endpoint(address: .v4(0x0A00_0002), port: 7000), openedAt: Timestamp(nanoseconds: 0), sawSYN: true)
        let pings = ConnectionAnalysis.sampleLimit + 100
        for index in 1...pings {
            connection.ping(offset: UInt64(index) * 20, time: Timestamp(nanoseconds: Int64(index) * 30_000_000_000), key: UInt64(index))
            _ = connection.pong(time: Timestamp(nanoseconds: Int64(index) * 30_000_000_000 + 20_000_000), key: UInt64(index), pongTimeout: 5_000_000_000)
        }
        #expect(connection.heartbeat.isSampled && connection.heartbeat.count == pings - 1)
        #expect(connection.heartbeat.samples.count == ConnectionAnalysis.sampleLimit)
        #expect(connection.pongRTT.isSampled && connection.pongRTT.count == pings)
    }

    /// The in-step comparison is quadratic: 200 hosts × 64 retries compared, the rest counted.
    @Test func herdComparisonIsBounded() {
        func delays(_ count: Int) -> [ReconnectTracker.Delay] {
            (0..<count).map { attempt in
                ReconnectTracker.Delay(measured: 1_000_000_000, expected: 1_000_000_000, attempt: attempt,
                                       evidence: Evidence(connection: attempt, direction: .clientToServer, offset: 0, time: Timestamp(nanoseconds: 0), note: "SYN"))
            }
        }
        let hosts = (0..<AnalysisResult.maxHerdHosts + 3).map { (client: IPAddress.v4(0x0A00_0000 + UInt32($0)), delays: delays($0 == 0 ? AnalysisResult.maxHerdRetries + 5 : 2)) }
        let notCompared = AnalysisResult.notComparedForHerd(hosts)
        #expect(notCompared.hosts == 3 && notCompared.retries == 5)
        #expect(AnalysisResult.notComparedForHerd(Array(hosts.prefix(10)).map { ($0.client, Array($0.delays.prefix(3))) }) == (0, 0))
    }
}
