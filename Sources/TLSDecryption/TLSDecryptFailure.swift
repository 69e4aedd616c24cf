/// Why a protected TLS record, or the rest of a direction, could not be decrypted.
public enum TLSDecryptFailure: Sendable, Hashable, CustomStringConvertible {
    /// The AEAD tag did not verify (RFC 5116 §2.2).
    case tag
    /// The HMAC did not match (RFC 5246 §6.2.3.1, RFC 7366 §3).
    case mac
    /// The CBC padding was not valid (RFC 5246 §6.2.3.2).
    case padding
    /// The fragment is shorter than its cipher's nonce, tag, MAC or block.
    case length
    /// A TLS 1.3 inner plaintext held no content type (RFC 8446 §5.4).
    case innerType
    /// A record header announced more than 2^14 + 2048 bytes (RFC 5246 §6.2.3): the record
    /// layer lost its place; the rest of the direction is not decrypted.
    case recordTooLong
    /// Bytes of the direction were not captured: record boundaries and sequence numbers are
    /// lost; the rest of the direction is not decrypted.
    case gap
    /// A handshake message could not be parsed; the rest of the direction is not decrypted.
    case malformedHandshake
    /// The direction ended inside a record.
    case truncated

    /// The JSON `reason`: `tag`, `mac`, `padding`, `length`, `inner_type`, `record_too_long`,
    /// `gap`, `malformed_handshake`, `truncated`.
    public var description: String {
        switch self {
        case .tag: "tag"
        case .mac: "mac"
        case .padding: "padding"
        case .length: "length"
        case .innerType: "inner_type"
        case .recordTooLong: "record_too_long"
        case .gap: "gap"
        case .malformedHandshake: "malformed_handshake"
        case .truncated: "truncated"
        }
    }
}
