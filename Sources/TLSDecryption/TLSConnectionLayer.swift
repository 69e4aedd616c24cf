import PacketDecoding
import StreamFraming

/// Decrypts one TCP connection's TLS: a ``ConnectionLayer`` whose output streams are each
/// direction's application data, in plaintext bytes, and whose events are ``TLSEvent``s.
///
/// ```
/// c2s: [ClientHello][CCS][Finished*][appdata*][appdata*]…     * protected records
/// s2c: [ServerHello][CCS][EE…Finished*][appdata*]…
///        │  client random, version, suite          │
///        └─ keys from the TLSKeyProvider ──────────┴─> plaintext of each appdata record
/// ```
///
/// - Detection: the connection is TLS when its client's first bytes are a handshake record
///   holding a ClientHello; when the first direction begins with some other TLS record header
///   (the capture began mid-connection) both directions are reported ``TLSNoKeyReason/noHandshake``,
///   their bytes counted and not framed. A connection whose TCP handshake was not captured may
///   also begin inside a record: its first direction is searched for two consecutive plausible
///   record headers within one maximal record (``RecordSync``). Anything else passes through
///   unchanged, so plaintext connections frame as without the layer.
/// - Records (RFC 8446 §5.1, RFC 5246 §6.2) are reassembled across segments and read in place
///   when a segment holds them whole; a record header announcing more than
///   ``maxRecordLength`` bytes stops the direction (``TLSDecryptFailure/recordTooLong``).
/// - Keys: TLS 1.3 traffic keys and IVs by HKDF-Expand-Label from the logged traffic secrets
///   (RFC 8446 §7.3), handshake keys until each side's Finished, then `*_TRAFFIC_SECRET_0`,
///   updated on each KeyUpdate (§7.2); TLS 1.2's key block by the PRF from the logged master
///   secret (RFC 5246 §6.3), from each side's ChangeCipherSpec.
/// - Every protected record is verified (tag or MAC and padding) before its plaintext is used:
///   a record that fails is a ``TLSEvent/decryptError(_:offset:length:reason:)`` and a gap in
///   the plaintext stream, never plaintext.
///
/// Handshake, alert and change_cipher_spec records are not part of the output streams.
/// Early data (0-RTT) is not decrypted.
public final class TLSConnectionLayer: ConnectionLayer {
    public typealias Event = TLSEvent

    /// The most ciphertext one direction holds while it waits for keys a growing key log does
    /// not have yet (``TLSKeyProvider/mayLearnMore``); beyond it the direction is ``TLSNoKeyReason/noKey``.
    public static let maxHeldBytes = 1 << 20

    /// The longest record fragment accepted: 2^14 + 2048 bytes (RFC 5246 §6.2.3; RFC 8446
    /// §5.2 allows 2^14 + 256).
    public static let maxRecordLength = (1 << 14) + 2048

    private enum Mode {
        case undecided
        case passthrough
        case tls
    }

    /// Why a direction's remaining bytes are not decrypted, and from where.
    private struct Stop {
        enum Kind {
            case noKey(TLSNoKeyReason)
            case failure(TLSDecryptFailure)
        }

        let offset: UInt64
        let kind: Kind
    }

    private struct Direction {
        /// Bytes of the direction's stream taken so far (including `pending`).
        var offset: UInt64 = 0
        /// The first bytes of an incomplete record.
        var pending: [UInt8] = []
        var protection: RecordProtection?
        /// TLS 1.3: the secret `protection` was made from.
        var secret: [UInt8] = []
        var usesApplicationKeys = false
        var handshake = HandshakeReader()
        var stop: Stop?
        var ended = false
        /// Bytes received before the connection was recognised (or not).
        var probe: [UInt8] = []
        /// Ciphertext held while the keys are not in the key log yet (`nil`: not waiting), and
        /// the stream offset it starts at.
        var held: [UInt8]?
        var heldFrom: UInt64 = 0
    }

    private enum KeyChange {
        case none
        case applicationKeys
        case update
    }

    private let keys: TLSKeyProvider
    private let handshakeMayBeMissing: Bool
    private var sync = RecordSync()
    private var mode = Mode.undecided
    private var directions = [Direction(), Direction()]
    /// The direction whose bytes came first, while undecided.
    private var first: StreamDirection?
    private var clientHello: ClientHello?
    private var serverHello: ServerHello?
    private var suite: TLSCipherSuite?
    private var helloRetried = false
    private var secrets: TLSSecrets?
    private var announced = false
    private var keyChange = KeyChange.none
    /// Decrypted plaintext of one record.
    private var scratch: UnsafeMutableRawBufferPointer?

    /// - Parameters:
    ///   - keys: Where the secrets of the connection's client random are looked up.
    ///   - handshakeMayBeMissing: The capture has no TCP handshake for the connection (it began
    ///     mid-connection: ``RoleEvidence/firstPacket``), so its first bytes may be inside a TLS
    ///     record. Detection then waits for a record boundary to be confirmed or ruled out (at
    ///     most about two maximal records of the first direction, or its end) before taking the
    ///     connection for plaintext.
    public init(keys: TLSKeyProvider, handshakeMayBeMissing: Bool = false) {
        self.keys = keys
        self.handshakeMayBeMissing = handshakeMayBeMissing
    }

    deinit { scratch?.deallocate() }

    /// Whether the connection was recognised as TLS (`nil` while it is not known yet).
    public var isTLS: Bool? {
        switch mode {
        case .undecided: nil
        case .passthrough: false
        case .tls: true
        }
    }

    public func receive(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection,
                        _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        switch mode {
        case .passthrough:
            try emit(.data(bytes, direction))
        case .tls:
            try read(bytes, from: direction, emit)
        case .undecided:
            if first == nil { first = direction }
            directions[direction.rawValue].probe.append(contentsOf: bytes)
            let probe = directions[first!.rawValue].probe
            let decidable = handshakeMayBeMissing
                ? Self.startsWithClientHello(probe, from: first!) || sync.scan(probe, final: false) != .needMore
                : probe.count >= 6
            if decidable || directions[direction.rawValue].probe.count > 1 << 16 {
                try decide(emit)
            }
        }
    }

    public func noteGap(byteCount: UInt64, from direction: StreamDirection,
                        _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        if mode == .undecided { try decide(emit) }
        switch mode {
        case .passthrough, .undecided:
            try emit(.gap(byteCount: byteCount, direction))
        case .tls:
            stop(direction, .failure(.gap))
            directions[direction.rawValue].offset += byteCount
        }
    }

    public func endStream(_ direction: StreamDirection, _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        guard !directions[direction.rawValue].ended else { return }
        if mode == .undecided { try decide(emit) }
        directions[direction.rawValue].ended = true
        if mode == .tls {
            try retryHeld(direction, emit, final: true)
            if !directions[direction.rawValue].pending.isEmpty { stop(direction, .failure(.truncated)) }
            if !announced, serverHello != nil { try announce(emit) }
            let state = directions[direction.rawValue]
            if let stop = state.stop {
                let length = state.offset - stop.offset
                switch stop.kind {
                case .noKey(let reason):
                    try emit(.event(.noKey(direction, offset: stop.offset, length: length, reason: reason)))
                case .failure(let reason):
                    try emit(.event(.decryptError(direction, offset: stop.offset, length: length, reason: reason)))
                }
            }
        }
        try emit(.end(direction))
    }

    // MARK: Detection

    /// Decides from the first bytes whether the connection is TLS, then replays them.
    private func decide(_ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        let firstDirection = first ?? .clientToServer
        let probe = directions[firstDirection.rawValue].probe
        let looksLikeRecord = probe.count >= 3 && (20...23).contains(probe[0]) && probe[1] == 3 && probe[2] <= 4
        if Self.startsWithClientHello(probe, from: firstDirection) {
            mode = .tls
        } else if handshakeMayBeMissing {
            if case .found = sync.scan(probe, final: true) {
                mode = .tls
                for direction in StreamDirection.allCases { stop(direction, .noKey(.noHandshake)) }
            } else {
                mode = .passthrough
            }
        } else if looksLikeRecord {
            mode = .tls
            for direction in StreamDirection.allCases { stop(direction, .noKey(.noHandshake)) }
        } else {
            mode = .passthrough
        }
        if mode == .tls { scratch = .allocate(byteCount: Self.maxRecordLength + 64, alignment: 16) }
        for direction in [firstDirection, firstDirection.reversed] {
            let bytes = directions[direction.rawValue].probe
            directions[direction.rawValue].probe = []
            guard !bytes.isEmpty else { continue }
            try bytes.withUnsafeBytes { try receive($0, from: direction, emit) }
        }
    }

    /// Whether a client's first bytes are a handshake record holding a ClientHello.
    private static func startsWithClientHello(_ probe: [UInt8], from direction: StreamDirection) -> Bool {
        direction == .clientToServer && probe.count >= 6 && probe[0] == 22 && probe[1] == 3 && probe[2] <= 4 && probe[5] == 1
    }

    // MARK: Records

    /// Reads one direction's bytes as records: completes a pending record, reads whole records
    /// in place, keeps the rest.
    private func read(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection,
                      _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        let d = direction.rawValue
        let start = directions[d].offset
        // While a record is processed, `offset` is where it ends (what a stop defaults to).
        defer { directions[d].offset = start + UInt64(bytes.count) }
        guard directions[d].stop == nil else { return }
        if directions[d].held != nil {
            directions[d].held!.append(contentsOf: bytes)
            return try retryHeld(direction, emit)
        }
        var index = 0
        if !directions[d].pending.isEmpty {
            let pendingStart = start - UInt64(directions[d].pending.count)
            if directions[d].pending.count < 5 {
                let take = min(5 - directions[d].pending.count, bytes.count)
                directions[d].pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
                index = take
                guard directions[d].pending.count == 5 else { return }
            }
            let length = Int(directions[d].pending[3]) << 8 | Int(directions[d].pending[4])
            guard length <= Self.maxRecordLength else {
                stop(direction, .failure(.recordTooLong), at: pendingStart)
                return
            }
            let take = min(5 + length - directions[d].pending.count, bytes.count - index)
            directions[d].pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]))
            index += take
            guard directions[d].pending.count == 5 + length else { return }
            // Swapped out rather than copied, and its buffer handed back: no allocation per record.
            var record: [UInt8] = []
            swap(&record, &directions[d].pending)
            directions[d].offset = start + UInt64(index)
            try record.withUnsafeBytes { try process($0, at: pendingStart, from: direction, emit) }
            if directions[d].stop == nil, directions[d].pending.isEmpty {
                record.removeAll(keepingCapacity: true)
                swap(&record, &directions[d].pending)
            }
        }
        while directions[d].stop == nil, directions[d].held == nil, bytes.count - index >= 5 {
            let length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            guard length <= Self.maxRecordLength else {
                stop(direction, .failure(.recordTooLong), at: start + UInt64(index))
                return
            }
            guard bytes.count - index >= 5 + length else { break }
            directions[d].offset = start + UInt64(index + 5 + length)
            try process(UnsafeRawBufferPointer(rebasing: bytes[index..<index + 5 + length]), at: start + UInt64(index), from: direction, emit)
            index += 5 + length
        }
        if directions[d].held != nil {
            directions[d].held!.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...]))
        } else if directions[d].stop == nil, index < bytes.count {
            directions[d].pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index...]))
        }
    }

    /// Handles one whole record (header and fragment) at stream offset `offset`.
    private func process(_ record: UnsafeRawBufferPointer, at offset: UInt64, from direction: StreamDirection,
                         _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        let d = direction.rawValue
        let type = record[0]
        let version = UInt16(record[1]) << 8 | UInt16(record[2])
        let fragment = UnsafeRawBufferPointer(rebasing: record[5...])
        let isTLS13 = suite?.isTLS13 == true
        if type == 20 {
            // TLS 1.3 sends change_cipher_spec for middlebox compatibility only (RFC 8446 §D.4),
            // also right after a HelloRetryRequest, before the ServerHello that follows it.
            if serverHello == nil {
                if !helloRetried { stop(direction, .noKey(.noHandshake), at: offset + UInt64(record.count)) }
            } else if !isTLS13 {
                installTLS12Keys(direction, nextRecordAt: offset + UInt64(record.count))
                if directions[d].held == nil { try announce(emit) }
            }
            return
        }
        if directions[d].protection == nil, isTLS13, type == 23 {
            installTLS13Keys(direction, at: offset)
            if directions[d].held != nil {
                directions[d].held!.append(contentsOf: record)
                return
            }
            try announce(emit)
            guard directions[d].stop == nil else { return }
        }
        guard let protection = directions[d].protection, isTLS13 ? type == 23 : true else {
            try plaintext(type: type, UnsafeRawBufferPointer(fragment), at: offset, from: direction, emit)
            return
        }
        let scratch = scratch!
        switch protection.open(type: type, version: version, fragment: fragment, into: scratch) {
        case .plaintext(let innerType, let length):
            try plaintext(type: innerType, UnsafeRawBufferPointer(rebasing: scratch[0..<length]), at: offset, from: direction, emit)
        case .failed(let reason):
            if isTLS13, !directions[d].usesApplicationKeys {
                // A handshake record lost: its Finished (and so the switch of keys) may be in it.
                stop(direction, .failure(reason), at: offset)
                return
            }
            try emit(.event(.decryptError(direction, offset: offset, length: UInt64(record.count), reason: reason)))
            if isTLS13 || type == 23 {
                try emit(.gap(byteCount: UInt64(max(1, fragment.count - protection.overhead)), direction))
            }
        }
        switch keyChange {
        case .none: break
        case .applicationKeys:
            directions[d].usesApplicationKeys = true
            installTLS13Keys(direction, at: offset + UInt64(record.count))
        case .update:
            updateTLS13Keys(direction, at: offset + UInt64(record.count))
        }
        keyChange = .none
    }

    /// Handles a record's plaintext (decrypted, or never protected) of content type `type`.
    private func plaintext(type: UInt8, _ content: UnsafeRawBufferPointer, at offset: UInt64, from direction: StreamDirection,
                           _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        switch type {
        case 23:
            if directions[direction.rawValue].protection == nil {
                stop(direction, .noKey(.noHandshake), at: offset)
            } else if !content.isEmpty {
                try emit(.data(content, direction))
            }
        case 22:
            // Taken out while it reads: a message's handling changes the direction's state.
            var reader = directions[direction.rawValue].handshake
            directions[direction.rawValue].handshake = HandshakeReader()
            let parsed = try reader.feed(content) { type, body in try handshakeMessage(type, body, from: direction, emit) }
            directions[direction.rawValue].handshake = reader
            if !parsed { stop(direction, .failure(.malformedHandshake), at: offset) }
        case 21:
            var index = 0
            while index + 1 < content.count {
                try emit(.event(.alert(direction, offset: offset, level: content[index], description: content[index + 1])))
                index += 2
            }
        default:
            break
        }
    }

    /// Reads one complete handshake message.
    private func handshakeMessage(_ type: UInt8, _ body: [UInt8], from direction: StreamDirection,
                                  _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        let d = direction.rawValue
        switch (type, direction) {
        case (1, .clientToServer):
            guard let hello = ClientHello(body: body) else { return stop(direction, .failure(.malformedHandshake)) }
            clientHello = hello
        case (2, .serverToClient):
            guard let hello = ServerHello(body: body) else { return stop(direction, .failure(.malformedHandshake)) }
            if hello.isHelloRetryRequest {
                helloRetried = true
                return
            }
            serverHello = hello
            guard clientHello != nil else {
                for direction in StreamDirection.allCases { stop(direction, .noKey(.noHandshake)) }
                return
            }
            guard let suite = TLSCipherSuite(id: hello.cipherSuite), suite.isTLS13 == (hello.version == 0x0304) else {
                try announce(emit)
                for direction in StreamDirection.allCases { stop(direction, .noKey(.unsupportedCipherSuite(hello.cipherSuite))) }
                return
            }
            self.suite = suite
        case (20, _):
            if suite?.isTLS13 == true, !directions[d].usesApplicationKeys { keyChange = .applicationKeys }
        case (24, _):
            if suite?.isTLS13 == true, directions[d].usesApplicationKeys { keyChange = .update }
        default:
            break
        }
    }

    // MARK: Keys

    /// One of the connection's secrets, looked up when first needed; looked up again while it
    /// is missing (a key log that grows while the client runs may have it by now).
    private func secret(_ which: KeyPath<TLSSecrets, [UInt8]?>) -> [UInt8]? {
        if let secret = secrets?[keyPath: which] { return secret }
        if let random = clientHello?.random, let found = keys.secrets(for: random) { secrets = found }
        return secrets?[keyPath: which]
    }

    private func announce(_ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void) throws {
        guard !announced, let serverHello, let clientHello else { return }
        announced = true
        // TLS 1.3 resumes with a PSK; TLS 1.2's server echoes the session ID it resumes.
        let resumed = serverHello.version == 0x0304
            ? serverHello.acceptedPSK
            : !clientHello.sessionID.isEmpty && clientHello.sessionID == serverHello.sessionID
        try emit(.event(.session(TLSSession(
            version: serverHello.version, cipherSuite: serverHello.cipherSuite, serverName: clientHello.serverName,
            alpn: clientHello.alpn, keysFound: secrets != nil || clientHello.random.isLogged(in: keys), helloRetried: helloRetried,
            encryptThenMAC: serverHello.encryptThenMAC && suite?.cipher.isAEAD == false,
            extendedMasterSecret: serverHello.extendedMasterSecret, resumed: resumed))))
    }

    /// TLS 1.2, at a ChangeCipherSpec: the direction's keys from the key block (RFC 5246 §6.3).
    private func installTLS12Keys(_ direction: StreamDirection, nextRecordAt offset: UInt64) {
        guard let suite, let serverHello, let clientHello else { return stop(direction, .noKey(.noHandshake), at: offset) }
        guard let master = secret(\.masterSecret) else { return awaitKeys(direction, from: offset) }
        let macLength = suite.mac?.length ?? 0
        let keyLength = suite.cipher.keyLength
        let ivLength = switch suite.cipher {
        case .aes128GCM, .aes256GCM: 4
        case .chaCha20Poly1305: 12
        case .aes128CBC, .aes256CBC: 0  // TLS 1.2 CBC records carry their IV (RFC 5246 §6.2.3.2)
        }
        guard let block = TLSKeySchedule.prf(hash: suite.hash, secret: master, label: "key expansion",
                                             seed: serverHello.random + clientHello.random.bytes,
                                             length: 2 * (macLength + keyLength + ivLength))
        else { return stop(direction, .noKey(.noKey), at: offset) }
        let client = direction == .clientToServer
        func part(_ start: Int, _ length: Int) -> [UInt8] { Array(block[start..<start + length]) }
        let macKey = part(client ? 0 : macLength, macLength)
        let key = part(2 * macLength + (client ? 0 : keyLength), keyLength)
        let iv = part(2 * (macLength + keyLength) + (client ? 0 : ivLength), ivLength)
        let scheme: RecordProtection.Scheme = switch suite.cipher {
        case .aes128GCM, .aes256GCM: .tls12GCM
        case .chaCha20Poly1305: .tls12ChaCha
        case .aes128CBC, .aes256CBC: .tls12CBC(encryptThenMAC: serverHello.encryptThenMAC)
        }
        directions[direction.rawValue].protection = RecordProtection(suite: suite, scheme: scheme, key: key, iv: iv, macKey: macKey)
        if directions[direction.rawValue].protection == nil { stop(direction, .noKey(.noKey), at: offset) }
    }

    /// TLS 1.3: the direction's handshake or application keys from its logged traffic secret.
    private func installTLS13Keys(_ direction: StreamDirection, at offset: UInt64) {
        guard suite != nil else { return stop(direction, .noKey(.noKey), at: offset) }
        guard let found = secret(trafficSecret(direction)) else { return awaitKeys(direction, from: offset) }
        useTLS13Secret(found, direction, at: offset)
    }

    /// Which logged secret `direction` needs next (TLS 1.3).
    private func trafficSecret(_ direction: StreamDirection) -> KeyPath<TLSSecrets, [UInt8]?> {
        switch (direction, directions[direction.rawValue].usesApplicationKeys) {
        case (.clientToServer, false): \.clientHandshakeTrafficSecret
        case (.serverToClient, false): \.serverHandshakeTrafficSecret
        case (.clientToServer, true): \.clientTrafficSecret0
        case (.serverToClient, true): \.serverTrafficSecret0
        }
    }

    /// The key log has no secret for `direction` (yet): a log that may still grow is asked again
    /// as more ciphertext arrives, which is held meanwhile; any other log has none.
    private func awaitKeys(_ direction: StreamDirection, from offset: UInt64) {
        guard keys.mayLearnMore else { return stop(direction, .noKey(.noKey), at: offset) }
        directions[direction.rawValue].held = []
        directions[direction.rawValue].heldFrom = offset
    }

    /// Looks for the keys a waiting direction needs; when the log has them now, decrypts what
    /// was held. Gives up (``TLSNoKeyReason/noKey``) past ``maxHeldBytes`` or when `final`.
    private func retryHeld(_ direction: StreamDirection, _ emit: (ConnectionLayerOutput<TLSEvent>) throws -> Void,
                           final: Bool = false) throws {
        let d = direction.rawValue
        guard let held = directions[d].held else { return }
        let isTLS13 = suite?.isTLS13 == true
        guard secret(isTLS13 ? trafficSecret(direction) : \.masterSecret) != nil else {
            if final || held.count > Self.maxHeldBytes {
                directions[d].held = nil
                stop(direction, .noKey(.noKey), at: directions[d].heldFrom)
            }
            return
        }
        directions[d].held = nil
        // Read again from where holding began (the caller's own offset update lands at the same end).
        directions[d].offset = directions[d].heldFrom
        if !isTLS13 { installTLS12Keys(direction, nextRecordAt: directions[d].heldFrom) }
        try announce(emit)
        try held.withUnsafeBytes { try read($0, from: direction, emit) }
    }

    /// TLS 1.3 KeyUpdate: the next secret is HKDF-Expand-Label(secret, "traffic upd", "", Hash.length) (RFC 8446 §7.2).
    private func updateTLS13Keys(_ direction: StreamDirection, at offset: UInt64) {
        guard let suite, let next = TLSKeySchedule.hkdfExpandLabel(hash: suite.hash, secret: directions[direction.rawValue].secret,
                                                                   label: "traffic upd", length: suite.hash.length)
        else { return stop(direction, .noKey(.noKey), at: offset) }
        useTLS13Secret(next, direction, at: offset)
    }

    private func useTLS13Secret(_ secret: [UInt8], _ direction: StreamDirection, at offset: UInt64) {
        let suite = suite!
        guard let key = TLSKeySchedule.hkdfExpandLabel(hash: suite.hash, secret: secret, label: "key", length: suite.cipher.keyLength),
              let iv = TLSKeySchedule.hkdfExpandLabel(hash: suite.hash, secret: secret, label: "iv", length: 12),
              let protection = RecordProtection(suite: suite, scheme: .tls13, key: key, iv: iv)
        else { return stop(direction, .noKey(.noKey), at: offset) }
        directions[direction.rawValue].protection = protection
        directions[direction.rawValue].secret = secret
    }

    /// Stops decrypting `direction` from stream offset `offset` (default: the start of what is
    /// not yet read as records); what has already stopped stays as it was.
    private func stop(_ direction: StreamDirection, _ kind: Stop.Kind, at offset: UInt64? = nil) {
        let d = direction.rawValue
        guard directions[d].stop == nil else { return }
        directions[d].stop = Stop(offset: offset ?? directions[d].offset - UInt64(directions[d].pending.count), kind: kind)
        directions[d].pending = []
        directions[d].protection = nil
    }
}
