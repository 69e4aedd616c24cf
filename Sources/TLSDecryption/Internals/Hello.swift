/// The fields of a ClientHello (RFC 8446 §4.1.2) the decoder needs.
struct ClientHello {
    var random: ClientRandom
    var sessionID: [UInt8]
    var serverName: String?
    var alpn: [String] = []

    /// - Returns: `nil` when the body is not a well-formed ClientHello.
    init?(body: [UInt8]) {
        var reader = HelloReader(body)
        guard reader.skip(2), let random = reader.bytes(32).flatMap(ClientRandom.init),
              let sessionID = reader.vector(lengthBytes: 1),
              reader.vector(lengthBytes: 2) != nil,  // cipher_suites
              reader.vector(lengthBytes: 1) != nil  // compression methods
        else { return nil }
        self.random = random
        self.sessionID = sessionID
        guard reader.isAtEnd || reader.extensions({ type, data in
            var ext = HelloReader(data)
            switch type {
            case 0:  // server_name: list of (name_type u8, host_name<1..2^16-1>)
                guard var list = ext.vector(lengthBytes: 2).map(HelloReader.init) else { return false }
                while !list.isAtEnd {
                    guard let nameType = list.bytes(1), let name = list.vector(lengthBytes: 2) else { return false }
                    if nameType[0] == 0 { serverName = String(decoding: name, as: UTF8.self) }
                }
            case 16:  // application_layer_protocol_negotiation: list of protocol names<1..2^8-1>
                guard var list = ext.vector(lengthBytes: 2).map(HelloReader.init) else { return false }
                while !list.isAtEnd {
                    guard let name = list.vector(lengthBytes: 1) else { return false }
                    alpn.append(String(decoding: name, as: UTF8.self))
                }
            default:
                break
            }
            return true
        }) else { return nil }
    }
}

/// The fields of a ServerHello (RFC 8446 §4.1.3, RFC 5246 §7.4.1.3) the decoder needs.
struct ServerHello {
    var random: [UInt8]
    var sessionID: [UInt8]
    var cipherSuite: UInt16
    /// supported_versions' selected version, else legacy_version.
    var version: UInt16
    var encryptThenMAC = false
    var extendedMasterSecret = false
    /// TLS 1.3: the server accepted a pre-shared key (pre_shared_key, RFC 8446 §4.2.11): a resumption.
    var acceptedPSK = false

    /// Whether it is a HelloRetryRequest: its random is SHA-256("HelloRetryRequest")
    /// (RFC 8446 §4.1.3).
    var isHelloRetryRequest: Bool { random == Self.helloRetryRequestRandom }

    private static let helloRetryRequestRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    /// - Returns: `nil` when the body is not a well-formed ServerHello.
    init?(body: [UInt8]) {
        var reader = HelloReader(body)
        guard let legacyVersion = reader.uint16(), let random = reader.bytes(32),
              let sessionID = reader.vector(lengthBytes: 1), let cipherSuite = reader.uint16(), reader.skip(1)
        else { return nil }
        self.random = random
        self.sessionID = sessionID
        self.cipherSuite = cipherSuite
        version = legacyVersion
        guard reader.isAtEnd || reader.extensions({ type, data in
            var ext = HelloReader(data)
            switch type {
            case 43:  // supported_versions: the selected version
                guard let selected = ext.uint16() else { return false }
                version = selected
            case 22: encryptThenMAC = true
            case 23: extendedMasterSecret = true
            case 41: acceptedPSK = true
            default: break
            }
            return true
        }) else { return nil }
    }
}

/// Reads a hello's big-endian integers and length-prefixed vectors (RFC 8446 §3.4).
struct HelloReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ count: Int) -> Bool {
        guard bytes.count - index >= count else { return false }
        index += count
        return true
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard bytes.count - index >= count else { return nil }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    mutating func uint16() -> UInt16? {
        bytes(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) }
    }

    /// A vector whose length is the next `lengthBytes` bytes.
    mutating func vector(lengthBytes: Int) -> [UInt8]? {
        guard let prefix = bytes(lengthBytes) else { return nil }
        return bytes(prefix.reduce(0) { $0 << 8 | Int($1) })
    }

    /// Reads the extensions block to the end, calling `body` with each one's type and data.
    ///
    /// - Returns: `false` when the block is malformed, `body` returned `false`, or bytes follow it.
    mutating func extensions(_ body: (UInt16, [UInt8]) -> Bool) -> Bool {
        guard var list = vector(lengthBytes: 2).map(HelloReader.init), isAtEnd else { return false }
        while !list.isAtEnd {
            guard let type = list.uint16(), let data = list.vector(lengthBytes: 2), body(type, data) else { return false }
        }
        return true
    }
}
