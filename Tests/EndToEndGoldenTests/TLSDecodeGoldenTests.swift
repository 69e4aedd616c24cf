import Foundation
import TestSupport
import Testing

/// `framedump decode --tls-keylog` on every TLS capture: the output against the checked-in
/// goldens, and the goldens against the generator's own record of what each side wrote in
/// plaintext (`NAME.summary.json`), so a wrong golden cannot be accepted by regenerating it.
@Suite struct TLSDecodeGoldenTests {
    @Test(arguments: CaptureFixture.tls)
    func jsonLinesMatchTheGolden(_ fixture: CaptureFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--tls-keylog", fixture.keyLogPath, fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("jsonl"))
        let lost = try JSONLines.parse(result.stdout).contains { ["tls_no_key", "tls_decrypt_error"].contains($0["type"] as? String) }
        #expect(result.status == (lost ? 2 : 0), "exit status 2 exactly when TLS bytes were not decrypted")
    }

    /// The key log inside the pcapng (a Decryption Secrets Block) decrypts without the option,
    /// exactly as the option does on the same packets.
    @Test func decryptionSecretsBlockIsUsedWithoutTheOption() throws {
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "\(CaptureFixture.tlsDirectory)/tls13-aes128gcm-dsb.pcapng"])
        #expect(result.status == 0, "\(result.stderr)")
        let withOption = try CaptureFixture(file: "tls13-aes128gcm.pcap", in: CaptureFixture.tlsDirectory).expectedLines()
        let lines = try JSONLines.parse(result.stdout)
        #expect(lines.count == withOption.count)
        #expect(lines.map { $0["type"] as? String } == withOption.map { $0["type"] as? String })
        #expect(lines.map { $0["offset"] as? Int } == withOption.map { $0["offset"] as? Int })
    }

    @Test func everyScenarioHasItsGolden() {
        #expect(CaptureFixture.tls.count >= 25)
    }

    /// Per connection: one `tls` line whose version, suite, SNI, ALPN, keys, resumption and
    /// HelloRetryRequest are what the client saw (the server, for the HelloRetryRequest); per direction with keys, the frames decoded are exactly the frames
    /// written (offset in plaintext, body length, cmd) with good checksums, tiling the plaintext
    /// to the bytes written; without keys, no frame and one `tls_no_key`.
    @Test(arguments: CaptureFixture.tls)
    func goldenAgreesWithTheGeneratorSummary(_ fixture: CaptureFixture) throws {
        let summary = try fixture.summary()
        let lines = try fixture.expectedLines()
        let serverPort = summary["server_port"] as? Int ?? -1
        let connections = summary["connections"] as? [[String: Any]] ?? []
        #expect(!connections.isEmpty)
        for connection in connections {
            let number = (connection["connection"] as? Int ?? -1) + 1
            let mine = lines.filter { $0["conn"] as? Int == number }
            let label = "\(fixture.file) #\(number)"
            let sessions = mine.filter { $0["type"] as? String == "tls" }
            #expect(sessions.count == 1, "\(label): one tls line")
            let session = sessions.first ?? [:]
            let logged = connection["keys_logged"] as? Bool ?? false
            #expect(session["version"] as? String == (connection["version"] as? String)?.replacingOccurrences(of: "TLSv", with: "TLS "), "\(label)")
            #expect(Self.sameSuite(iana: session["cipher_suite"] as? String ?? "", openSSL: connection["cipher_suite"] as? String ?? ""),
                    "\(label): \(session["cipher_suite"] ?? "") is \(connection["cipher_suite"] ?? "")")
            #expect(session["sni"] as? String == "localhost", "\(label)")
            #expect(session["alpn"] as? [String] == ["h12"], "\(label)")
            #expect(session["keys"] as? Bool == logged, "\(label)")
            #expect(session["resumed"] as? Bool == connection["resumed"] as? Bool, "\(label)")
            #expect(session["hello_retry"] as? Bool == connection["hello_retry"] as? Bool ?? false, "\(label): HelloRetryRequest")
            for (key, name) in [("client_to_server", "c2s"), ("server_to_client", "s2c")] {
                let sent = connection[key] as? [String: Any] ?? [:]
                let records = mine.filter { $0["dir"] as? String == name && $0["type"] as? String != "tls" }
                #expect(records.allSatisfy { (JSONLines.port($0["dst"]) == serverPort) == (name == "c2s") }, "\(label) \(name): dst")
                if logged {
                    try checkDirection("\(label) \(name)", records: records, sent: sent)
                } else {
                    #expect(!records.contains { $0["type"] as? String == "frame" }, "\(label) \(name): no frames without keys")
                    #expect(records.filter { $0["type"] as? String == "tls_no_key" }.count == 1, "\(label) \(name): one tls_no_key")
                }
            }
        }
    }

    private func checkDirection(_ label: String, records: [[String: Any]], sent: [String: Any]) throws {
        let commands = ["ping": 1, "pong": 2, "msg": 3, "ack": 4]
        let expected = (sent["frames"] as? [[String: Any]] ?? []).map { frame in
            [frame["offset"] as? Int ?? -1, frame["body_length"] as? Int ?? -1, commands[frame["cmd"] as? String ?? ""] ?? -1]
        }
        let frames = records.filter { $0["type"] as? String == "frame" }
        let decoded = frames.map { record -> [Int] in
            [record["offset"] as? Int ?? -2, record["length"] as? Int ?? -2, (record["fields"] as? [String: Any])?["cmd"] as? Int ?? -1]
        }
        #expect(decoded == expected, "\(label): frames decoded vs frames written")
        #expect(frames.allSatisfy { $0["crc_ok"] as? Bool == true }, "\(label): every checksum good")
        #expect(!records.contains { ["tls_no_key", "tls_decrypt_error", "gap", "skip", "truncated"].contains($0["type"] as? String) },
                "\(label): nothing lost")
        let end = frames.last.map { ($0["offset"] as? Int ?? 0) + ($0["frame_length"] as? Int ?? 0) } ?? 0
        #expect(end == sent["bytes"] as? Int, "\(label): frames end at \(end) of the plaintext written")
        // The peer's close_notify ends each direction.
        #expect(records.last?["type"] as? String == "tls_alert" && records.last?["name"] as? String == "close_notify", "\(label)")
    }

    /// OpenSSL's TLS 1.2 names (`ECDHE-RSA-AES128-GCM-SHA256`) against IANA's
    /// (`TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`); TLS 1.3 names are the same in both.
    private static func sameSuite(iana: String, openSSL: String) -> Bool {
        if iana == openSSL { return true }
        let table = [
            "ECDHE-RSA-AES128-GCM-SHA256": "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "ECDHE-RSA-AES256-GCM-SHA384": "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "ECDHE-RSA-CHACHA20-POLY1305": "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "ECDHE-RSA-AES128-SHA": "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
            "ECDHE-RSA-AES128-SHA256": "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
            "ECDHE-RSA-AES256-SHA384": "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384",
            "ECDHE-ECDSA-AES128-GCM-SHA256": "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "ECDHE-ECDSA-CHACHA20-POLY1305": "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "DHE-RSA-AES128-GCM-SHA256": "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256",
            "DHE-RSA-AES256-SHA256": "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256",
        ]
        return table[openSSL] == iana
    }
}
