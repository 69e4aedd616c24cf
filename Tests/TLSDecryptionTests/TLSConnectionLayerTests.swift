import PacketDecoding
import StreamFraming
import TestSupport
import Testing
import TLSDecryption

/// The TLS layer on real captured ciphertext (Fixtures/captures/tls), replayed whole, a byte
/// at a time and in small pieces, and damaged: every byte is plaintext or in an event.
@Suite struct TLSConnectionLayerTests {
    static let scenarios = ["tls13-aes128gcm", "tls13-aes256gcm", "tls13-chacha20", "tls13-keyupdate", "tls13-large",
                            "tls12-aes128gcm", "tls12-chacha20", "tls12-cbc-sha", "tls12-cbc-sha-noetm", "tls12-cbc-sha384-noetm",
                            "tls13-hrr", "tls13-ecdsa", "tls12-ecdsa-chacha20", "tls12-dhe-aes128gcm", "tls12-dhe-cbc-sha256"]

    @Test(arguments: scenarios)
    func plaintextIsWhatEachSideWroteWhateverTheChunking(_ name: String) throws {
        let capture = try CapturedTLS(name)
        let whole = try LayerOutputs.replay(capture.chunks, keys: capture.keys)
        #expect(whole.plaintext.map(\.count) == capture.writtenBytes, "\(name): plaintext bytes per direction")
        #expect(whole.plaintext.allSatisfy { $0.starts(with: [0x55, 0xAA, 0x01]) }, "\(name): each starts with an h12 header")
        #expect(whole.ends == [1, 1])
        #expect(whole.gaps == [[], []])
        #expect(!whole.events.contains { if case .decryptError = $0 { true } else if case .noKey = $0 { true } else { false } })
        for piece in [1, 7, 1000] {
            let cut = try LayerOutputs.replay(capture.chunks, keys: capture.keys, piece: piece)
            #expect(cut.plaintext == whole.plaintext, "\(name): pieces of \(piece) bytes")
            #expect(cut.events == whole.events, "\(name): pieces of \(piece) bytes")
        }
    }

    /// A flipped ciphertext byte fails its record's tag (AEAD) or MAC (CBC), or, flipped in the
    /// block before the last of MAC-then-encrypt, its padding: an event at the record's offset
    /// and a gap where its plaintext was; the records after it still decrypt.
    @Test(arguments: [("tls13-aes128gcm", TLSDecryptFailure.tag, 23), ("tls13-chacha20", .tag, 23), ("tls12-aes128gcm", .tag, 23),
                      ("tls12-chacha20", .tag, 23), ("tls12-cbc-sha", .mac, 23), ("tls12-cbc-sha-noetm", .mac, 23),
                      ("tls12-cbc-sha-noetm", .padding, -17)])
    func aDamagedRecordIsAnEventNotPlaintext(_ name: String, _ reason: TLSDecryptFailure, _ at: Int) throws {
        var capture = try CapturedTLS(name)
        let intact = try LayerOutputs.replay(capture.chunks, keys: capture.keys)
        // The server's second-to-last record: application data (the last is close_notify).
        let records = capture.records(.serverToClient)
        let record = records[records.count - 2]
        // `at` from the record's start (in the first ciphertext block), or back from its end.
        capture.damage(.serverToClient, at: at > 0 ? record.offset + at : record.offset + record.length + at) { $0 ^ 0x01 }
        let damaged = try LayerOutputs.replay(capture.chunks, keys: capture.keys)
        #expect(damaged.events.contains(.decryptError(.serverToClient, offset: UInt64(record.offset), length: UInt64(record.length), reason: reason)),
                "\(name): \(damaged.events)")
        #expect(damaged.gaps[1].count == 1, "\(name): the record's plaintext is a gap")
        #expect(damaged.plaintext[0] == intact.plaintext[0], "\(name): the other direction is untouched")
        let lost = intact.plaintext[1].count - damaged.plaintext[1].count
        #expect(lost > 0 && UInt64(lost) <= damaged.gaps[1].first ?? 0 + 64, "\(name): only that record's plaintext is missing")
        #expect(Array(intact.plaintext[1].prefix(damaged.plaintext[1].count)) == damaged.plaintext[1], "\(name): no garbage plaintext")
        #expect(damaged.events.last.map { if case .alert = $0 { true } else { false } } == true, "\(name): the close_notify after it decrypts")
    }

    @Test func withoutKeysBothDirectionsAreCountedNotDecrypted() throws {
        let capture = try CapturedTLS("tls13-aes128gcm")
        let outputs = try LayerOutputs.replay(capture.chunks, keys: TLSKeyLog())
        #expect(outputs.plaintext == [[], []])
        let sessions = outputs.events.compactMap { if case .session(let session) = $0 { session } else { nil } }
        #expect(sessions.map(\.keysFound) == [false])
        for direction in StreamDirection.allCases {
            let total = capture.stream(direction).count
            let noKey = outputs.events.compactMap { event -> (UInt64, UInt64)? in
                if case .noKey(direction, let offset, let length, .noKey) = event { (offset, length) } else { nil }
            }
            #expect(noKey.count == 1, "\(direction)")
            #expect(noKey.first.map { $0.0 + $0.1 } == UInt64(total), "\(direction): counted to the end of the stream")
        }
    }

    /// Bytes not captured: record boundaries and sequence numbers are lost, so the rest of the
    /// direction is one event from where the gap's record began.
    @Test func aGapStopsTheDirection() throws {
        let capture = try CapturedTLS("tls13-aes128gcm")
        let last = capture.chunks.lastIndex { $0.direction == .clientToServer }!
        let gapAt = capture.chunks[..<last].lastIndex { $0.direction == .clientToServer }!
        let outputs = try LayerOutputs.replay(capture.chunks, keys: capture.keys, gapAt: gapAt)
        let total = UInt64(capture.stream(.clientToServer).count)
        let errors = outputs.events.compactMap { event -> (UInt64, UInt64)? in
            if case .decryptError(.clientToServer, let offset, let length, .gap) = event { (offset, length) } else { nil }
        }
        #expect(errors.count == 1)
        #expect(errors.first.map { $0.0 + $0.1 } == total)
        #expect(outputs.plaintext[1].count == capture.writtenBytes[1], "the server's direction decrypts whole")
    }

    @Test func aRecordLongerThanTheLimitStopsTheDirection() throws {
        let capture = try CapturedTLS("tls13-aes128gcm")
        let hello = capture.records(.clientToServer)[0]
        let stream = capture.stream(.clientToServer)
        let chunks = [CapturedTLS.Chunk(direction: .clientToServer, bytes: Array(stream[0..<hello.length]) + [23, 3, 3, 0xFF, 0xFF, 1, 2, 3])]
        let outputs = try LayerOutputs.replay(chunks, keys: capture.keys)
        #expect(outputs.events == [.decryptError(.clientToServer, offset: UInt64(hello.length), length: 8, reason: .recordTooLong)])
    }

    /// A capture that starts after the handshake: both directions counted, never decrypted.
    @Test func aCaptureStartingMidConnectionHasNoHandshake() throws {
        let capture = try CapturedTLS("tls12-aes128gcm")
        let records = capture.records(.clientToServer)
        let stream = capture.stream(.clientToServer)
        let later = Array(stream[records[3].offset...])
        let outputs = try LayerOutputs.replay([CapturedTLS.Chunk(direction: .clientToServer, bytes: later)], keys: capture.keys)
        #expect(outputs.plaintext == [[], []])
        #expect(outputs.events == [.noKey(.clientToServer, offset: 0, length: UInt64(later.count), reason: .noHandshake),
                                   .noKey(.serverToClient, offset: 0, length: 0, reason: .noHandshake)])
    }

    @Test func anUnknownCipherSuiteIsNamedAndCounted() throws {
        var capture = try CapturedTLS("tls13-aes128gcm")
        // ServerHello: record header 5, handshake header 4, version 2, random 32, session ID.
        let stream = capture.stream(.serverToClient)
        let suiteOffset = 5 + 4 + 2 + 32 + 1 + Int(stream[5 + 4 + 2 + 32])
        #expect(stream[suiteOffset] == 0x13 && stream[suiteOffset + 1] == 0x01)
        capture.damage(.serverToClient, at: suiteOffset + 1) { _ in 0x04 }  // TLS_AES_128_CCM_SHA256
        let outputs = try LayerOutputs.replay(capture.chunks, keys: capture.keys)
        #expect(outputs.plaintext == [[], []])
        let reasons = outputs.events.compactMap { if case .noKey(_, _, _, let reason) = $0 { reason } else { nil } }
        #expect(reasons == [.unsupportedCipherSuite(0x1304), .unsupportedCipherSuite(0x1304)])
        #expect(outputs.events.contains { if case .session(let session) = $0 { session.cipherSuiteName == "0x1304" } else { false } })
    }

    @Test func aHandshakeCutShortIsATruncatedRecord() throws {
        let capture = try CapturedTLS("tls13-aes128gcm")
        let cut = Array(capture.stream(.clientToServer).prefix(40))
        let outputs = try LayerOutputs.replay([CapturedTLS.Chunk(direction: .clientToServer, bytes: cut)], keys: capture.keys)
        #expect(outputs.events == [.decryptError(.clientToServer, offset: 0, length: 40, reason: .truncated)])
    }

    /// A ClientHello whose session ID length runs past its body: `malformed_handshake` for the
    /// client's rest, and, with no client random, the server's rest has no handshake; nothing
    /// is decrypted and every byte after the hello is in an event.
    @Test func aMalformedClientHelloIsAnEventAndNothingIsDecrypted() throws {
        var capture = try CapturedTLS("tls13-aes128gcm")
        // Record header 5, handshake header 4, version 2, random 32: then the session ID length.
        capture.damage(.clientToServer, at: 5 + 4 + 2 + 32) { _ in 0xFF }
        let outputs = try LayerOutputs.replay(capture.chunks, keys: capture.keys)
        #expect(outputs.plaintext == [[], []])
        let (c2s, s2c) = (capture.stream(.clientToServer).count, capture.stream(.serverToClient).count)
        let serverHelloEnd = UInt64(capture.records(.serverToClient)[0].length)
        // Each direction reports when it ends: the client first.
        #expect(outputs.events == [
            .decryptError(.clientToServer, offset: UInt64(capture.records(.clientToServer)[0].length),
                          length: UInt64(c2s - capture.records(.clientToServer)[0].length), reason: .malformedHandshake),
            .noKey(.serverToClient, offset: serverHelloEnd, length: UInt64(s2c) - serverHelloEnd, reason: .noHandshake),
        ], "\(outputs.events)")
    }

    @Test func otherProtocolsPassThroughUnchanged() throws {
        let h12: [UInt8] = [0x55, 0xAA, 1, 1, 0, 0, 0, 2, 0, 0, 0, 0, 7, 8]
        let outputs = try LayerOutputs.replay([CapturedTLS.Chunk(direction: .clientToServer, bytes: h12),
                                               CapturedTLS.Chunk(direction: .serverToClient, bytes: [1, 2, 3])],
                                              keys: TLSKeyLog(), piece: 1)
        #expect(outputs.plaintext == [h12, [1, 2, 3]])
        #expect(outputs.events.isEmpty)
        #expect(outputs.ends == [1, 1])
    }
}

/// A key log still being written (`capture`): its secrets appear only after some look-ups.
final class LateKeys: TLSKeyProvider {
    let keys: TLSKeyLog
    var missesLeft: Int
    private(set) var lookUps = 0

    init(_ keys: TLSKeyLog, misses: Int) {
        self.keys = keys
        missesLeft = misses
    }

    var mayLearnMore: Bool { true }

    func secrets(for clientRandom: ClientRandom) -> TLSSecrets? {
        lookUps += 1
        guard missesLeft == 0 else {
            missesLeft -= 1
            return nil
        }
        return keys.secrets(for: clientRandom)
    }
}

@Suite struct TLSLateKeysTests {
    /// The server's first protected records arrive before the client has logged their keys:
    /// they are held and decrypted once the log has them.
    @Test(arguments: ["tls13-aes128gcm", "tls12-aes128gcm", "tls12-cbc-sha"])
    func keysLoggedLateStillDecrypt(_ name: String) throws {
        let capture = try CapturedTLS(name)
        let expected = try LayerOutputs.replay(capture.chunks, keys: capture.keys)
        let late = LateKeys(capture.keys, misses: 3)
        let outputs = try LayerOutputs.replay(capture.chunks, keys: late, piece: 100)
        #expect(late.lookUps > 3)
        #expect(outputs.plaintext == expected.plaintext)
        #expect(outputs.events == expected.events)
    }

    @Test func keysThatNeverComeAreMissingFromWhereTheyWereNeeded() throws {
        let capture = try CapturedTLS("tls13-aes128gcm")
        let fixed = try LayerOutputs.replay(capture.chunks, keys: TLSKeyLog())
        let never = try LayerOutputs.replay(capture.chunks, keys: LateKeys(TLSKeyLog(), misses: 0))
        #expect(never.plaintext == [[], []])
        #expect(never.events == fixed.events)
    }

    /// A connection whose capture began mid-connection (no TCP handshake), cut at every offset
    /// of its client's third and fourth records (so inside a header, inside a fragment, at a
    /// boundary): resync finds the records, and each direction is one `noHandshake` covering
    /// all its bytes, whether fed whole or a byte at a time.
    @Test func aCaptureCutAtAnyOffsetIsNoHandshake() throws {
        let capture = try CapturedTLS("tls13-keyupdate")
        let (c2s, s2c) = (capture.stream(.clientToServer), capture.stream(.serverToClient))
        let clientRecords = capture.records(.clientToServer)
        let serverStart = capture.records(.serverToClient)[3].offset
        let cuts = clientRecords[2].offset..<clientRecords[4].offset
        for cut in cuts {
            let chunks = [CapturedTLS.Chunk(direction: .clientToServer, bytes: Array(c2s[cut...])),
                          CapturedTLS.Chunk(direction: .serverToClient, bytes: Array(s2c[serverStart...]))]
            for piece in cut == cuts.lowerBound + 3 ? [nil, 1] : [nil] {
                let outputs = try LayerOutputs.replay(chunks, keys: capture.keys, piece: piece, handshakeMayBeMissing: true)
                #expect(outputs.plaintext == [[], []], "cut at \(cut)")
                #expect(outputs.events == [
                    .noKey(.clientToServer, offset: 0, length: UInt64(c2s.count - cut), reason: .noHandshake),
                    .noKey(.serverToClient, offset: 0, length: UInt64(s2c.count - serverStart), reason: .noHandshake),
                ], "cut at \(cut), pieces of \(piece ?? 0)")
            }
        }
    }

    /// Bytes that are not TLS records, of a connection whose handshake was not captured, pass
    /// through unchanged once one maximal record holds no record boundary (or the direction ends).
    @Test(arguments: [40_000, 300])
    func bytesWithoutRecordsPassThrough(_ count: Int) throws {
        var random = FuzzRandom(seed: 0x7157)
        // Every byte below 20: no offset can hold a record header.
        let bytes = (0..<count).map { _ in UInt8(random.next() % 20) }
        let chunks = stride(from: 0, to: count, by: 1000).map {
            CapturedTLS.Chunk(direction: .clientToServer, bytes: Array(bytes[$0..<min(count, $0 + 1000)]))
        }
        let outputs = try LayerOutputs.replay(chunks, keys: TLSKeyLog(), handshakeMayBeMissing: true)
        #expect(outputs.plaintext == [bytes, []])
        #expect(outputs.events.isEmpty)
    }
}
