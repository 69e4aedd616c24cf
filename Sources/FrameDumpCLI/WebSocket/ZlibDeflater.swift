import CZlib
import WebSocketFraming

/// permessage-deflate's compressor (RFC 7692 §7.2.1) on zlib, for `encode --format websocket
/// --deflate` and `fuzz --target websocket`: raw DEFLATE (`deflateInit2` with `windowBits` -15,
/// no zlib header), each call flushed with `Z_SYNC_FLUSH`, the window kept until ``reset()``.
final class ZlibDeflater: WebSocketDeflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// The deflater, or `nil` when zlib cannot start one (out of memory).
    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard deflateInit2_(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// An error zlib reported while compressing.
    struct DeflateError: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "zlib deflate failed (\(status))" }
    }

    func deflate(_ input: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        var input = input
        try input.withUnsafeMutableBufferPointer { input in
            stream.pointee.next_in = input.baseAddress
            stream.pointee.avail_in = uInt(input.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            // Z_SYNC_FLUSH is done when zlib leaves output space unused.
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = uInt(buffer.count)
                    let status = CZlib.deflate(stream, Z_SYNC_FLUSH)
                    return (status, buffer.count - Int(stream.pointee.avail_out))
                }
                // Z_BUF_ERROR: nothing to do (no input, already flushed), not a failure.
                guard status == Z_OK || status == Z_BUF_ERROR else { throw DeflateError(status: status) }
                output += chunk[..<produced]
                if produced < chunk.count { return }
            }
        }
        return output
    }

    func reset() {
        deflateReset(stream)
    }
}
