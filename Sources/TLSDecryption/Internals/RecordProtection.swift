import CCrypto

/// One direction's record protection under one set of keys: opens (decrypts and verifies)
/// records in order, counting their sequence numbers. Every cipher is OpenSSL's `EVP_CIPHER`.
///
/// - TLS 1.3 (RFC 8446 §5.2, §5.3): AEAD over the record header, nonce = IV ⊕ sequence number;
///   the inner plaintext ends with its content type and zero padding.
/// - TLS 1.2 AES-GCM (RFC 5288 §3): nonce = 4-byte salt ‖ the record's 8-byte explicit nonce.
/// - TLS 1.2 ChaCha20-Poly1305 (RFC 7905 §2): nonce = 12-byte IV ⊕ sequence number.
/// - TLS 1.2 AEAD data: sequence ‖ type ‖ version ‖ plaintext length (RFC 5246 §6.2.3.3).
/// - TLS 1.2 AES-CBC (RFC 5246 §6.2.3.2): explicit IV, then MAC-then-encrypt with padding, or
///   with encrypt_then_mac (RFC 7366 §3) the MAC over IV and ciphertext, checked first.
final class RecordProtection {
    enum Scheme {
        case tls13
        case tls12GCM
        case tls12ChaCha
        case tls12CBC(encryptThenMAC: Bool)
    }

    /// What opening one record gave.
    enum Opened {
        /// The plaintext is `output[0..<length]`; `type` is its content type.
        case plaintext(type: UInt8, length: Int)
        case failed(TLSDecryptFailure)
    }

    let scheme: Scheme
    private let context: OpaquePointer
    private var iv: [UInt8]
    private let mac: HMAC?
    private let crypto: LibCrypto
    private(set) var sequence: UInt64 = 0

    /// - Parameters:
    ///   - iv: TLS 1.3 and ChaCha20: 12 bytes; TLS 1.2 GCM: the 4-byte salt; CBC: unused.
    ///   - macKey: CBC only.
    /// - Returns: `nil` when libcrypto cannot be loaded, or OpenSSL refuses the cipher or the key.
    init?(suite: TLSCipherSuite, scheme: Scheme, key: [UInt8], iv: [UInt8], macKey: [UInt8] = []) {
        guard let crypto = LibCrypto.shared else { return nil }
        self.crypto = crypto
        self.scheme = scheme
        self.iv = iv
        if let hash = suite.mac {
            guard let mac = HMAC(hash: hash, key: macKey) else { return nil }
            self.mac = mac
        } else {
            mac = nil
        }
        let cipher: OpaquePointer? = switch suite.cipher {
        case .aes128GCM: crypto.EVP_aes_128_gcm()
        case .aes256GCM: crypto.EVP_aes_256_gcm()
        case .chaCha20Poly1305: crypto.EVP_chacha20_poly1305()
        case .aes128CBC: crypto.EVP_aes_128_cbc()
        case .aes256CBC: crypto.EVP_aes_256_cbc()
        }
        guard let cipher, let context = crypto.EVP_CIPHER_CTX_new() else { return nil }
        self.context = context
        let ok = key.withUnsafeBufferPointer { key in
            crypto.EVP_DecryptInit_ex(context, cipher, nil, key.baseAddress, nil) == 1
        }
        guard ok else { return nil }
        if suite.cipher.isAEAD {
            guard crypto.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, 12, nil) == 1 else { return nil }
        } else {
            _ = crypto.EVP_CIPHER_CTX_set_padding(context, 0)
        }
    }

    deinit { crypto.EVP_CIPHER_CTX_free(context) }

    /// The bytes a record's fragment has besides its plaintext at least (explicit nonce, tag).
    var overhead: Int {
        switch scheme {
        case .tls13: 17
        case .tls12GCM: 24
        case .tls12ChaCha: 16
        case .tls12CBC: 16 + (mac?.hash.length ?? 0) + 1
        }
    }

    /// Opens the next record; its sequence number counts whether or not it opens.
    ///
    /// - Parameters:
    ///   - type: The record header's content type.
    ///   - version: The record header's version.
    ///   - fragment: The record's fragment (the bytes after its 5-byte header).
    ///   - output: At least `fragment.count` bytes.
    func open(type: UInt8, version: UInt16, fragment: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Opened {
        defer { sequence &+= 1 }
        switch scheme {
        case .tls13:
            guard fragment.count >= 17 else { return .failed(.length) }
            let header: [UInt8] = [type, UInt8(version >> 8), UInt8(version & 0xFF), UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)]
            guard let length = openAEAD(nonce: xorNonce(), aad: header, ciphertext: UnsafeRawBufferPointer(rebasing: fragment.dropLast(16)),
                                        tag: UnsafeRawBufferPointer(rebasing: fragment.suffix(16)), into: output)
            else { return .failed(.tag) }
            // RFC 8446 §5.4: the content type is the last non-zero byte.
            var end = length
            while end > 0, output[end - 1] == 0 { end -= 1 }
            guard end > 0 else { return .failed(.innerType) }
            return .plaintext(type: output[end - 1], length: end - 1)
        case .tls12GCM:
            guard fragment.count >= 24 else { return .failed(.length) }
            let nonce = iv.prefix(4) + fragment.prefix(8)
            let length = fragment.count - 24
            guard let opened = openAEAD(nonce: Array(nonce), aad: aad(type: type, version: version, length: length),
                                        ciphertext: UnsafeRawBufferPointer(rebasing: fragment[8..<fragment.count - 16]),
                                        tag: UnsafeRawBufferPointer(rebasing: fragment.suffix(16)), into: output)
            else { return .failed(.tag) }
            return .plaintext(type: type, length: opened)
        case .tls12ChaCha:
            guard fragment.count >= 16 else { return .failed(.length) }
            guard let opened = openAEAD(nonce: xorNonce(), aad: aad(type: type, version: version, length: fragment.count - 16),
                                        ciphertext: UnsafeRawBufferPointer(rebasing: fragment.dropLast(16)),
                                        tag: UnsafeRawBufferPointer(rebasing: fragment.suffix(16)), into: output)
            else { return .failed(.tag) }
            return .plaintext(type: type, length: opened)
        case .tls12CBC(let encryptThenMAC):
            return openCBC(type: type, version: version, fragment: fragment, encryptThenMAC: encryptThenMAC, into: output)
        }
    }

    /// The IV ⊕ the sequence number, left-padded to 12 bytes (RFC 8446 §5.3, RFC 7905 §2).
    private func xorNonce() -> [UInt8] {
        var nonce = iv
        for index in 0..<8 {
            nonce[4 + index] ^= UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64(index)))
        }
        return nonce
    }

    /// seq_num ‖ type ‖ version ‖ length: the TLS 1.2 AEAD additional data and MAC prefix.
    private func aad(type: UInt8, version: UInt16, length: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 13)
        for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: sequence >> (56 - 8 * UInt64(index))) }
        bytes[8] = type
        bytes[9] = UInt8(version >> 8)
        bytes[10] = UInt8(version & 0xFF)
        bytes[11] = UInt8((length >> 8) & 0xFF)
        bytes[12] = UInt8(length & 0xFF)
        return bytes
    }

    /// Decrypts and verifies; returns the plaintext length, or `nil` when the tag does not match.
    private func openAEAD(nonce: [UInt8], aad: [UInt8], ciphertext: UnsafeRawBufferPointer, tag: UnsafeRawBufferPointer,
                          into output: UnsafeMutableRawBufferPointer) -> Int? {
        let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard nonce.withUnsafeBufferPointer({ crypto.EVP_DecryptInit_ex(context, nil, nil, nil, $0.baseAddress) }) == 1 else { return nil }
        var written: Int32 = 0
        guard aad.withUnsafeBufferPointer({ crypto.EVP_DecryptUpdate(context, nil, &written, $0.baseAddress, Int32($0.count)) }) == 1 else { return nil }
        var length = 0
        if !ciphertext.isEmpty {
            guard crypto.EVP_DecryptUpdate(context, out, &written, ciphertext.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                    Int32(ciphertext.count)) == 1 else { return nil }
            length = Int(written)
        }
        guard crypto.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, 16, UnsafeMutableRawPointer(mutating: tag.baseAddress)) == 1
        else { return nil }
        guard crypto.EVP_DecryptFinal_ex(context, out + length, &written) == 1 else { return nil }
        return length + Int(written)
    }

    private func openCBC(type: UInt8, version: UInt16, fragment: UnsafeRawBufferPointer, encryptThenMAC: Bool,
                         into output: UnsafeMutableRawBufferPointer) -> Opened {
        let mac = mac!
        let macLength = mac.hash.length
        var tag = [UInt8](repeating: 0, count: macLength)
        var blocks = UnsafeRawBufferPointer(rebasing: fragment[...])
        if encryptThenMAC {
            guard fragment.count >= 32 + macLength else { return .failed(.length) }
            blocks = UnsafeRawBufferPointer(rebasing: fragment.dropLast(macLength))
            mac.reset()
            mac.update(aad(type: type, version: version, length: blocks.count))
            mac.update(blocks)
            tag.withUnsafeMutableBytes { mac.finish(into: $0) }
            guard tag.elementsEqual(UnsafeRawBufferPointer(rebasing: fragment.suffix(macLength))) else { return .failed(.mac) }
        }
        guard blocks.count >= 32, blocks.count % 16 == 0 else { return .failed(.length) }
        let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let ivBytes = blocks.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard crypto.EVP_DecryptInit_ex(context, nil, nil, nil, ivBytes) == 1 else { return .failed(.padding) }
        var written: Int32 = 0
        guard crypto.EVP_DecryptUpdate(context, out, &written, ivBytes + 16, Int32(blocks.count - 16)) == 1 else { return .failed(.padding) }
        var length = Int(written)
        guard crypto.EVP_DecryptFinal_ex(context, out + length, &written) == 1 else { return .failed(.padding) }
        length += Int(written)
        // RFC 5246 §6.2.3.2: padding_length + 1 bytes, each of value padding_length.
        let padding = Int(output[length - 1])
        let macInside = encryptThenMAC ? 0 : macLength
        guard padding + 1 + macInside <= length else { return .failed(.padding) }
        for index in (length - 1 - padding)..<(length - 1) where output[index] != UInt8(padding) { return .failed(.padding) }
        let contentLength = length - padding - 1 - macInside
        if !encryptThenMAC {
            mac.reset()
            mac.update(aad(type: type, version: version, length: contentLength))
            mac.update(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[0..<contentLength]))
            tag.withUnsafeMutableBytes { mac.finish(into: $0) }
            guard tag.elementsEqual(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[contentLength..<contentLength + macLength]))
            else { return .failed(.mac) }
        }
        return .plaintext(type: type, length: contentLength)
    }
}
