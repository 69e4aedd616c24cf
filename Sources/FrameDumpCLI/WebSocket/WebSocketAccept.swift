import TLSDecryption
import WebSocketFraming

/// `Sec-WebSocket-Accept` (RFC 6455 §4.2.2): base64 of the SHA-1 of the client's key followed by
/// ``WebSocketUpgrade/acceptGUID``, with SHA-1 from OpenSSL's libcrypto (``TLSHash/digest(of:)``).
enum WebSocketAccept {
    /// The accept value for `key` (§1.3's sample nonce gives `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`).
    /// Only traffic framedump writes needs it (`encode`, `fuzz`), which call ``requireLibCrypto()``
    /// before anything else: a missing libcrypto is then a command's failure, not a crash here.
    static func value(forKey key: String) -> String {
        guard let digest = TLSHash.sha1.digest(of: Array((key + WebSocketUpgrade.acceptGUID).utf8)) else {
            preconditionFailure("SHA-1 needs OpenSSL's libcrypto: \(LibCrypto.loadFailure ?? LibCrypto.soname)")
        }
        var text: [UInt8] = []
        Base64.append(digest, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Stops the command (exit 2, naming libcrypto and the loader's error) when SHA-1 cannot be
    /// computed because libcrypto cannot be loaded.
    ///
    /// - Throws: ``CommandFailure``, as ``LibCrypto/require(for:)``.
    static func requireLibCrypto() throws(CommandFailure) {
        try LibCrypto.require(for: "the WebSocket handshake's Sec-WebSocket-Accept (SHA-1)")
    }
}
