import CCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenSSL's libcrypto, loaded the first time a digest, MAC or cipher is needed (`dlopen(3)`)
/// rather than linked: a process that never decrypts TLS nor checks a WebSocket handshake does
/// not pay for loading and relocating it at start-up (docs/performance.md, "Start-up").
///
/// The functions are OpenSSL 3's, with the signatures of its headers (`CCrypto`, which gives
/// the types and constants but links nothing): `evp.h` for the ciphers, digests and `EVP_MAC`,
/// `params.h` for `OSSL_PARAM`. The library is the one the headers belong to: its soname is
/// `libcrypto.so.<OPENSSL_VERSION_MAJOR>` (Darwin: `libcrypto.<major>.dylib`).
///
/// Immutable once loaded, and libcrypto 3 may be called from any thread, so one table serves
/// the whole process (``shared``).
public struct LibCrypto: @unchecked Sendable {
    typealias Context = OpaquePointer
    typealias Cipher = OpaquePointer

    let EVP_CIPHER_CTX_new: @convention(c) () -> Context?
    let EVP_CIPHER_CTX_free: @convention(c) (Context?) -> Void
    let EVP_CIPHER_CTX_ctrl: @convention(c) (Context?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    let EVP_CIPHER_CTX_set_padding: @convention(c) (Context?, Int32) -> Int32
    let EVP_DecryptInit_ex: @convention(c) (Context?, Cipher?, OpaquePointer?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Int32
    let EVP_DecryptUpdate: @convention(c) (Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?,
                                           UnsafePointer<UInt8>?, Int32) -> Int32
    let EVP_DecryptFinal_ex: @convention(c) (Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32
    let EVP_aes_128_gcm: @convention(c) () -> Cipher?
    let EVP_aes_256_gcm: @convention(c) () -> Cipher?
    let EVP_chacha20_poly1305: @convention(c) () -> Cipher?
    let EVP_aes_128_cbc: @convention(c) () -> Cipher?
    let EVP_aes_256_cbc: @convention(c) () -> Cipher?
    let EVP_MAC_fetch: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?
    let EVP_MAC_free: @convention(c) (OpaquePointer?) -> Void
    let EVP_MAC_CTX_new: @convention(c) (OpaquePointer?) -> Context?
    let EVP_MAC_CTX_free: @convention(c) (Context?) -> Void
    let EVP_MAC_init: @convention(c) (Context?, UnsafePointer<UInt8>?, Int, UnsafePointer<OSSL_PARAM>?) -> Int32
    let EVP_MAC_update: @convention(c) (Context?, UnsafePointer<UInt8>?, Int) -> Int32
    let EVP_MAC_final: @convention(c) (Context?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?, Int) -> Int32
    let OSSL_PARAM_construct_utf8_string: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> OSSL_PARAM
    let OSSL_PARAM_construct_end: @convention(c) () -> OSSL_PARAM
    let EVP_Digest: @convention(c) (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?,
                                    OpaquePointer?, OpaquePointer?) -> Int32
    let EVP_get_digestbyname: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?

    /// The process's libcrypto, loaded on first use, or why it could not be.
    private static let loaded = Result<LibCrypto, LoadFailure> { () throws(LoadFailure) in try LibCrypto() }

    /// The process's libcrypto; `nil` when it cannot be loaded or lacks a function (then no TLS
    /// record is decrypted and no digest computed).
    static var shared: LibCrypto? { try? loaded.get() }

    /// Why libcrypto cannot be used — the dynamic loader's message (`dlerror(3)`), or the
    /// function it lacks — loading it first if no one has; `nil` when it can be.
    public static var loadFailure: String? {
        guard case .failure(let failure) = loaded else { return nil }
        return failure.message
    }

    /// The soname of the libcrypto the headers belong to: `libcrypto.so.3` for OpenSSL 3.
    public static var soname: String {
        #if canImport(Darwin)
        "libcrypto.\(OPENSSL_VERSION_MAJOR).dylib"
        #else
        "libcrypto.so.\(OPENSSL_VERSION_MAJOR)"
        #endif
    }

    /// Why ``LibCrypto`` could not be loaded.
    struct LoadFailure: Error {
        let message: String
    }

    private init() throws(LoadFailure) {
        // Never closed: the functions are used until the process ends.
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadFailure(message: dlerror().map { String(cString: $0) } ?? "\(Self.soname): cannot be loaded")
        }
        func function<Function>(_ name: String) throws(LoadFailure) -> Function {
            guard let address = dlsym(handle, name) else { throw LoadFailure(message: "\(Self.soname) has no \(name)") }
            return unsafeBitCast(address, to: Function.self)
        }
        EVP_CIPHER_CTX_new = try function("EVP_CIPHER_CTX_new")
        EVP_CIPHER_CTX_free = try function("EVP_CIPHER_CTX_free")
        EVP_CIPHER_CTX_ctrl = try function("EVP_CIPHER_CTX_ctrl")
        EVP_CIPHER_CTX_set_padding = try function("EVP_CIPHER_CTX_set_padding")
        EVP_DecryptInit_ex = try function("EVP_DecryptInit_ex")
        EVP_DecryptUpdate = try function("EVP_DecryptUpdate")
        EVP_DecryptFinal_ex = try function("EVP_DecryptFinal_ex")
        EVP_aes_128_gcm = try function("EVP_aes_128_gcm")
        EVP_aes_256_gcm = try function("EVP_aes_256_gcm")
        EVP_chacha20_poly1305 = try function("EVP_chacha20_poly1305")
        EVP_aes_128_cbc = try function("EVP_aes_128_cbc")
        EVP_aes_256_cbc = try function("EVP_aes_256_cbc")
        EVP_MAC_fetch = try function("EVP_MAC_fetch")
        EVP_MAC_free = try function("EVP_MAC_free")
        EVP_MAC_CTX_new = try function("EVP_MAC_CTX_new")
        EVP_MAC_CTX_free = try function("EVP_MAC_CTX_free")
        EVP_MAC_init = try function("EVP_MAC_init")
        EVP_MAC_update = try function("EVP_MAC_update")
        EVP_MAC_final = try function("EVP_MAC_final")
        OSSL_PARAM_construct_utf8_string = try function("OSSL_PARAM_construct_utf8_string")
        OSSL_PARAM_construct_end = try function("OSSL_PARAM_construct_end")
        EVP_Digest = try function("EVP_Digest")
        EVP_get_digestbyname = try function("EVP_get_digestbyname")
    }
}
