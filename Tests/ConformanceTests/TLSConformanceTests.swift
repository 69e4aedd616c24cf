import Foundation
import TestSupport
import Testing

/// `framedump streams --write-dir --tls-keylog` on every TLS capture: each direction's file is
/// its decrypted application data, byte for byte what tshark decrypts with the same key log
/// (`-z follow,tls,raw`), and what the generator recorded each side wrote (its SHA-256).
@Suite(.requires(.tshark))
struct TLSConformanceTests {
    @Test(arguments: CaptureFixture.tls)
    func decryptedStreamsMatchTsharkAndTheGenerator(_ fixture: CaptureFixture) throws {
        let ours = try StreamsRun.run(fixture.path, ["--tls-keylog", fixture.keyLogPath])
        let summary = try fixture.summary()
        let connections = summary["connections"] as? [[String: Any]] ?? []
        #expect(ours.connections.count == connections.count, "\(fixture.file): connections")
        let keyLog = FrameDumpProcess.packageRoot.appendingPathComponent(fixture.keyLogPath).path
        let theirs = try Tshark.follow(FrameDumpProcess.packageRoot.appendingPathComponent(fixture.path).path,
                                       streams: ours.connections.count, tlsKeyLog: keyLog)
        for (index, connection) in ours.connections.enumerated() {
            let label = "\(fixture.file) #\(connection.number)"
            let written = connections.first { $0["connection"] as? Int == connection.number - 1 } ?? [:]
            for (direction, key) in [(0, "client_to_server"), (1, "server_to_client")] {
                let mine = connection.directions[direction].bytes
                let logged = written["keys_logged"] as? Bool ?? false
                let sent = written[key] as? [String: Any] ?? [:]
                if logged {
                    #expect(SHA256.hex(mine) == sent["sha256"] as? String, "\(label) \(key): the plaintext each side wrote")
                } else {
                    #expect(mine.isEmpty, "\(label) \(key): nothing decrypted without keys")
                }
                // tshark's TLS follow names whichever node it took first as node 0, often the server.
                let followed = theirs[index]
                let senderIsNode0 = (direction == 0 ? connection.client : connection.server) == followed.nodes.0
                let tsharkData = senderIsNode0 ? followed.data.0 : followed.data.1
                #expect(mine == tsharkData, "\(label) \(key): \(mine.count) bytes decrypted, tshark \(tsharkData.count)")
            }
        }
    }
}
