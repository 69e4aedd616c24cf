import Foundation
import Testing
@testable import FrameDumpLive

/// The event loop on each backend, through a pipe: readiness is reported, a descriptor with no
/// interest is not (not even its hangup), and timers fire in order.
@Suite struct EventLoopTests {
    /// Records what its descriptor was ready for and runs `then`.
    final class Recorder: EventHandler {
        var events: [ReadyEvents] = []
        let then: (Recorder) -> Void
        init(then: @escaping (Recorder) -> Void) { self.then = then }
        func handle(_ events: ReadyEvents) {
            self.events.append(events)
            then(self)
        }
    }

    static func pipeEnds() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test(arguments: EventLoopBackend.allCases.filter(\.isAvailable))
    func aReadableDescriptorIsReportedAndAStopEndsTheRun(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        #expect(loop.backendKind == backend)
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer { close(readEnd); close(writeEnd) }
        let recorder = Recorder { _ in loop.stop() }
        try loop.register(readEnd, .read, recorder)
        var byte: UInt8 = 7
        #expect(write(writeEnd, &byte, 1) == 1)
        var rounds = 0
        try loop.run { rounds += 1 }
        #expect(recorder.events == [.readable])
        #expect(rounds == 1, "afterEachRound runs once per round")
        loop.deregister(readEnd)
    }

    /// A relay that stops reading a side must not spin on that side's hangup: with no interest
    /// the descriptor is out of the set; with interest again, the hangup is reported.
    @Test(arguments: EventLoopBackend.allCases.filter(\.isAvailable))
    func aDescriptorWithoutInterestIsNotReportedEvenAtHangup(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer { close(readEnd) }
        let recorder = Recorder { _ in loop.stop() }
        try loop.register(readEnd, .read, recorder)
        try loop.setInterest(readEnd, [])
        close(writeEnd)
        var rounds = 0
        loop.schedule(after: 100) { loop.stop() }
        try loop.run { rounds += 1 }
        #expect(recorder.events.isEmpty, "no events without interest")
        #expect(rounds <= 2, "the loop waited instead of spinning: \(rounds) rounds")

        try loop.setInterest(readEnd, .read)
        try loop.run {}
        #expect(recorder.events.count == 1)
        #expect(!recorder.events[0].isDisjoint(with: [.readable, .hangup]), "end of file or hangup: \(recorder.events)")
        loop.deregister(readEnd)
    }

    @Test(arguments: EventLoopBackend.allCases.filter(\.isAvailable))
    func timersFireInTheirOrder(backend: EventLoopBackend) throws {
        let loop = try EventLoop(backend: backend)
        var fired: [Int] = []
        loop.schedule(after: 30) {
            fired.append(30)
            loop.stop()
        }
        loop.schedule(after: 10) { fired.append(10) }
        let started = Date()
        try loop.run {}
        #expect(fired == [10, 30])
        #expect(Date().timeIntervalSince(started) >= 0.03)
    }
}
