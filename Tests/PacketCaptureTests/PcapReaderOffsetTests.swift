import Foundation
import PacketCapture
import Testing
import TestSupport

/// `PcapReader.fileOffset`: where libpcap stands in the file, which `decode`'s progress line
/// measures against the file's size.
@Suite struct PcapReaderOffsetTests {
    /// Records of 60 and 40 bytes: each takes a 16-byte record header too, after the 24-byte file header.
    let records = [
        CaptureBytes.Record(seconds: 1, fraction: 0, bytes: Array(repeating: 1, count: 60)),
        CaptureBytes.Record(seconds: 2, fraction: 0, bytes: Array(repeating: 2, count: 40)),
    ]

    @Test func pcapOffsetIsTheEndOfTheLastRecordRead() throws {
        let bytes = CaptureBytes.pcap(linkType: 1, records: records)
        let reader = try PcapReader(path: try CaptureBytes.temporaryFile(bytes))
        #expect(reader.fileOffset == 24)
        #expect(try reader.next() != nil)
        #expect(reader.fileOffset == Int64(24 + 16 + 60))
        #expect(try reader.next() != nil)
        #expect(reader.fileOffset == Int64(bytes.count))
        #expect(try reader.next() == nil)
        #expect(reader.fileOffset == Int64(bytes.count))
    }

    @Test func pcapngOffsetReachesTheFileSize() throws {
        let bytes = CaptureBytes.pcapng(linkType: 1, packets: [(1, [1, 2, 3]), (2, [4, 5, 6, 7, 8])])
        let reader = try PcapReader(path: try CaptureBytes.temporaryFile(bytes, suffix: ".pcapng"))
        var offsets: [Int64] = []
        while try reader.next() != nil { offsets.append(try #require(reader.fileOffset)) }
        #expect(offsets.count == 2)
        #expect(offsets[0] < offsets[1])
        #expect(offsets.last == Int64(bytes.count))
    }

    /// A pipe has no position: the reader says it cannot tell rather than guess.
    @Test func aPipeHasNoOffset() throws {
        let bytes = CaptureBytes.pcap(linkType: 1, records: records)
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let written = bytes.dropFirst(4).withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        #expect(written == bytes.count - 4)
        close(descriptors[1])
        let reader = try PcapReader(prefix: Array(bytes.prefix(4)), fileDescriptor: descriptors[0])
        #expect(try reader.next() != nil)
        #expect(reader.fileOffset == nil)
    }
}
