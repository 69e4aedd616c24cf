/// Bytes waiting to be written to one socket: appended at the back, written from the front.
///
/// The owner bounds it: a relay stops reading the side that fills it once ``count`` reaches its
/// limit (backpressure), so it holds at most the limit plus one read. The written prefix is
/// reclaimed as swift-nio's `ByteBuffer` does: in place when everything was written, otherwise
/// only once the prefix is at least 2 KiB and at least as long as what is left, so the bytes
/// moved stay below the bytes written.
struct ConnectionBuffer {
    private var bytes: [UInt8] = []
    /// `bytes[start...]` are not yet written.
    private var start = 0

    /// Bytes waiting, in bytes.
    var count: Int { bytes.count - start }

    /// Whether nothing is waiting.
    var isEmpty: Bool { start == bytes.count }

    /// Appends `chunk` (copied).
    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        reclaimWrittenPrefix()
        bytes.append(contentsOf: chunk)
    }

    /// Appends `chunk` (copied).
    mutating func append(_ chunk: [UInt8]) {
        chunk.withUnsafeBytes { append($0) }
    }

    /// Writes as much as `socket` takes now.
    ///
    /// - Returns: the last transfer: `.bytes` when everything was written, `.wouldBlock` when
    ///   the socket is full, `.failed` on an error (the bytes stay).
    mutating func write(to socket: Socket) -> Socket.Transfer {
        var last = Socket.Transfer.bytes(0)
        while !isEmpty {
            last = bytes.withUnsafeBytes { socket.write(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            guard case .bytes(let written) = last else { break }
            start += written
        }
        if isEmpty { reclaimWrittenPrefix() }
        return last
    }

    private mutating func reclaimWrittenPrefix() {
        guard start > 0 else { return }
        if isEmpty {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 2048, start >= count {
            bytes.removeSubrange(0..<start)
            start = 0
        }
    }
}
