/// A ClientHello's 32-byte `random` (RFC 8446 §4.1.2, RFC 5246 §7.4.1.2): what a key log
/// line names its connection by.
public struct ClientRandom: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes, in wire order.
    public let bytes: [UInt8]

    /// - Returns: `nil` unless `bytes` holds exactly 32 bytes.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Lower-case hex, as key logs write it.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension ClientRandom {
    /// Whether `keys` has any secret for this random.
    func isLogged(in keys: TLSKeyProvider) -> Bool {
        keys.secrets(for: self).map { !$0.isEmpty } ?? false
    }
}
