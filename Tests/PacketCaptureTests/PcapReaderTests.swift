import Foundation
import PacketCapture
import PacketDecoding
import TestSupport
import Testing

/// Reads every packet, copying what the reader lends.
private func readAll(_ reader: PcapReader) throws -> [(ns: Int64, bytes: [UInt8], originalLength: Int)] {
    var packets: [(ns: Int64, bytes: [UInt8], originalLength: Int)] = []
    try reader.forEach { packets.append(($0.timestamp.nanoseconds, Array($0.bytes), $0.originalLength)) }
    return packets
}

@Suite struct PcapReaderTests {
    let first = CaptureBytes.Record(seconds: 1_700_000_000, fraction: 123_456_789, bytes: Array(0..<60))
    let second = CaptureBytes.Record(seconds: 1_700_000_001, fraction: 999_999_999, bytes: Array(repeating: 0xAB, count: 40),
                                     originalLength: 1500)

    @Test func recognisesCaptureMagics() {
        for magic: [UInt8] in [[0xA1, 0xB2, 0xC3, 0xD4], [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D],
                               [0x4D, 0x3C, 0xB2, 0xA1], [0x0A, 0x0D, 0x0D, 0x0A]] {
            #expect(PcapReader.isCaptureFile(prefix: magic + [0, 0]), "\(magic)")
        }
        #expect(!PcapReader.isCaptureFile(prefix: Array("55aa0103".utf8)))
        #expect(!PcapReader.isCaptureFile(prefix: [0xA1, 0xB2, 0xC3]))
        #expect(!PcapReader.isCaptureFile(prefix: [UInt8]()))
    }

    @Test func nanosecondPcapKeepsExactTimestamps() throws {
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, snaplen: 4096, records: [first, second]))
        let reader = try PcapReader(path: path)
        #expect(reader.linkType == .ethernet)
        #expect(reader.snaplen == 4096)
        let packets = try readAll(reader)
        #expect(packets.count == 2)
        #expect(packets[0].ns == 1_700_000_000_123_456_789)
        #expect(packets[0].bytes == first.bytes)
        #expect(packets[0].originalLength == 60)
        #expect(packets[1].ns == 1_700_000_001_999_999_999)
        #expect(packets[1].bytes == second.bytes)
        #expect(packets[1].originalLength == 1500)
    }

    @Test func microsecondBigEndianPcapIsScaledToNanoseconds() throws {
        let record = CaptureBytes.Record(seconds: 1_600_000_000, fraction: 654_321, bytes: [1, 2, 3, 4])
        let path = try CaptureBytes.temporaryFile(
            CaptureBytes.pcap(linkType: 101, nanosecond: false, bigEndian: true, records: [record]))
        let reader = try PcapReader(path: path)
        #expect(reader.linkType == .raw)
        let packets = try readAll(reader)
        #expect(packets.map(\.ns) == [1_600_000_000_654_321_000])
        #expect(packets.map(\.bytes) == [[1, 2, 3, 4]])
    }

    @Test func pcapngWithNanosecondResolution() throws {
        let path = try CaptureBytes.temporaryFile(
            CaptureBytes.pcapng(linkType: 276, packets: [(1_700_000_000_000_000_007, [9, 8, 7]), (1_700_000_000_500_000_000, [6])]),
            suffix: ".pcapng")
        let reader = try PcapReader(path: path)
        #expect(reader.linkType == .linuxSLL2)
        let packets = try readAll(reader)
        #expect(packets.map(\.ns) == [1_700_000_000_000_000_007, 1_700_000_000_500_000_000])
        #expect(packets.map(\.bytes) == [[9, 8, 7], [6]])
    }

    @Test func truncatedFileFailsAfterTheGoodPackets() throws {
        let bytes = CaptureBytes.pcap(linkType: 1, records: [first, second])
        let path = try CaptureBytes.temporaryFile(Array(bytes.dropLast(15)))
        let reader = try PcapReader(path: path)
        #expect(try reader.next()?.bytes.count == 60)
        let error = #expect(throws: CaptureError.self) { try reader.next() }
        #expect(error?.kind == .readFailed)
        #expect(error?.message.contains("truncated dump file") == true)
        // libpcap read the second record's header and what there was of its bytes: to the end.
        #expect(error?.offset == Int64(bytes.count - 15))
        #expect(error?.description == "\(error?.message ?? ""); reading stopped at byte \(bytes.count - 15)")
    }

    /// A record header whose captured length is over the snapshot length: libpcap stops right
    /// after that header, from a mapped file (where the mapped reader hands over to libpcap at
    /// the record) and from a pipe (the prefixed stream counts what it handed out).
    @Test func impossibleCapturedLengthSaysWhereReadingStopped() throws {
        var bytes = CaptureBytes.pcap(linkType: 1, snaplen: 4096, records: [first, second])
        let secondRecord = 24 + 16 + first.bytes.count
        bytes.replaceSubrange(secondRecord + 8 ..< secondRecord + 12, with: [0xFF, 0xFF, 0xFF, 0x7F])
        let expected = Int64(secondRecord + 16)

        let file = try PcapReader(path: CaptureBytes.temporaryFile(bytes))
        #expect(try file.next()?.bytes.count == 60)
        let fileError = #expect(throws: CaptureError.self) { try file.next() }
        #expect(fileError?.message.contains("invalid packet capture length 2147483647") == true, "\(String(describing: fileError))")
        #expect(fileError?.offset == expected)

        try withPipedCapture(bytes) { (piped: PcapReader) throws in
            #expect(try piped.next()?.bytes.count == 60)
            let pipeError = #expect(throws: CaptureError.self) { try piped.next() }
            #expect(pipeError?.offset == expected)
        }
    }

    /// A pcapng cut inside its second Enhanced Packet Block: reading stops at the end.
    @Test func truncatedPcapngSaysWhereReadingStopped() throws {
        let bytes = CaptureBytes.pcapng(linkType: 1, packets: [(1, Array(0..<60)), (2, Array(0..<40))])
        let path = try CaptureBytes.temporaryFile(Array(bytes.dropLast(20)), suffix: ".pcapng")
        let reader = try PcapReader(path: path)
        #expect(try reader.next()?.bytes.count == 60)
        let error = #expect(throws: CaptureError.self) { try reader.next() }
        #expect(error?.message.contains("truncated pcapng dump file") == true, "\(String(describing: error))")
        #expect(error?.offset == Int64(bytes.count - 20))
    }

    @Test func missingAndForeignFilesFailToOpenWithLibpcapsMessage() throws {
        let missing = CaptureBytes.temporaryPath()
        let missingError = #expect(throws: CaptureError.self) { try PcapReader(path: missing) }
        #expect(missingError?.kind == .openFailed)
        #expect(missingError?.message.contains(missing) == true)
        #expect(missingError?.message.contains("No such file") == true)

        let text = try CaptureBytes.temporaryFile(Array("55 aa 01 03 00 00 00 00\n".utf8), suffix: ".txt")
        let foreignError = #expect(throws: CaptureError.self) { try PcapReader(path: text) }
        #expect(foreignError?.message.contains("unknown file format") == true)
    }

    @Test func readsFromAStdioStream() throws {
        var bytes = CaptureBytes.pcap(linkType: 1, records: [first, second])
        let packets = try bytes.withUnsafeMutableBytes { buffer in
            let file = try #require(fmemopen(buffer.baseAddress, buffer.count, "r"))
            return try readAll(PcapReader(file: file))
        }
        #expect(packets.map(\.ns) == [1_700_000_000_123_456_789, 1_700_000_001_999_999_999])
    }

    /// The `framedump decode -` path: the first 4 bytes were already read from a pipe.
    @Test func replaysAPeekedPrefixThenReadsThePipe() throws {
        let bytes = CaptureBytes.pcap(linkType: 1, records: [first, second])
        #expect(PcapReader.isCaptureFile(prefix: bytes.prefix(4)))
        let packets = try withPipedCapture(bytes, readAll)
        #expect(packets.map(\.bytes) == [first.bytes, second.bytes])
        #expect(packets.map(\.originalLength) == [60, 1500])
    }

    @Test func bpfFilterKeepsMatchingPackets() throws {
        let records = [7000, 7001, 7000, 8080].enumerated().map { index, port in
            CaptureBytes.Record(seconds: 1, fraction: UInt32(index),
                                bytes: PacketBuilder.loopbackTCP(sourcePort: 40000, destinationPort: UInt16(port), payload: [UInt8(index)]))
        }
        let path = try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: records))
        #expect(try readAll(PcapReader(path: path)).count == 4)

        let filtered = try PcapReader(path: path)
        try filtered.setFilter("tcp port 7000")
        #expect(try readAll(filtered).map { $0.bytes.last } == [0, 2])
    }

    @Test func badFilterReportsLibpcapsMessage() throws {
        let reader = try PcapReader(path: CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: [first])))
        let error = #expect(throws: CaptureError.self) { try reader.setFilter("tcp prot 7000") }
        #expect(error?.kind == .invalidFilter)
        #expect(error?.message.contains("tcp prot 7000") == true)
        #expect(error?.message.contains("syntax error") == true)
    }
}
