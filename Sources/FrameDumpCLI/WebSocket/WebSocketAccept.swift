import TLSDecryption
import WebSocketFraming

/// `Sec-WebSocket-Accept` (RFC 6455 §4.2.2): base64 of the SHA-1 of the client's key followed by
/// ``WebSocketUpgrade/acceptGUID``, with SHA-1 from OpenSSL's libcrypto (``TLSHash/digest(of:)``).
enum WebSocketAccept {
    /// The accept value for `key` (§1.3's sample nonce gives `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`).
    /// Only traffic framedump writes needs it (`encode`, `fuzz`); a missing libcrypto stops
    /// the process with its soname, as a missing library at start-up would.
    static func value(forKey key: String) -> String {
        guard let digest = TLSHash.sha1.digest(of: Array((key + WebSocketUpgrade.acceptGUID).utf8)) else {
            preconditionFailure("SHA-1 needs OpenSSL's libcrypto: \(LibCrypto.loadFailure ?? LibCrypto.soname)")
        }
        var text: [UInt8] = []
        Base64.append(digest, to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
