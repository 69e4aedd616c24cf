import PacketDecoding

/// What a ``TLSConnectionLayer`` reports besides the plaintext. Offsets and lengths count bytes of
/// the direction's TCP stream (the ciphertext), so every byte of it is in the plaintext stream,
/// in a record the layer consumed (handshake, alert, change_cipher_spec, the record framing and
/// tags), or in one of these events.
public enum TLSEvent: Sendable, Equatable {
    /// Once per connection, when its first protected record needs keys: what the handshake said
    /// and whether the key log had the keys. JSON `tls`.
    case session(TLSSession)
    /// The direction's bytes from `offset` on (`length` of them) were not decrypted because no
    /// keys or no handshake are known for them; reported when the direction ends. JSON `tls_no_key`.
    case noKey(StreamDirection, offset: UInt64, length: UInt64, reason: TLSNoKeyReason)
    /// `length` bytes of records from `offset` did not decrypt. For one record (`tag`, `mac`,
    /// `padding`, `length`, `inner_type`) the plaintext stream has a gap in its place and
    /// decryption goes on; for `record_too_long`, `gap` and `malformed_handshake` the rest of
    /// the direction is lost and this is reported when it ends. JSON `tls_decrypt_error`.
    case decryptError(StreamDirection, offset: UInt64, length: UInt64, reason: TLSDecryptFailure)
    /// An alert record (RFC 8446 §6, RFC 5246 §7.2) at `offset`. JSON `tls_alert`.
    case alert(StreamDirection, offset: UInt64, level: UInt8, description: UInt8)
}

/// Why a direction's bytes were not decrypted.
public enum TLSNoKeyReason: Sendable, Hashable, CustomStringConvertible {
    /// The key log has no secrets for the connection's client random.
    case noKey
    /// The handshake was not captured (the capture began mid-connection), or ended before the
    /// ServerHello: no client random, version or cipher suite.
    case noHandshake
    /// The ServerHello chose a cipher suite this module does not decrypt (its number).
    case unsupportedCipherSuite(UInt16)

    /// The JSON `reason`: `no_key`, `no_handshake`, `unsupported_cipher_suite`.
    public var description: String {
        switch self {
        case .noKey: "no_key"
        case .noHandshake: "no_handshake"
        case .unsupportedCipherSuite: "unsupported_cipher_suite"
        }
    }
}

/// What a connection's handshake said (the `tls` event).
public struct TLSSession: Sendable, Equatable {
    /// The negotiated version: 0x0303 TLS 1.2, 0x0304 TLS 1.3 (from supported_versions,
    /// RFC 8446 §4.2.1, when the ServerHello has it).
    public var version: UInt16
    /// The ServerHello's cipher suite number.
    public var cipherSuite: UInt16
    /// The ClientHello's server_name (RFC 6066 §3), if any.
    public var serverName: String?
    /// The protocols the ClientHello offered in ALPN (RFC 7301), in order.
    public var alpn: [String]
    /// Whether the key log had secrets for the connection's client random.
    public var keysFound: Bool
    /// Whether a HelloRetryRequest came first (RFC 8446 §4.1.4).
    public var helloRetried: Bool
    /// TLS 1.2: whether the ServerHello accepted encrypt_then_mac (RFC 7366) for a CBC suite.
    public var encryptThenMAC: Bool
    /// TLS 1.2: whether the ServerHello accepted extended_master_secret (RFC 7627).
    public var extendedMasterSecret: Bool
    /// Whether the session was resumed: TLS 1.3, the ServerHello accepted a pre-shared key
    /// (RFC 8446 §2.2); TLS 1.2, it echoed the ClientHello's session ID (RFC 5246 §7.3).
    public var resumed: Bool

    /// `TLS 1.2`, `TLS 1.3`, or the number in hex.
    public var versionName: String {
        switch version {
        case 0x0301: "TLS 1.0"
        case 0x0302: "TLS 1.1"
        case 0x0303: "TLS 1.2"
        case 0x0304: "TLS 1.3"
        default: "0x" + String(version, radix: 16)
        }
    }

    /// The suite's IANA name, or its number in hex (`0x1304`) when this module does not know it.
    public var cipherSuiteName: String {
        TLSCipherSuite(id: cipherSuite)?.name ?? "0x" + String(cipherSuite, radix: 16)
    }
}

extension TLSEvent {
    /// The direction the event is about; `nil` for ``session(_:)``, which is the connection's.
    public var direction: StreamDirection? {
        switch self {
        case .session: nil
        case .noKey(let direction, _, _, _), .decryptError(let direction, _, _, _), .alert(let direction, _, _, _): direction
        }
    }
}
