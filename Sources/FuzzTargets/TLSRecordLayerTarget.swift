import PacketDecoding
import StreamFraming
import TLSDecryption

/// libFuzzer target: the TLS connection layer (`TLSConnectionLayer`): detection, record
/// reassembly across chunks, ClientHello/ServerHello parsing, key look-up and derivation, and
/// record opening, on both directions of one connection.
///
/// Input: chunks until the input ends, each a control byte (bit 0: direction; bit 1: a gap
/// instead of bytes; bits 2–7: length / 4) and that many bytes. The key log has secrets for the
/// all-zero client random, so a ClientHello the fuzzer builds with it reaches key derivation
/// and decryption (whose tags then fail).
///
/// Checked: each direction ends exactly once; no output follows its end; the plaintext of a
/// direction is never longer than its input; every event's offset and length lie within the
/// bytes the direction received.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSRecordLayer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzedInput(data, size)
    let layer = TLSConnectionLayer(keys: fuzzKeys)
    var received: [UInt64] = [0, 0]
    var plaintext: [UInt64] = [0, 0]
    var ended = [false, false]
    func check(_ output: ConnectionLayerOutput<TLSEvent>) {
        switch output {
        case .data(let bytes, let direction):
            precondition(!ended[direction.rawValue], "data after the end")
            plaintext[direction.rawValue] += UInt64(bytes.count)
            precondition(plaintext[direction.rawValue] <= received[direction.rawValue], "more plaintext than input")
        case .gap(_, let direction):
            precondition(!ended[direction.rawValue], "gap after the end")
        case .end(let direction):
            precondition(!ended[direction.rawValue], "ended twice")
            ended[direction.rawValue] = true
        case .event(let event):
            switch event {
            case .noKey(let direction, let offset, let length, _), .decryptError(let direction, let offset, let length, _):
                precondition(offset + length <= received[direction.rawValue], "event beyond the input")
            case .alert(let direction, let offset, _, _):
                precondition(offset < received[direction.rawValue], "alert beyond the input")
            case .session:
                break
            }
        }
    }
    input.playConnection(bytes: { chunk, number in
        received[number] += UInt64(chunk.count)
        chunk.withUnsafeBytes { bytes in try? layer.receive(bytes, from: StreamDirection(rawValue: number)!, check) }
    }, gap: { length, number in
        received[number] += UInt64(length)
        try? layer.noteGap(byteCount: UInt64(length), from: StreamDirection(rawValue: number)!, check)
    })
    for direction in StreamDirection.allCases { try? layer.endStream(direction, check) }
    precondition(ended == [true, true], "a direction never ended")
    return 0
}

/// Secrets of every kind for the all-zero client random.
private let fuzzKeys: TLSKeyLog = {
    let log = TLSKeyLog()
    let random = String(repeating: "00", count: 32)
    let secret48 = String(repeating: "11", count: 48)
    let secret32 = String(repeating: "22", count: 32)
    var text = "CLIENT_RANDOM \(random) \(secret48)\n"
    for label in ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0"] {
        text += "\(label) \(random) \(secret32)\n"
    }
    log.add(Array(text.utf8), isComplete: true)
    return log
}()
