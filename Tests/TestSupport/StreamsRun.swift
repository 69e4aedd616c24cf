import Foundation

/// One run of `framedump streams --json --write-dir TMP CAPTURE`: the listing, and each
/// direction's file read back (the temporary directory is removed before returning).
package struct StreamsRun {
    package struct Direction {
        /// The file's bytes (empty when no file was written: no data).
        package var bytes: [UInt8]
        /// The listing's `bytes`: stream bytes delivered (the file's length).
        package var listedBytes: Int
        /// `offset:length` of each gap, in stream offsets.
        package var gaps: [String]
        package var packets: Int
        package var retransmittedBytes: Int
        package var outOfOrderSegments: Int
        package var ignoredBytes: Int
        package var file: String?
    }

    package struct Connection {
        package var number: Int
        package var client: String
        package var server: String
        package var state: String
        package var roles: String
        /// Client to server, then server to client.
        package var directions: [Direction]
    }

    package var connections: [Connection]
    /// The `capture` line: packet counts.
    package var capture: [String: Any]
    package var result: FrameDumpProcess.Result

    /// Runs `streams` on `path` (relative to the package root, or absolute) with `extra` arguments.
    package static func run(_ path: String, _ extra: [String] = []) throws -> StreamsRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-streams-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try FrameDumpProcess.run(["streams", "--json", "--write-dir", directory.path, path] + extra)
        let lines = try JSONLines.parse(result.stdout)
        var connections: [Connection] = []
        for line in lines where line["type"] as? String == "connection" {
            var directions: [Direction] = []
            for key in ["c2s", "s2c"] {
                let listed = line[key] as? [String: Any] ?? [:]
                let file = listed["file"] as? String
                let bytes = try file.map { [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))) } ?? []
                directions.append(Direction(
                    bytes: bytes, listedBytes: listed["bytes"] as? Int ?? -1, gaps: listed["gap_list"] as? [String] ?? [],
                    packets: listed["packets"] as? Int ?? -1, retransmittedBytes: listed["retransmitted_bytes"] as? Int ?? -1,
                    outOfOrderSegments: listed["out_of_order_segments"] as? Int ?? -1,
                    ignoredBytes: listed["ignored_bytes"] as? Int ?? -1, file: file))
            }
            connections.append(Connection(
                number: line["conn"] as? Int ?? -1, client: line["client"] as? String ?? "", server: line["server"] as? String ?? "",
                state: line["state"] as? String ?? "", roles: line["roles"] as? String ?? "", directions: directions))
        }
        let capture = lines.last { $0["type"] as? String == "capture" } ?? [:]
        return StreamsRun(connections: connections, capture: capture, result: result)
    }
}
