import Foundation

/// What `tshark -z follow,tcp,raw` delivers for each stream. Tests that use it need
/// `.requires(.tshark)`.
package enum Tshark {
    /// One followed stream: its two nodes (`ip:port`, IPv6 `[ip]:port`; node 0 is the one tshark
    /// takes as the client), each node's bytes without the gap markers, and the number of markers.
    package struct Followed {
        package var nodes: (String, String)
        package var data: ([UInt8], [UInt8])
        package var gaps: (Int, Int)

        /// A stream number tshark does not have prints empty nodes (`:0`).
        package var isEmpty: Bool { nodes.0 == ":0" && nodes.1 == ":0" }
    }

    /// Follows streams 0..<`streams` of the capture at `path`, in one tshark run, with
    /// `tcp.reassemble_out_of_order` on.
    ///
    /// In raw mode each line is one chunk in hex, node 1's indented by a tab. A hole tshark gives
    /// up on is a chunk of its own holding the text `[N bytes missing in capture file]` and a NUL
    /// (tshark 4.0); those chunks are counted as gaps and left out of the bytes.
    ///
    /// - Parameters:
    ///   - tlsKeyLog: Follow each stream's decrypted TLS application data (`follow,tls,raw`,
    ///     `tls.keylog_file`) instead of its TCP bytes. tshark's TLS follow may name the server
    ///     as node 0.
    package static func follow(_ path: String, streams: Int, tlsKeyLog: String? = nil) throws -> [Followed] {
        var arguments = ["-n", "-r", path, "-o", "tcp.reassemble_out_of_order:TRUE", "-q"]
        if let tlsKeyLog { arguments += ["-o", "tls.keylog_file:\(tlsKeyLog)"] }
        for stream in 0..<streams { arguments += ["-z", "follow,\(tlsKeyLog == nil ? "tcp" : "tls"),raw,\(stream)"] }
        let text = try ExternalProgram.run("tshark", arguments).stdout

        var followed = [Followed](repeating: Followed(nodes: (":0", ":0"), data: ([], []), gaps: (0, 0)), count: streams)
        var current: Int?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("Filter: tcp.stream eq "), let number = Int(line.dropFirst("Filter: tcp.stream eq ".count)) {
                current = number < streams ? number : nil
            } else if line.hasPrefix("====") || line.hasPrefix("Follow:") {
                continue
            } else if let current, line.hasPrefix("Node 0: ") {
                followed[current].nodes.0 = String(line.dropFirst(8))
            } else if let current, line.hasPrefix("Node 1: ") {
                followed[current].nodes.1 = String(line.dropFirst(8))
            } else if let current {
                let isNode1 = line.hasPrefix("\t")
                let chunk = hexBytes(line.drop { $0 == "\t" })
                if isGapMarker(chunk) {
                    if isNode1 { followed[current].gaps.1 += 1 } else { followed[current].gaps.0 += 1 }
                } else if isNode1 {
                    followed[current].data.1 += chunk
                } else {
                    followed[current].data.0 += chunk
                }
            }
        }
        return followed
    }

    /// Bytes from hex digits, upper or lower case; other characters are passed over.
    package static func hexBytes(_ hex: some StringProtocol) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = UInt8(String(UnicodeScalar(character)), radix: 16) else { continue }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    /// `[N bytes missing in capture file]` followed by a NUL.
    private static func isGapMarker(_ chunk: [UInt8]) -> Bool {
        guard chunk.last == 0 else { return false }
        let text = String(decoding: chunk.dropLast(), as: UTF8.self)
        return text.wholeMatch(of: /\[\d+ bytes missing in capture file\]/) != nil
    }
}
