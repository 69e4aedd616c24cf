/// What a key log holds for one client random: the TLS 1.2 master secret, or the TLS 1.3
/// traffic secrets (RFC 9850 §3).
public struct TLSSecrets: Sendable, Equatable {
    /// `CLIENT_RANDOM`: the 48-byte TLS 1.2 master secret (with extended_master_secret, RFC 7627,
    /// the session-hash master secret: the key log already holds the result, so the decoder
    /// needs no transcript).
    public var masterSecret: [UInt8]?
    /// `CLIENT_HANDSHAKE_TRAFFIC_SECRET`.
    public var clientHandshakeTrafficSecret: [UInt8]?
    /// `SERVER_HANDSHAKE_TRAFFIC_SECRET`.
    public var serverHandshakeTrafficSecret: [UInt8]?
    /// `CLIENT_TRAFFIC_SECRET_0`.
    public var clientTrafficSecret0: [UInt8]?
    /// `SERVER_TRAFFIC_SECRET_0`.
    public var serverTrafficSecret0: [UInt8]?

    public init() {}

    /// Whether it has anything.
    public var isEmpty: Bool {
        masterSecret == nil && clientHandshakeTrafficSecret == nil && serverHandshakeTrafficSecret == nil
            && clientTrafficSecret0 == nil && serverTrafficSecret0 == nil
    }
}

/// Where a TLS connection layer looks up the secrets of a client random.
///
/// Implementer notes: called whenever a direction needs a secret it does not have yet (its
/// first protected record, then again as ciphertext arrives while it waits), so an
/// implementation may read a key log that grows while the client runs (`capture`): read what
/// was appended before answering, even when the random is known already — a client logs its
/// handshake secrets before its traffic secrets, and a lookup between the two finds the first only.
public protocol TLSKeyProvider: AnyObject {
    /// The secrets logged for `clientRandom`, or `nil` when there are none (yet).
    func secrets(for clientRandom: ClientRandom) -> TLSSecrets?

    /// Whether a secret missing now may be there later (a key log still being written): the
    /// layer then holds the direction's ciphertext, up to ``TLSConnectionLayer/maxHeldBytes``,
    /// and asks again as more arrives.
    var mayLearnMore: Bool { get }
}

extension TLSKeyProvider {
    /// A fixed set of keys: what is missing stays missing.
    public var mayLearnMore: Bool { false }
}
