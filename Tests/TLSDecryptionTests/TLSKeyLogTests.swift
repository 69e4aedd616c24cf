import Foundation
import TestSupport
import Testing
import TLSDecryption

@Suite struct TLSKeyLogTests {
    static let random = String(repeating: "ab", count: 32)
    static let master = String(repeating: "01", count: 48)

    @Test func malformedLinesAreWarningsWithTheirNumbersAndTheRestIsUsed() {
        let log = TLSKeyLog()
        let warnings = log.add(Array("""
            # comment

            CLIENT_RANDOM \(Self.random)
            CLIENT_RANDOM \(Self.random) \(Self.master)\r
            BOGUS_LABEL x y
            CLIENT_TRAFFIC_SECRET_0 abc \(Self.master)
            SERVER_TRAFFIC_SECRET_0 \(Self.random) zz
            CLIENT_RANDOM \(Self.random) 0102
            EXPORTER_SECRET \(Self.random) \(Self.master)
            CLIENT_HANDSHAKE_TRAFFIC_SECRET \(String(repeating: "cd", count: 32)) \(Self.master)
            SERVER_HANDSHAKE_TRAFFIC_SECRET \(String(repeating: "cd", count: 32)) \(String(repeating: "ee", count: 5000))
            SERVER_TRAFFIC_SECRET_0 \(String(repeating: "cd", count: 32)) \(String(repeating: "ee", count: 32))
            """.utf8), isComplete: true)
        #expect(warnings.map(\.line) == [3, 5, 6, 7, 8, 11])
        #expect(warnings.last?.message == "SERVER_HANDSHAKE_TRAFFIC_SECRET: the secret is 5000 bytes, expected 32 (SHA-256) or 48 (SHA-384)")
        #expect(warnings[0].message.contains("expected 3 fields"))
        #expect(warnings[1].message.contains("unknown label \"BOGUS_LABEL\""))
        #expect(warnings[2].message.contains("client random"))
        #expect(warnings[3].message.contains("not hex"))
        #expect(warnings[4].message.contains("48"))
        #expect(log.count == 2)
        #expect(log.secrets(for: ClientRandom([UInt8](repeating: 0xAB, count: 32))!)?.masterSecret == [UInt8](repeating: 1, count: 48))
    }

    /// A line over the bound (binary data, /dev/zero) is one warning, and the log stops there:
    /// memory holds the secrets and at most one line, whatever the text.
    @Test func aLineOverTheBoundEndsTheLog() {
        let log = TLSKeyLog()
        let valid = Array("CLIENT_RANDOM \(Self.random) \(Self.master)\n".utf8)
        let zeros = [UInt8](repeating: 0, count: 1000)
        #expect(log.add(valid).isEmpty)
        var warnings: [TLSKeyLog.Warning] = []
        for _ in 0..<100 { warnings += log.add(zeros) }
        #expect(warnings.map(\.line) == [2])
        #expect(warnings.first?.message == "over 65536 bytes with no line end, so not a key log line, and nothing after it is read")
        #expect(log.overlongLine == 2)
        #expect(log.add(Array("\nCLIENT_RANDOM \(String(repeating: "cd", count: 32)) \(Self.master)\n".utf8), isComplete: true).isEmpty)
        #expect(log.count == 1)
        // Exactly the bound, and a CR before the LF, is still a line.
        let atBound = TLSKeyLog()
        #expect(atBound.add(Array(repeating: UInt8(ascii: "#"), count: TLSKeyLog.maxLineLength) + Array("\r\n".utf8) + valid).isEmpty)
        #expect(atBound.count == 1 && atBound.overlongLine == nil)
    }

    /// A line arrives in pieces (a key log that grows while the client writes it).
    @Test func anUnfinishedLineWaitsForTheRest() {
        let log = TLSKeyLog()
        let line = Array("CLIENT_RANDOM \(Self.random) \(Self.master)\n".utf8)
        #expect(log.add(line[0..<30]).isEmpty)
        #expect(log.count == 0)
        #expect(log.add(line[30...]).isEmpty)
        #expect(log.count == 1)
    }

    /// The Decryption Secrets Block of the pcapng holds the key log it was made from; a pcap has none.
    @Test func decryptionSecretsBlocksAreFoundInPcapng() throws {
        let root = FrameDumpProcess.packageRoot
        let keys = try Data(contentsOf: root.appendingPathComponent("\(CaptureFixture.tlsDirectory)/tls13-aes128gcm.keys"))
        func logs(_ file: String) throws -> [[UInt8]] {
            let bytes = try [UInt8](Data(contentsOf: root.appendingPathComponent("\(CaptureFixture.tlsDirectory)/\(file)")))
            var position = 0
            return PcapngSecrets.tlsKeyLogs(
                read: { count in
                    guard position + count <= bytes.count else { return nil }
                    defer { position += count }
                    return Array(bytes[position..<position + count])
                },
                skip: { count in
                    position += count
                    return position <= bytes.count
                })
        }
        let found = try logs("tls13-aes128gcm-dsb.pcapng")
        #expect(found.count == 1)
        // editcap stores the file's lines (it may drop the comment line).
        let text = String(decoding: found.first ?? [], as: UTF8.self)
        for line in String(decoding: keys, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            #expect(text.contains(line))
        }
        #expect(try logs("tls13-aes128gcm.pcap").isEmpty)
    }
}
