/// Reassembles one direction's handshake messages (RFC 8446 §4, RFC 5246 §7.4: type u8,
/// length u24, body) from the handshake records' contents, which may split a message or hold
/// several.
///
/// Only the messages the decoder reads keep their bodies (ClientHello, ServerHello, KeyUpdate,
/// each at most ``maxKeptLength``); the others (certificates can be large) are counted past,
/// so memory stays bounded whatever a header says.
struct HandshakeReader {
    /// The longest body kept.
    static let maxKeptLength = 1 << 16

    private var header: [UInt8] = []
    private var body: [UInt8] = []
    private var remaining = 0
    private var keeps = false
    private var inMessage = false

    /// Takes the next handshake bytes; calls `message` with each completed message's type and
    /// body (empty for a message whose body is not kept).
    ///
    /// - Returns: `false` when a kept message is longer than ``maxKeptLength``.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ message: (UInt8, [UInt8]) throws -> Void) rethrows -> Bool {
        var index = 0
        while index < bytes.count {
            if !inMessage {
                header.append(bytes[index])
                index += 1
                guard header.count == 4 else { continue }
                remaining = Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
                keeps = [1, 2, 24].contains(header[0])
                if keeps, remaining > Self.maxKeptLength { return false }
                inMessage = true
                body.removeAll(keepingCapacity: true)
            }
            let take = min(remaining, bytes.count - index)
            if keeps { body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + take])) }
            index += take
            remaining -= take
            if remaining == 0 {
                let type = header[0]
                inMessage = false
                header.removeAll(keepingCapacity: true)
                try message(type, body)
            }
        }
        return true
    }
}
