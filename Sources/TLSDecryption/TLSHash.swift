import CCrypto

/// A hash function of TLS: the MAC of a CBC cipher suite (RFC 5246 §6.2.3.1), the TLS 1.2 PRF's
/// (RFC 5246 §5) and the TLS 1.3 key schedule's (RFC 8446 §7.1).
public enum TLSHash: Sendable, Hashable {
    case sha1
    case sha256
    case sha384

    /// The digest's length in bytes.
    public var length: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        }
    }

    /// The digest of `bytes`, ``length`` bytes, by OpenSSL's `EVP_Digest`.
    ///
    /// - Returns: `nil` when libcrypto (`libcrypto.so.3`, loaded on first use) cannot be loaded.
    public func digest(of bytes: [UInt8]) -> [UInt8]? {
        guard let crypto = LibCrypto.shared, let digest = crypto.EVP_get_digestbyname(openSSLName) else { return nil }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var written: UInt32 = 0
        let status = bytes.withUnsafeBytes { crypto.EVP_Digest($0.baseAddress, $0.count, &output, &written, digest, nil) }
        guard status == 1, Int(written) == length else { return nil }
        return Array(output[..<length])
    }

    /// OpenSSL's name of the digest (`OSSL_MAC_PARAM_DIGEST`, `EVP_get_digestbyname`).
    var openSSLName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        }
    }
}
