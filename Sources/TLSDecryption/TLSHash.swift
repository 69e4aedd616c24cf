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

    /// OpenSSL's name of the digest (`OSSL_MAC_PARAM_DIGEST`).
    var openSSLName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        }
    }
}
