import CCrypto

/// HMAC (RFC 2104) with one key, computed by OpenSSL's `EVP_MAC` "HMAC": the building block of
/// the TLS 1.2 PRF, HKDF and the CBC cipher suites' record MAC.
///
/// One context per key, re-initialised (`EVP_MAC_init` with no key keeps the key) for each
/// message, so a record's MAC costs no allocation.
final class HMAC {
    let hash: TLSHash
    private let crypto: LibCrypto
    private let context: OpaquePointer

    /// - Returns: `nil` when libcrypto cannot be loaded, or OpenSSL has no HMAC or no such
    ///   digest (a broken installation).
    init?(hash: TLSHash, key: some Collection<UInt8>) {
        self.hash = hash
        guard let crypto = LibCrypto.shared, let mac = crypto.EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
        defer { crypto.EVP_MAC_free(mac) }
        guard let context = crypto.EVP_MAC_CTX_new(mac) else { return nil }
        self.crypto = crypto
        self.context = context
        let keyBytes = Array(key)
        let initialised = hash.openSSLName.withCString { name in
            var params = [
                crypto.OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, UnsafeMutablePointer(mutating: name), 0),
                crypto.OSSL_PARAM_construct_end(),
            ]
            return keyBytes.withUnsafeBufferPointer { key in
                crypto.EVP_MAC_init(context, key.baseAddress ?? UnsafePointer(bitPattern: 1), key.count, &params) == 1
            }
        }
        if !initialised { return nil }
    }

    deinit { crypto.EVP_MAC_CTX_free(context) }

    /// Starts a new message with the same key.
    func reset() {
        _ = crypto.EVP_MAC_init(context, nil, 0, nil)
    }

    /// Adds bytes to the message.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = crypto.EVP_MAC_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Adds bytes to the message.
    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Ends the message: writes the MAC (``TLSHash/length`` bytes) to `output`.
    func finish(into output: UnsafeMutableRawBufferPointer) {
        var written = 0
        _ = crypto.EVP_MAC_final(context, output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written, output.count)
    }

    /// Ends the message and returns the MAC.
    func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: hash.length)
        out.withUnsafeMutableBytes { finish(into: $0) }
        return out
    }

    /// The MAC of one message of parts.
    func mac(_ parts: [UInt8]...) -> [UInt8] {
        reset()
        for part in parts { update(part) }
        return finish()
    }
}
