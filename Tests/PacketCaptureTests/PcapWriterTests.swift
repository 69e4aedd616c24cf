import PacketCapture
import PacketDecoding
import TestSupport
import Testing

@Suite struct PcapWriterTests {
    @Test(arguments: [LinkType.ethernet, .raw, .null, .linuxSLL2])
    func roundTripKeepsBytesTimestampsAndLinkType(linkType: LinkType) throws {
        let path = CaptureBytes.temporaryPath()
        let payloads: [[UInt8]] = [Array(0..<64), [], Array(repeating: 0x55, count: 1000)]
        let times: [Int64] = [1_700_000_000_000_000_001, 1_700_000_000_999_999_999, 4_294_967_295_000_000_000]
        let writer = try PcapWriter(path: path, linkType: linkType, snaplen: 512)
        #expect(writer.linkType == linkType)
        for (payload, time) in zip(payloads, times) {
            try payload.withUnsafeBytes { try writer.write(CapturedPacket(timestamp: Timestamp(nanoseconds: time), bytes: $0)) }
        }
        try writer.close()

        let reader = try PcapReader(path: path)
        #expect(reader.linkType == linkType)
        #expect(reader.snaplen == 512)
        var read: [([UInt8], Int64, Int)] = []
        try reader.forEach { read.append((Array($0.bytes), $0.timestamp.nanoseconds, $0.originalLength)) }
        #expect(read.map(\.0) == [payloads[0], [], Array(payloads[2].prefix(512))])
        #expect(read.map(\.1) == times)
        #expect(read.map(\.2) == [64, 0, 1000])
    }

    @Test func copiesAReaderWithAFilter() throws {
        let records = [80, 7000, 7000].enumerated().map { index, port in
            CaptureBytes.Record(seconds: 5, fraction: UInt32(index) * 1000,
                                bytes: PacketBuilder.loopbackTCP(sourcePort: UInt16(port), destinationPort: 50000, payload: [1, 2]))
        }
        let reader = try PcapReader(path: CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: records)))
        try reader.setFilter("src port 7000")
        let path = CaptureBytes.temporaryPath()
        let writer = try PcapWriter(path: path, matching: reader)
        try reader.forEach { try writer.write($0) }
        try writer.close()

        var times: [Int64] = []
        try PcapReader(path: path).forEach { times.append($0.timestamp.nanoseconds) }
        #expect(times == [5_000_001_000, 5_000_002_000])
    }

    @Test func rejectsTimestampsOutsideThePcapRangeAndWritesAfterClose() throws {
        let writer = try PcapWriter(path: CaptureBytes.temporaryPath(), linkType: .ethernet)
        let bytes: [UInt8] = [1]
        try bytes.withUnsafeBytes { buffer in
            for time: Int64 in [-1, 4_294_967_296_000_000_000] {
                let error = #expect(throws: CaptureError.self) {
                    try writer.write(CapturedPacket(timestamp: Timestamp(nanoseconds: time), bytes: buffer))
                }
                #expect(error?.kind == .writeFailed)
            }
            try writer.close()
            #expect(throws: CaptureError.self) { try writer.write(CapturedPacket(timestamp: Timestamp(nanoseconds: 0), bytes: buffer)) }
        }
    }

    @Test func unwritableDestinationFails() {
        let error = #expect(throws: CaptureError.self) {
            try PcapWriter(path: "/nonexistent-directory/out.pcap", linkType: .ethernet)
        }
        #expect(error?.kind == .writeFailed)
        #expect(error?.message.contains("/nonexistent-directory/out.pcap") == true)
    }
}
