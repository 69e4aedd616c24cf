import Foundation
import PacketCapture
import PacketDecoding
import TestSupport
import Testing

@Suite struct LiveCaptureTests {
    @Test func interfacesIncludeLoopback() throws {
        let interfaces = try LiveCapture.interfaces()
        let loopback = try #require(interfaces.first { $0.name == "lo" })
        #expect(loopback.isLoopback)
        #expect(loopback.isUp)
    }

    @Test func unknownInterfaceIsReported() {
        let error = #expect(throws: CaptureError.self) { try LiveCapture(interface: "framedump-no-such0") }
        #expect(error.map { [.noSuchInterface, .permissionDenied].contains($0.kind) } == true)
        #expect(error?.message.contains("framedump-no-such0") == true)
    }

    /// In a network namespace of its own (`PrivateNetwork`), where the exchange is the only traffic.
    @Test(.requires(.liveCapture))
    func capturesATCPExchangeOnLoopback() throws {
        let network = try PrivateNetwork()
        let server = try network.listen()
        defer { server.socket.close() }
        let capture = try network.run { try LiveCapture(interface: "lo") }
        #expect(capture.linkType == .ethernet)
        #expect(capture.snaplen == LiveCapture.defaultSnaplen)
        try capture.setFilter("tcp port \(server.port)")

        let payload = Array("framedump live capture test".utf8)
        let interrupter = capture.interrupter
        let exchanged = Locked<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do { try network.converse(with: server, sending: [payload]) } catch { exchanged.withLock { $0 = error } }
            // Let the FIN/ACK packets reach the ring buffer before stopping the loop.
            usleep(200_000)
            interrupter.breakLoop()
            finished.signal()
        }
        let start = Int64(Date().timeIntervalSince1970 * 1e9)
        var packets: [(ns: Int64, bytes: [UInt8])] = []
        try capture.forEach { packets.append(($0.timestamp.nanoseconds, Array($0.bytes))) }
        // The capture must outlive every use of its interrupter.
        finished.wait()
        try exchanged.withLock { if let error = $0 { throw error } }

        #expect(packets.count >= 6, "SYN, SYN/ACK, ACK, data, FINs")
        #expect(packets.contains { $0.bytes.count > payload.count && Array($0.bytes.suffix(payload.count)) == payload })
        #expect(packets.allSatisfy { abs($0.ns - start) < 10_000_000_000 })
        #expect(try capture.statistics().received >= UInt32(packets.count))
    }

    @Test(.requires(.liveCapture))
    func breakLoopBeforeReadingEndsTheLoop() throws {
        let network = try PrivateNetwork()
        let capture = try network.run { try LiveCapture(interface: "lo") }
        try capture.setFilter("tcp port 1")
        capture.breakLoop()
        #expect(try capture.next() == nil)
    }

    @Test(.requires(.liveCapture))
    func writerSavesLivePackets() throws {
        let capture = try LiveCapture(interface: "lo")
        let path = CaptureBytes.temporaryPath()
        let writer = try PcapWriter(path: path, matching: capture)
        #expect(writer.linkType == capture.linkType)
        try writer.close()
        let reader = try PcapReader(path: path)
        #expect(reader.linkType == .ethernet)
        #expect(try reader.next() == nil)
    }
}
