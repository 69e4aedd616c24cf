import CCrypto
import WebSocketFraming

/// `Sec-WebSocket-Accept` (RFC 6455 §4.2.2): base64 of the SHA-1 of the client's key followed by
/// ``WebSocketUpgrade/acceptGUID``, with SHA-1 from OpenSSL's libcrypto (`EVP_Digest`, `EVP_sha1`).
enum WebSocketAccept {
    /// The accept value for `key` (§1.3's sample nonce gives `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`).
    static func value(forKey key: String) -> String {
        let input = Array((key + WebSocketUpgrade.acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = EVP_Digest(input, input.count, &digest, &length, EVP_sha1(), nil)
        precondition(status == 1 && length == 20, "libcrypto's SHA-1 failed")
        var text: [UInt8] = []
        Base64.append(Array(digest[..<20]), to: &text)
        return String(decoding: text, as: UTF8.self)
    }
}
