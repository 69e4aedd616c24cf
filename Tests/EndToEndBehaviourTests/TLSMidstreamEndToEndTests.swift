import Foundation
import TestSupport
import Testing

/// A capture that began in the middle of a TLS connection: no TCP handshake and no ClientHello,
/// so nothing can be decrypted. Hand-built from a real fixture's ciphertext (tls13-aes128gcm,
/// each direction's TCP stream as `streams -w` writes it), cut after its handshake at a record
/// boundary or inside a record; with `--tls-keylog` each direction is one `tls_no_key`
/// (`no_handshake`) covering all its bytes, and no byte is framed.
@Suite struct TLSMidstreamEndToEndTests {
    static let fixture = CaptureFixture(file: "tls13-aes128gcm.pcap", in: CaptureFixture.tlsDirectory)

    /// Each direction's ciphertext and the offsets its records start at.
    static func ciphertext() throws -> [(bytes: [UInt8], records: [Int])] {
        try StreamsRun.run(fixture.path).connections[0].directions.map { direction in
            var records: [Int] = []
            var index = 0
            while index + 5 <= direction.bytes.count {
                records.append(index)
                index += 5 + (Int(direction.bytes[index + 3]) << 8 | Int(direction.bytes[index + 4]))
            }
            return (direction.bytes, records)
        }
    }

    /// The capture of `c2s` then `s2c` (in segments of at most 600 bytes, client first, no SYN).
    static func capture(c2s: [UInt8], s2c: [UInt8]) throws -> String {
        var records: [CaptureBytes.Record] = []
        for (bytes, client) in [(c2s, true), (s2c, false)] {
            var offset = 0
            while offset < bytes.count {
                let chunk = Array(bytes[offset..<min(offset + 600, bytes.count)])
                let segment = PacketBuilder.tcp(sourcePort: client ? 40000 : 7000, destinationPort: client ? 7000 : 40000,
                                                sequence: (client ? 1000 : 50000) + UInt32(offset),
                                                acknowledgment: client ? 50000 : 1000 + UInt32(c2s.count), payload: chunk)
                let packet = PacketBuilder.ipv4(source: client ? PacketBuilder.clientV4 : PacketBuilder.serverV4,
                                                destination: client ? PacketBuilder.serverV4 : PacketBuilder.clientV4, payload: segment)
                records.append(.init(seconds: 1_700_000_000, fraction: UInt32(records.count) * 1000,
                                     bytes: PacketBuilder.ethernet(etherType: 0x0800, payload: packet)))
                offset += chunk.count
            }
        }
        return try CaptureBytes.temporaryFile(CaptureBytes.pcap(linkType: 1, records: records))
    }

    static func expectNoHandshake(c2s: [UInt8], s2c: [UInt8], _ label: String) throws {
        let path = try capture(c2s: c2s, s2c: s2c)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try FrameDumpProcess.run(["decode", "--json", "--payload", "none", "--tls-keylog", fixture.keyLogPath, path])
        let lines = try JSONLines.parse(result.stdout)
        #expect(result.status == 2, "\(label): bytes not decrypted")
        #expect(!lines.contains { ["frame", "skip", "truncated"].contains($0["type"] as? String) }, "\(label): nothing framed")
        let noKey = lines.filter { $0["type"] as? String == "tls_no_key" }
        #expect(noKey.count == 2, "\(label): \(result.stdout)")
        for (direction, bytes) in [("c2s", c2s), ("s2c", s2c)] {
            let event = noKey.first { $0["dir"] as? String == direction } ?? [:]
            #expect(event["reason"] as? String == "no_handshake", "\(label) \(direction)")
            #expect(event["offset"] as? Int == 0 && event["length"] as? Int == bytes.count, "\(label) \(direction): every byte counted")
        }
        let listed = try FrameDumpProcess.run(["streams", "--json", "--tls-keylog", fixture.keyLogPath, path])
        let tls = try JSONLines.parse(listed.stdout).first?["tls"] as? [String: Any]
        #expect(tls?["version"] is NSNull && tls?["keys"] is NSNull, "\(label): streams says the handshake was not captured")
        #expect((tls?["decrypted_bytes"] as? [String: Any])?["c2s"] as? Int == 0)
    }

    @Test func aCaptureStartingAtARecordBoundaryIsNoHandshake() throws {
        let directions = try Self.ciphertext()
        // The third record of each direction is past the ClientHello and the ServerHello.
        let (c2s, s2c) = (directions[0], directions[1])
        try Self.expectNoHandshake(c2s: Array(c2s.bytes[c2s.records[2]...]), s2c: Array(s2c.bytes[s2c.records[2]...]), "at a record")
    }

    /// Cut 1, 2, 3, 4 and 7 bytes into a record (inside its header, then its fragment) in the
    /// client's direction, whose bytes come first: resync finds the next record.
    @Test(arguments: [1, 2, 3, 4, 7])
    func aCaptureStartingInsideARecordIsNoHandshake(_ into: Int) throws {
        let directions = try Self.ciphertext()
        let (c2s, s2c) = (directions[0], directions[1])
        try Self.expectNoHandshake(c2s: Array(c2s.bytes[(c2s.records[2] + into)...]), s2c: Array(s2c.bytes[s2c.records[3]...]),
                                   "\(into) bytes into a record")
    }

    /// Plaintext of a connection whose handshake was not captured still frames with the option
    /// (it is searched for records, and none are found).
    @Test func aPlaintextMidstreamCaptureFramesAsWithoutTheOption() throws {
        let plain = CaptureFixture(file: "hb-midstream.pcap")
        let without = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", plain.path])
        let with = try FrameDumpProcess.run(["decode", "--json", "--format", "h12", "--tls-keylog", Self.fixture.keyLogPath, plain.path])
        #expect(with.stdout == without.stdout)
        #expect(with.status == without.status)
        #expect(with.stdout.contains("\"type\":\"frame\""))
    }
}
