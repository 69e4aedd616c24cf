import Foundation
import TestSupport
import Testing

/// The tcpdump test suite's PKTAP captures (../shared/corpus): LINKTYPE_PKTAP (258) and the
/// same packet written as DLT 149 (USER2, as older Apple tools did) decode through their
/// headers like tcpdump's — one UDP packet (DNS), so no TCP and nothing unsupported — and the
/// fuzzed header (`pktap-heap-overflow.pcap`, `pth_length` 0) is malformed, not a crash.
@Suite(.enabled(if: Corpus.directory != nil, "no capture corpus at ../shared/corpus (or $FRAMEDUMP_CORPUS); PKTAP corpus not checked"))
struct PKTAPCorpusTests {
    private static func capture(_ name: String) throws -> String {
        try #require(Corpus.directory).appendingPathComponent("captures/the-tcpdump-group+tcpdump/tests/\(name)").path
    }

    private static func counts(_ name: String) throws -> (status: Int32, capture: [String: Any]) {
        let result = try FrameDumpProcess.run(["streams", "--json", try capture(name)])
        let line = try JSONLines.parse(result.stdout).first { $0["type"] as? String == "capture" }
        return (result.status, try #require(line))
    }

    @Test(arguments: ["LINKTYPE_PKTAP.pcap", "LINKTYPE_USER2_PKTAP.pcap"])
    func headersAreFollowedToTheInnerPacket(_ name: String) throws {
        let (status, capture) = try Self.counts(name)
        #expect(capture["packets"] as? Int == 1)
        #expect(capture["other_packets"] as? Int == 1, "the DNS packet inside is UDP: \(capture)")
        #expect(capture["unsupported_packets"] as? Int == 0)
        #expect(capture["malformed_packets"] as? Int == 0)
        #expect(status == 0)
    }

    @Test func aHeaderShorterThanItsFixedPartIsMalformed() throws {
        let (status, capture) = try Self.counts("pktap-heap-overflow.pcap")
        #expect(capture["malformed_packets"] as? Int == 2, "\(capture)")
        #expect(status == 2)
    }
}
