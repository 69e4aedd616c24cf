import Foundation
import Testing
import TLSDecryption
@testable import FrameDumpCLI

/// `--tls-keylog` as `capture` reads it, while the client appends to the file.
@Suite struct KeyLogFileTests {
    static let random = String(repeating: "ab", count: 32)
    static func line(_ label: String, _ byte: String) -> String { "\(label) \(random) \(String(repeating: byte, count: 32))\n" }

    /// A client logs its handshake secrets, then (after the server's Finished) its traffic
    /// secrets: a lookup between the two finds the random with the first only, and the next
    /// lookup must read what was appended since, though the random is known already.
    @Test func aKnownRandomGainsTheSecretsLoggedAfterTheFirstLookup() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framedump-keys-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data((Self.line("CLIENT_HANDSHAKE_TRAFFIC_SECRET", "01") + Self.line("SERVER_HANDSHAKE_TRAFFIC_SECRET", "02")).utf8).write(to: path)
        let keys = try KeyLogFile(path: path.path, followsGrowth: true)
        let random = try #require(ClientRandom([UInt8](repeating: 0xAB, count: 32)))
        let early = keys.secrets(for: random)
        #expect(early?.serverHandshakeTrafficSecret == [UInt8](repeating: 2, count: 32))
        #expect(early?.clientTrafficSecret0 == nil)
        let handle = try FileHandle(forWritingTo: path)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((Self.line("CLIENT_TRAFFIC_SECRET_0", "03") + Self.line("SERVER_TRAFFIC_SECRET_0", "04")).utf8))
        try handle.close()
        let later = keys.secrets(for: random)
        #expect(later?.clientTrafficSecret0 == [UInt8](repeating: 3, count: 32))
        #expect(later?.serverTrafficSecret0 == [UInt8](repeating: 4, count: 32))
        #expect(later?.clientHandshakeTrafficSecret == [UInt8](repeating: 1, count: 32))
    }
}
