import CZlib
import WebSocketFraming

/// permessage-deflate's inflater (RFC 7692 §7.2.2) on zlib: raw DEFLATE (`inflateInit2` with
/// `windowBits` -15, no zlib header), its window kept across messages until ``reset()``.
///
/// Output is produced `chunkLimit` bytes at a time into one fixed buffer (`Z_SYNC_FLUSH`), so a
/// message that inflates a thousandfold never holds more than that buffer here.
final class ZlibInflater: WebSocketInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutableRawBufferPointer

    /// The inflater, or `nil` when zlib cannot start one (out of memory).
    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        buffer = .allocate(byteCount: 64 << 10, alignment: 16)
        guard inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            buffer.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        buffer.deallocate()
    }

    func inflate(_ input: UnsafeRawBufferPointer, chunkLimit: Int, _ output: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        let chunk = max(1, min(chunkLimit, buffer.count))
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while true {
            stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(chunk)
            let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
            let produced = chunk - Int(stream.pointee.avail_out)
            if produced > 0 { try output(UnsafeRawBufferPointer(rebasing: buffer[..<produced])) }
            switch status {
            case Z_OK:
                if stream.pointee.avail_in == 0, produced < chunk { return }
            case Z_STREAM_END:
                // A final block (BFINAL): what follows starts a new DEFLATE stream.
                inflateReset(stream)
                if stream.pointee.avail_in == 0 { return }
            case Z_BUF_ERROR:
                return
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw WebSocketInflateError(message: message)
            }
        }
    }

    func reset() {
        inflateReset(stream)
    }
}
