/// A cipher suite this module can decrypt: its IANA number and name, its record protection,
/// and its PRF hash.
///
/// TLS 1.3 suites (RFC 8446 §B.4) and the TLS 1.2 suites with AES-GCM (RFC 5288, RFC 5289),
/// ChaCha20-Poly1305 (RFC 7905) and AES-CBC with HMAC (RFC 5246 §6.2.3.2, RFC 5289), over
/// RSA, DHE and ECDHE key exchange: with a key log the key exchange does not matter.
public struct TLSCipherSuite: Sendable, Hashable {
    /// The bulk cipher and how a record is protected with it.
    public enum Cipher: Sendable, Hashable {
        case aes128GCM
        case aes256GCM
        case chaCha20Poly1305
        case aes128CBC
        case aes256CBC

        /// The key length in bytes.
        public var keyLength: Int {
            switch self {
            case .aes128GCM, .aes128CBC: 16
            case .aes256GCM, .aes256CBC, .chaCha20Poly1305: 32
            }
        }

        /// Whether it is an AEAD (RFC 5116): no separate MAC.
        public var isAEAD: Bool {
            switch self {
            case .aes128GCM, .aes256GCM, .chaCha20Poly1305: true
            case .aes128CBC, .aes256CBC: false
            }
        }
    }

    /// The IANA number (the ServerHello's `cipher_suite`).
    public let id: UInt16
    /// The IANA name, e.g. `TLS_AES_128_GCM_SHA256`.
    public let name: String
    public let cipher: Cipher
    /// The record MAC's hash for a CBC suite; `nil` for an AEAD.
    public let mac: TLSHash?
    /// The TLS 1.2 PRF's hash, or the TLS 1.3 key schedule's.
    public let hash: TLSHash
    /// Whether it is a TLS 1.3 suite.
    public let isTLS13: Bool

    /// The suite numbered `id`, or `nil` when it is not one this module decrypts.
    public init?(id: UInt16) {
        guard let suite = Self.known.first(where: { $0.id == id }) else { return nil }
        self = suite
    }

    private init(_ id: UInt16, _ name: String, _ cipher: Cipher, mac: TLSHash? = nil, hash: TLSHash = .sha256, tls13: Bool = false) {
        self.id = id
        self.name = name
        self.cipher = cipher
        self.mac = mac
        self.hash = hash
        isTLS13 = tls13
    }

    /// Every suite this module decrypts.
    public static let known: [TLSCipherSuite] = [
        TLSCipherSuite(0x1301, "TLS_AES_128_GCM_SHA256", .aes128GCM, tls13: true),
        TLSCipherSuite(0x1302, "TLS_AES_256_GCM_SHA384", .aes256GCM, hash: .sha384, tls13: true),
        TLSCipherSuite(0x1303, "TLS_CHACHA20_POLY1305_SHA256", .chaCha20Poly1305, tls13: true),

        TLSCipherSuite(0xC02F, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", .aes128GCM),
        TLSCipherSuite(0xC030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", .aes256GCM, hash: .sha384),
        TLSCipherSuite(0xC02B, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", .aes128GCM),
        TLSCipherSuite(0xC02C, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", .aes256GCM, hash: .sha384),
        TLSCipherSuite(0x009E, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", .aes128GCM),
        TLSCipherSuite(0x009F, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", .aes256GCM, hash: .sha384),
        TLSCipherSuite(0x009C, "TLS_RSA_WITH_AES_128_GCM_SHA256", .aes128GCM),
        TLSCipherSuite(0x009D, "TLS_RSA_WITH_AES_256_GCM_SHA384", .aes256GCM, hash: .sha384),

        TLSCipherSuite(0xCCA8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", .chaCha20Poly1305),
        TLSCipherSuite(0xCCA9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", .chaCha20Poly1305),
        TLSCipherSuite(0xCCAA, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", .chaCha20Poly1305),

        TLSCipherSuite(0xC013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", .aes128CBC, mac: .sha1),
        TLSCipherSuite(0xC014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", .aes256CBC, mac: .sha1),
        TLSCipherSuite(0xC009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", .aes128CBC, mac: .sha1),
        TLSCipherSuite(0xC00A, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", .aes256CBC, mac: .sha1),
        TLSCipherSuite(0xC027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", .aes128CBC, mac: .sha256),
        TLSCipherSuite(0xC028, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", .aes256CBC, mac: .sha384, hash: .sha384),
        TLSCipherSuite(0xC023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", .aes128CBC, mac: .sha256),
        TLSCipherSuite(0xC024, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", .aes256CBC, mac: .sha384, hash: .sha384),
        TLSCipherSuite(0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", .aes128CBC, mac: .sha1),
        TLSCipherSuite(0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", .aes256CBC, mac: .sha1),
        TLSCipherSuite(0x0067, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", .aes128CBC, mac: .sha256),
        TLSCipherSuite(0x006B, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", .aes256CBC, mac: .sha256),
        TLSCipherSuite(0x002F, "TLS_RSA_WITH_AES_128_CBC_SHA", .aes128CBC, mac: .sha1),
        TLSCipherSuite(0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", .aes256CBC, mac: .sha1),
        TLSCipherSuite(0x003C, "TLS_RSA_WITH_AES_128_CBC_SHA256", .aes128CBC, mac: .sha256),
        TLSCipherSuite(0x003D, "TLS_RSA_WITH_AES_256_CBC_SHA256", .aes256CBC, mac: .sha256),
    ]
}
