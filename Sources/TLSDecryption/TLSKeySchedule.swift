/// The two key derivations a key log leaves to the decoder: TLS 1.2's key block from the master
/// secret, and TLS 1.3's traffic keys from a traffic secret. Both are HMAC-based; the HMAC is
/// OpenSSL's.
public enum TLSKeySchedule {
    /// The TLS 1.2 PRF, `P_hash(secret, label + seed)` (RFC 5246 §5).
    ///
    /// - Parameters:
    ///   - hash: The suite's PRF hash (SHA-256 unless the suite names SHA-384).
    ///   - secret: The secret (the master secret).
    ///   - label: The ASCII label, e.g. `key expansion`.
    ///   - seed: The seed (for the key block: server random then client random, RFC 5246 §6.3).
    ///   - length: How many bytes to produce.
    /// - Returns: `length` bytes, or `nil` when OpenSSL has no HMAC for `hash`.
    public static func prf(hash: TLSHash, secret: [UInt8], label: String, seed: [UInt8], length: Int) -> [UInt8]? {
        guard let hmac = HMAC(hash: hash, key: secret) else { return nil }
        let labelSeed = Array(label.utf8) + seed
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.length)
        var a = labelSeed  // A(0)
        while output.count < length {
            a = hmac.mac(a)
            output += hmac.mac(a, labelSeed)
        }
        return Array(output.prefix(length))
    }

    /// `HKDF-Expand-Label(secret, label, context, length)` (RFC 8446 §7.1): HKDF-Expand
    /// (RFC 5869 §2.3) of the `HkdfLabel` structure, whose label is `"tls13 " + label`.
    ///
    /// - Returns: `length` bytes (at most 255 × the hash length), or `nil` when OpenSSL has no
    ///   HMAC for `hash`.
    public static func hkdfExpandLabel(hash: TLSHash, secret: [UInt8], label: String, context: [UInt8] = [],
                                       length: Int) -> [UInt8]? {
        let fullLabel = Array("tls13 \(label)".utf8)
        let info = [UInt8(length >> 8), UInt8(length & 0xFF), UInt8(fullLabel.count)] + fullLabel
            + [UInt8(context.count)] + context
        guard let hmac = HMAC(hash: hash, key: secret) else { return nil }
        var output: [UInt8] = []
        var previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            previous = hmac.mac(previous, info, [counter])
            output += previous
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}
