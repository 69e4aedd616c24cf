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

    /// A pipe cannot seek, but the stream that replays the peeked bytes counts what it handed
    /// libpcap, less what stdio holds unread: the same offsets as from the file.
    @Test func aPipeCountsTheBytesItHandedOut() throws {
        let bytes = CaptureBytes.pcap(linkType: 1, records: records)
        try withPipedCapture(bytes) { (reader: PcapReader) throws in
            #expect(try reader.next() != nil)
            #expect(reader.fileOffset == Int64(24 + 16 + 60))
            #expect(try reader.next() != nil)
            #expect(reader.fileOffset == Int64(bytes.count))
            #expect(try reader.next() == nil)
        }
    }
}
