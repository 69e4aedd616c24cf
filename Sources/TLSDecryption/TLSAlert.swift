/// Names of TLS alerts (RFC 8446 §6, RFC 5246 §7.2), for output.
public enum TLSAlert {
    /// `warning` (1), `fatal` (2), or the number.
    public static func levelName(_ level: UInt8) -> String {
        switch level {
        case 1: "warning"
        case 2: "fatal"
        default: String(level)
        }
    }

    /// The AlertDescription's name (`close_notify`, `bad_record_mac`, …), or `nil` for a number
    /// neither RFC names.
    public static func descriptionName(_ description: UInt8) -> String? {
        switch description {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 20: "bad_record_mac"
        case 22: "record_overflow"
        case 40: "handshake_failure"
        case 42: "bad_certificate"
        case 43: "unsupported_certificate"
        case 44: "certificate_revoked"
        case 45: "certificate_expired"
        case 46: "certificate_unknown"
        case 47: "illegal_parameter"
        case 48: "unknown_ca"
        case 49: "access_denied"
        case 50: "decode_error"
        case 51: "decrypt_error"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 90: "user_canceled"
        case 100: "no_renegotiation"
        case 109: "missing_extension"
        case 110: "unsupported_extension"
        case 112: "unrecognized_name"
        case 113: "bad_certificate_status_response"
        case 115: "unknown_psk_identity"
        case 116: "certificate_required"
        case 120: "no_application_protocol"
        default: nil
        }
    }
}
