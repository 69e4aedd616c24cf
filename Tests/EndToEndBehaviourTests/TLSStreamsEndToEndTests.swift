import Foundation
import TestSupport
import Testing

/// `streams --tls-keylog`: each TLS connection's `tls` object (JSON) and line (text) say what its
/// handshake said, as `decode`'s `tls` event does, and how many plaintext bytes each direction
/// decrypted: exactly the bytes the generator recorded each side wrote.
@Suite struct TLSStreamsEndToEndTests {
    @Test(arguments: CaptureFixture.tls)
    func theTLSObjectMatchesTheHandshakeAndTheBytesWritten(_ fixture: CaptureFixture) throws {
        let result = try FrameDumpProcess.run(["streams", "--json", "--tls-keylog", fixture.keyLogPath, fixture.path])
        let listed = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "connection" }
        let handshakes = try fixture.expectedLines().filter { $0["type"] as? String == "tls" }
        let written = try fixture.summary()["connections"] as? [[String: Any]] ?? []
        #expect(listed.count == written.count, "\(fixture.file): connections")
        for connection in listed {
            let number = connection["conn"] as? Int ?? -1
            let label = "\(fixture.file) #\(number)"
            let tls = connection["tls"] as? [String: Any] ?? [:]
            let handshake = handshakes.first { $0["conn"] as? Int == number } ?? [:]
            for key in ["version", "cipher_suite", "sni"] {
                #expect(tls[key] as? String == handshake[key] as? String, "\(label): \(key)")
            }
            #expect(tls["alpn"] as? [String] == handshake["alpn"] as? [String], "\(label): alpn")
            #expect(tls["keys"] as? Bool == handshake["keys"] as? Bool, "\(label): keys")
            #expect(tls["resumed"] as? Bool == handshake["resumed"] as? Bool, "\(label): resumed")
            let sent = written.first { $0["connection"] as? Int == number - 1 } ?? [:]
            let logged = sent["keys_logged"] as? Bool ?? false
            let decrypted = tls["decrypted_bytes"] as? [String: Any] ?? [:]
            for (key, name) in [("client_to_server", "c2s"), ("server_to_client", "s2c")] {
                let bytes = (sent[key] as? [String: Any])?["bytes"] as? Int ?? -1
                #expect(decrypted[name] as? Int == (logged ? bytes : 0), "\(label) \(name): decrypted bytes")
            }
        }
    }

    @Test func theTextListingHasATLSLinePerConnection() throws {
        let fixture = CaptureFixture(file: "tls13-nokey.pcap", in: CaptureFixture.tlsDirectory)
        let result = try FrameDumpProcess.run(["streams", "--tls-keylog", fixture.keyLogPath, fixture.path])
        let written = try fixture.summary()["connections"] as? [[String: Any]] ?? []
        func bytes(_ connection: Int, _ key: String) -> Int {
            ((written.first { $0["connection"] as? Int == connection }?[key]) as? [String: Any])?["bytes"] as? Int ?? -1
        }
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  tls  ") }
        #expect(lines == [
            "  tls  TLS 1.3 TLS_AES_128_GCM_SHA256  sni localhost  alpn h12  keys found  decrypted c2s \(bytes(0, "client_to_server")) bytes  s2c \(bytes(0, "server_to_client")) bytes",
            "  tls  TLS 1.3 TLS_AES_128_GCM_SHA256  sni localhost  alpn h12  no keys in the key log  decrypted c2s 0 bytes  s2c 0 bytes",
        ])
        #expect(result.status == 2, "the second connection's bytes were not decrypted")
    }

    /// Without the option the listing is as it was: no `tls` object.
    @Test func withoutTheOptionThereIsNoTLSObject() throws {
        let fixture = CaptureFixture(file: "tls13-aes128gcm.pcap", in: CaptureFixture.tlsDirectory)
        let result = try FrameDumpProcess.run(["streams", "--json", fixture.path])
        let listed = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "connection" }
        #expect(listed.count == 1)
        #expect(listed.allSatisfy { $0["tls"] == nil })
    }
}
