import Foundation
import PacketCapture
import PacketDecoding
import Testing

private let isRoot = getuid() == 0

/// A TCP listener on 127.0.0.1 with a kernel-chosen port.
private struct LoopbackListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 4) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        try #require(bound, "cannot listen on 127.0.0.1")
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Connects to the listener, sends `payload`, lets the server side read it, closes both.
    func exchange(_ payload: [UInt8]) {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if connected {
            let server = accept(descriptor, nil, nil)
            _ = payload.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
            var buffer = [UInt8](repeating: 0, count: payload.count)
            _ = recv(server, &buffer, buffer.count, Int32(MSG_WAITALL))
            close(server)
        }
        close(client)
    }
}

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

    @Test(.enabled(if: isRoot, "capturing on lo needs root or CAP_NET_RAW"))
    func capturesATCPExchangeOnLoopback() throws {
        let listener = try LoopbackListener()
        defer { close(listener.descriptor) }
        let capture = try LiveCapture(interface: "lo")
        #expect(capture.linkType == .ethernet)
        #expect(capture.snaplen == LiveCapture.defaultSnaplen)
        try capture.setFilter("tcp port \(listener.port)")

        let payload = Array("framedump live capture test".utf8)
        let interrupter = capture.interrupter
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            listener.exchange(payload)
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

        #expect(packets.count >= 6, "SYN, SYN/ACK, ACK, data, FINs")
        #expect(packets.contains { $0.bytes.count > payload.count && Array($0.bytes.suffix(payload.count)) == payload })
        #expect(packets.allSatisfy { abs($0.ns - start) < 10_000_000_000 })
        #expect(try capture.statistics().received >= UInt32(packets.count))
    }

    @Test(.enabled(if: isRoot, "capturing on lo needs root or CAP_NET_RAW"))
    func breakLoopBeforeReadingEndsTheLoop() throws {
        let capture = try LiveCapture(interface: "lo")
        try capture.setFilter("tcp port 1")
        capture.breakLoop()
        #expect(try capture.next() == nil)
    }

    @Test(.enabled(if: isRoot, "capturing on lo needs root or CAP_NET_RAW"))
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
