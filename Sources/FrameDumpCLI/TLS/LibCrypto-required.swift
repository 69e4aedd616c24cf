import TLSDecryption

extension LibCrypto {
    /// Stops a command that needs OpenSSL's libcrypto before it starts when libcrypto cannot be
    /// loaded (it is loaded on first use, not linked): exit 2 with the library's soname and
    /// the dynamic loader's message, rather than failing midway through the input or output.
    ///
    /// - Parameter purpose: What needs it, the message's subject: "TLS decryption".
    /// - Throws: ``CommandFailure`` (exit 2): "framedump: PURPOSE needs OpenSSL's libcrypto
    ///   (libcrypto.so.3): " and the loader's error (`dlerror(3)`) or the function it lacks.
    static func require(for purpose: String) throws(CommandFailure) {
        guard let failure = loadFailure else { return }
        throw CommandFailure(message: "framedump: \(purpose) needs OpenSSL's libcrypto (\(soname)): \(failure)", status: .badInput)
    }
}
