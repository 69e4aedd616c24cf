import PacketDecoding
import TLSDecryption

/// What `streams --tls-keylog` says of one TLS connection: its handshake (the `tls` event) and
/// how many plaintext bytes each direction decrypted.
struct ConnectionTLS {
    /// The handshake's version, suite, SNI, ALPN and keys; `nil` when it was not captured.
    var session: TLSSession?
    /// Application data bytes decrypted, indexed by `StreamDirection.rawValue`.
    var decryptedBytes: [UInt64] = [0, 0]

    /// The listing's line:
    /// `tls  TLS 1.3 TLS_AES_128_GCM_SHA256  sni localhost  alpn h12  keys found  decrypted c2s 707 bytes  s2c 1224 bytes`.
    var text: String {
        var parts: [String]
        if let session {
            parts = ["\(session.versionName) \(session.cipherSuiteName)"]
            if let name = session.serverName { parts.append("sni \(name)") }
            if !session.alpn.isEmpty { parts.append("alpn \(session.alpn.joined(separator: ","))") }
            if session.resumed { parts.append("resumed") }
            parts.append(session.keysFound ? "keys found" : "no keys in the key log")
        } else {
            parts = ["handshake not captured"]
        }
        parts.append("decrypted c2s \(counted(decryptedBytes[0], "byte"))  s2c \(counted(decryptedBytes[1], "byte"))")
        return parts.joined(separator: "  ")
    }

    /// The `tls` object of the connection's JSON line: `version`, `cipher_suite`, `sni`, `alpn`,
    /// `keys`, `resumed` (`null` each when the handshake was not captured) and
    /// `decrypted_bytes` (`{"c2s": N, "s2c": N}`).
    func appendJSON(to buffer: inout [UInt8]) {
        buffer.append(contentsOf: "{\"version\":".utf8)
        appendString(session?.versionName, to: &buffer)
        buffer.append(contentsOf: ",\"cipher_suite\":".utf8)
        appendString(session?.cipherSuiteName, to: &buffer)
        buffer.append(contentsOf: ",\"sni\":".utf8)
        appendString(session?.serverName, to: &buffer)
        buffer.append(contentsOf: ",\"alpn\":".utf8)
        if let session {
            buffer.append(UInt8(ascii: "["))
            for (index, name) in session.alpn.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONString.append(name, to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        } else {
            buffer.append(contentsOf: "null".utf8)
        }
        buffer.append(contentsOf: ",\"keys\":".utf8)
        buffer.append(contentsOf: (session.map { $0.keysFound ? "true" : "false" } ?? "null").utf8)
        buffer.append(contentsOf: ",\"resumed\":".utf8)
        buffer.append(contentsOf: (session.map { $0.resumed ? "true" : "false" } ?? "null").utf8)
        buffer.append(contentsOf: ",\"decrypted_bytes\":{\"c2s\":".utf8)
        ByteFormatting.appendDecimal(decryptedBytes[0], to: &buffer)
        buffer.append(contentsOf: ",\"s2c\":".utf8)
        ByteFormatting.appendDecimal(decryptedBytes[1], to: &buffer)
        buffer.append(contentsOf: "}}".utf8)
    }

    private func appendString(_ value: String?, to buffer: inout [UInt8]) {
        if let value { JSONString.append(value, to: &buffer) } else { buffer.append(contentsOf: "null".utf8) }
    }
}
