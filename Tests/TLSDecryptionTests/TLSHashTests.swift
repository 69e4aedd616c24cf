import Testing
import TLSDecryption

/// The digests through libcrypto loaded on first use (`LibCrypto`), against FIPS 180-4's
/// published examples ("abc", and the empty message).
@Suite("TLSHash digests (libcrypto loaded on first use)")
struct TLSHashTests {
    static func hex(_ bytes: [UInt8]?) -> String? {
        bytes.map { $0.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
    }

    @Test("libcrypto loads")
    func loads() {
        #expect(LibCrypto.loadFailure == nil)
        #expect(LibCrypto.soname.hasPrefix("libcrypto."))
    }

    @Test("SHA-1, SHA-256 and SHA-384 of \"abc\" and of nothing")
    func knownAnswers() {
        let abc = Array("abc".utf8)
        #expect(Self.hex(TLSHash.sha1.digest(of: abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Self.hex(TLSHash.sha256.digest(of: abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(TLSHash.sha384.digest(of: abc))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(Self.hex(TLSHash.sha1.digest(of: [])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        for hash in [TLSHash.sha1, .sha256, .sha384] {
            #expect(hash.digest(of: abc)?.count == hash.length)
        }
    }
}
