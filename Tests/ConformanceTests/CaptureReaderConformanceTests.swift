import Foundation
import PacketCapture
import TestSupport
import Testing

/// `PcapReader` reads classic pcap files from a mapping of the file, and everything else through
/// libpcap; here the two ways read the same files and must give the same packets, byte for byte,
/// with the same timestamps, wire lengths, offsets, and the same error (and the same byte where
/// reading stopped) after the same packet:
/// every committed fixture capture, every capture of the public corpus (when present), and
/// hand-built files with what a damaged or unusual file holds.
@Suite struct CaptureReaderConformanceTests {
    /// What one reading gave: each packet as read, and how the reading ended.
    struct Reading: Equatable, CustomStringConvertible {
        struct Packet: Equatable {
            var nanoseconds: Int64
            var bytes: [UInt8]
            var originalLength: Int
            var fileOffset: Int64?
        }
        var packets: [Packet] = []
        /// The open or read error, as kind and description (the message, and for a read error
        /// the byte where reading stopped); `nil` when the file was read to its end.
        var error: String?
        var mapped = false

        var description: String { "\(packets.count) packets, error \(error ?? "none")" }

        static func == (a: Reading, b: Reading) -> Bool { a.packets == b.packets && a.error == b.error }
    }

    static func read(_ path: String, mapped: Bool) -> Reading {
        var reading = Reading()
        do {
            let reader = try PcapReader(path: path, mapsClassicPcap: mapped)
            reading.mapped = reader.readsFromMapping
            while let packet = try reader.next() {
                reading.packets.append(.init(nanoseconds: packet.timestamp.nanoseconds, bytes: Array(packet.bytes),
                                             originalLength: packet.originalLength, fileOffset: reader.fileOffset))
            }
        } catch let error as CaptureError {
            reading.error = "\(error.kind): \(error)"
        } catch {
            reading.error = "\(error)"
        }
        return reading
    }

    /// Reads `path` both ways and compares; returns whether the mapping read it.
    @discardableResult
    static func compareReaders(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let libpcap = read(path, mapped: false)
        let mapped = read(path, mapped: true)
        #expect(!libpcap.mapped, sourceLocation: sourceLocation)
        #expect(mapped == libpcap, "\(path): mapped \(mapped), libpcap \(libpcap)", sourceLocation: sourceLocation)
        return mapped.mapped
    }

    static let fixtures = FixtureDirectory.files(in: "Fixtures/captures", endingIn: ".pcap", ".pcapng")

    @Test(arguments: fixtures)
    func fixtureReadsAlikeBothWays(name: String) {
        let mapped = Self.compareReaders(FrameDumpProcess.packageRoot.appendingPathComponent("Fixtures/captures/\(name)").path)
        // Every classic pcap fixture is one the mapping reads (none is of a kind libpcap must read).
        #expect(mapped == name.hasSuffix(".pcap"))
    }

    @Test(.enabled(if: Corpus.directory != nil, "no capture corpus at ../shared/corpus (or $FRAMEDUMP_CORPUS); not compared"))
    func corpusReadsAlikeBothWays() throws {
        let captures = try #require(Corpus.directory).appendingPathComponent("captures")
        let files = (FileManager.default.enumerator(atPath: captures.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") || $0.hasSuffix(".cap") }.sorted()
        var mapped = 0
        for file in files where Self.compareReaders(captures.appendingPathComponent(file).path) { mapped += 1 }
        print("Capture readers: \(files.count) corpus captures read alike both ways, \(mapped) of them from the mapping")
        #expect(files.count >= 900)
        #expect(mapped >= 500)
    }

    // MARK: Hand-built files

    static let ethernet = PacketBuilder.loopbackTCP(sourcePort: 40000, destinationPort: 7000, payload: Array(0..<40))

    static func file(_ bytes: [UInt8]) throws -> String { try CaptureBytes.temporaryFile(bytes) }

    static let records = [
        CaptureBytes.Record(seconds: 1_700_000_000, fraction: 123_456, bytes: ethernet),
        CaptureBytes.Record(seconds: 1_700_000_001, fraction: 999_999, bytes: Array(ethernet.prefix(30)), originalLength: ethernet.count),
        CaptureBytes.Record(seconds: 1_700_000_002, fraction: 0, bytes: []),
    ]

    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func bothMagicsInBothByteOrders(nanosecond: Bool, bigEndian: Bool) throws {
        let path = try Self.file(CaptureBytes.pcap(linkType: 1, nanosecond: nanosecond, bigEndian: bigEndian, records: Self.records))
        #expect(Self.compareReaders(path))
    }

    /// Seconds past 2038 (unsigned), and fractions past a second, past 2³¹ and at their maximum,
    /// in both units and both byte orders: libpcap reads the fraction signed from a file in the
    /// host's byte order and unsigned from a byte-swapped one, and the mapping must agree.
    @Test(arguments: [false, true], [false, true])
    func hostileTimestamps(nanosecond: Bool, bigEndian: Bool) throws {
        let fractions: [UInt32] = [1_000_000, 999_999_999, 0x8000_0000, 0xFFFF_FFFF]
        let records = fractions.enumerated().map { index, fraction in
            CaptureBytes.Record(seconds: index.isMultiple(of: 2) ? 0xFFFF_FFFF : 0x8000_0000, fraction: fraction, bytes: Self.ethernet)
        }
        let path = try Self.file(CaptureBytes.pcap(linkType: 1, nanosecond: nanosecond, bigEndian: bigEndian, records: records))
        #expect(Self.compareReaders(path))
        let tick: Int64 = nanosecond ? 1 : 1000
        let expected = records.map { record in
            let fraction = bigEndian ? Int64(record.fraction) : Int64(Int32(bitPattern: record.fraction))
            return Int64(record.seconds) &* 1_000_000_000 &+ fraction &* tick
        }
        #expect(Self.read(path, mapped: true).packets.map(\.nanoseconds) == expected)
    }

    /// Every cut of the last record: its header, then its data, short by any count.
    @Test func truncatedAtEveryByteOfTheLastRecord() throws {
        let whole = CaptureBytes.pcap(linkType: 1, records: Array(Self.records.prefix(2)))
        let lastRecordStart = whole.count - 16 - 30
        for cut in lastRecordStart..<whole.count {
            #expect(Self.compareReaders(try Self.file(Array(whole.prefix(cut)))))
        }
    }

    /// A `caplen` over the snapshot length: libpcap cuts the packet to it, or, past its maximum
    /// for the link type (262,144 for Ethernet), rejects the record.
    @Test func capturedLengthOverTheSnapshotLength() throws {
        let over = CaptureBytes.pcap(linkType: 1, snaplen: 40, records: Self.records)
        #expect(Self.compareReaders(try Self.file(over)))
        var huge = CaptureBytes.pcap(linkType: 1, records: Self.records)
        // The second record's caplen (after the file header, the first record, its timestamp).
        let caplenOffset = 24 + 16 + Self.ethernet.count + 8
        huge.replaceSubrange(caplenOffset..<caplenOffset + 4, with: [0, 0, 0, 1])  // 2^24, little-endian
        #expect(Self.compareReaders(try Self.file(huge)))
        // A snapshot length of 0 in the header: libpcap takes its maximum for the link type.
        #expect(Self.compareReaders(try Self.file(CaptureBytes.pcap(linkType: 1, snaplen: 0, records: Self.records))))
    }

    /// Files the mapping leaves to libpcap, which must still read them as before.
    @Test func filesLeftToLibpcapReadAsBefore() throws {
        // Version 2.3: libpcap may swap caplen and len.
        var version23 = CaptureBytes.pcap(linkType: 1, records: Self.records)
        version23[6] = 3
        #expect(!Self.compareReaders(try Self.file(version23)))
        // A byte-swapped Linux cooked capture: libpcap rewrites its header's CAN fields.
        let swappedSLL = CaptureBytes.pcap(linkType: 113, bigEndian: true, records: Self.records)
        #expect(!Self.compareReaders(try Self.file(swappedSLL)))
        // pcapng, and a link type the parser does not decode.
        #expect(!Self.compareReaders(try Self.file(CaptureBytes.pcapng(linkType: 1, packets: [(1, Self.ethernet)]))))
        #expect(!Self.compareReaders(try Self.file(CaptureBytes.pcap(linkType: 147, records: Self.records))))
        // A header alone, and an empty file.
        #expect(Self.compareReaders(try Self.file(Array(CaptureBytes.pcap(linkType: 1, records: []).prefix(24)))))
        #expect(!Self.compareReaders(try Self.file([])))
    }

    /// A filter set before reading is libpcap's to apply: the reader hands over to it.
    @Test func aFilterHandsTheReadingToLibpcap() throws {
        let path = try Self.file(CaptureBytes.pcap(linkType: 1, records: Self.records))
        let reader = try PcapReader(path: path)
        #expect(reader.readsFromMapping)
        try reader.setFilter("tcp")
        #expect(!reader.readsFromMapping)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 2)  // the empty third record is not TCP
    }
}
