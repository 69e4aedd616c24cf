import Foundation
import TestSupport
import Testing

/// Our reassembly against Wireshark's: for every TCP connection of every capture fixture, the
/// bytes `framedump streams --write-dir` writes per direction must equal what
/// `tshark -q -z follow,tcp,raw,N` delivers, byte for byte (with out-of-order reassembly on,
/// which tshark 4.0 leaves off by default), and the gaps must be where tshark marks them.
@Suite(.requires(.tshark))
struct WiresharkConformanceTests {
    static let captures = FixtureDirectory.files(in: CaptureFixture.directory, endingIn: ".pcap", ".pcapng")

    /// Connections tshark 4.0 does not decode down to TCP, so it has no follow output to compare
    /// (their bytes are checked against the generator's record by the golden tests instead).
    static let tsharkCannotFollow: [String: (connections: Set<Int>, why: String)] = [
        "hb-pktap-v2.pcap": ([1, 2], "tshark 4.0 reads PKTAP's version 1 header only (a v2 header's first byte is its length)"),
        "hb-mpls.pcap": ([2], "tshark 4.0 misreads the Ethernet pseudowire after its control word (RFC 4385, RFC 4448): Ethernet with wrong addresses, no IP"),
    ]

    @Test(arguments: captures)
    func reassembledBytesMatchTsharkFollow(_ file: String) throws {
        let path = "\(CaptureFixture.directory)/\(file)"
        let ours = try StreamsRun.run(path)
        #expect(!ours.connections.isEmpty)
        let skipped = Self.tsharkCannotFollow[file]
        if let skipped { print("Wireshark conformance: \(file): conn \(skipped.connections.sorted()) not compared: \(skipped.why)") }
        // One more stream than we found: tshark must show it empty, or we missed a connection.
        let theirs = try Tshark.follow(FrameDumpProcess.packageRoot.appendingPathComponent(path).path,
                                       streams: ours.connections.count + 1)
        #expect(theirs.last?.isEmpty == true, "\(file): tshark has more TCP streams than the \(ours.connections.count) we list")
        var identical = 0
        for (connection, followed) in zip(ours.connections, theirs) where skipped?.connections.contains(connection.number) != true {
            let label = "\(file) conn \(connection.number)"
            #expect(Set([connection.client, connection.server]) == Set([followed.nodes.0, followed.nodes.1]),
                    "\(label): endpoints \(connection.client) \(connection.server) vs tshark's \(followed.nodes)")
            for (index, name) in ["c2s", "s2c"].enumerated() {
                let sender = index == 0 ? connection.client : connection.server
                let tsharkData = sender == followed.nodes.0 ? followed.data.0 : followed.data.1
                let tsharkGaps = sender == followed.nodes.0 ? followed.gaps.0 : followed.gaps.1
                let mine = connection.directions[index]
                #expect(mine.bytes == tsharkData,
                        "\(label) \(name): \(mine.bytes.count) bytes vs tshark's \(tsharkData.count)")
                // tshark marks holes in the sequence space, not bytes the snaplen cut off a captured
                // segment (its follow output just goes on); we report both as gaps.
                if file != "hb-snaplen.pcap" {
                    #expect(mine.gaps.count == tsharkGaps, "\(label) \(name): gaps \(mine.gaps) vs \(tsharkGaps) tshark markers")
                }
                if mine.bytes == tsharkData { identical += 1 }
            }
        }
        print("Wireshark conformance: \(file): \(identical)/\(2 * ours.connections.count) directions identical")
    }
}
