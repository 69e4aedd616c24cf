import CPcap
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read-only `FILE *` that yields `prefix` and then the rest of a file descriptor.
///
/// Built with glibc's `fopencookie(3)`, or the BSDs' `funopen(3)` on Darwin. The CLI has to look
/// at the first bytes of standard input to tell a capture from hex text, and a pipe cannot be
/// rewound; `ungetc` only guarantees one byte of push-back, so the peeked bytes are replayed
/// from here instead. The stream reads the descriptor with `read(2)` on demand, so a live pipe
/// (`tcpdump -w - |`) streams without being buffered whole. It cannot seek, but it answers
/// `ftello(3)` (a seek of 0 from the current position) with the bytes it has handed out, so a
/// read error can say where in the stream it stopped. `fclose` frees the prefix but leaves the
/// descriptor open: it belongs to the caller.
enum PrefixedStream {
    private final class State {
        let prefix: [UInt8]
        /// Bytes handed out so far, prefix first: the stream's position, and within the prefix
        /// where its next byte is.
        var delivered: Int64 = 0
        let fileDescriptor: Int32

        init(prefix: [UInt8], fileDescriptor: Int32) {
            self.prefix = prefix
            self.fileDescriptor = fileDescriptor
        }

        /// Fills `buffer` with up to `size` bytes: the prefix's next bytes, then the descriptor's.
        ///
        /// - Returns: the byte count, 0 at end of file, -1 on a read error (`errno` set).
        func read(into buffer: UnsafeMutableRawPointer, size: Int) -> Int {
            var count: Int
            if delivered < prefix.count {
                let start = Int(delivered)
                count = min(size, prefix.count - start)
                prefix.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: bytes.baseAddress! + start, byteCount: count)
                }
            } else {
                repeat {
                    count = systemRead(fileDescriptor, buffer, size)
                } while count < 0 && retriesFailedTransfer(on: fileDescriptor, waitingFor: Int32(POLLIN))
            }
            if count > 0 { delivered += Int64(count) }
            return count
        }

        /// The stream's position for a seek of `offset` from `whence`: only `ftello`'s question
        /// (0 from `SEEK_CUR`) is answered; anything else is a pipe's `ESPIPE`.
        ///
        /// - Returns: The position, or `nil` with `errno` set.
        func streamPosition(seeking offset: Int64, from whence: Int32) -> Int64? {
            guard offset == 0, whence == SEEK_CUR else {
                errno = ESPIPE
                return nil
            }
            return delivered
        }

        static func from(_ cookie: UnsafeMutableRawPointer) -> State {
            Unmanaged<State>.fromOpaque(cookie).takeUnretainedValue()
        }

        static func release(_ cookie: UnsafeMutableRawPointer?) -> Int32 {
            if let cookie { Unmanaged<State>.fromOpaque(cookie).release() }
            return 0
        }
    }

    /// The C function that makes the stream, as error messages name it.
    #if canImport(Glibc)
    static let functionName = "fopencookie"
    #else
    static let functionName = "funopen"
    #endif

    /// Opens the stream; `nil` with `errno` set if `fopencookie` (`funopen`) fails.
    static func open(prefix: [UInt8], fileDescriptor: Int32) -> UnsafeMutablePointer<FILE>? {
        let state = Unmanaged.passRetained(State(prefix: prefix, fileDescriptor: fileDescriptor))
        #if canImport(Glibc)
        let functions = framedump_cookie_io_functions(
            read: { cookie, buffer, size in
                guard let cookie, let buffer else { return -1 }
                return State.from(cookie).read(into: UnsafeMutableRawPointer(buffer), size: size)
            },
            write: nil,
            seek: { cookie, offset, whence in
                guard let cookie, let offset, let position = State.from(cookie).streamPosition(seeking: offset.pointee, from: whence) else { return -1 }
                offset.pointee = position
                return 0
            },
            close: { State.release($0) })
        let file = framedump_fopencookie(state.toOpaque(), "r", functions)
        #else
        // funopen(3): the read function takes and returns an int count; no write; the seek
        // function returns the new position.
        let file = funopen(state.toOpaque(), { cookie, buffer, size in
            guard let cookie, let buffer else { return -1 }
            return Int32(State.from(cookie).read(into: UnsafeMutableRawPointer(buffer), size: Int(size)))
        }, nil, { cookie, offset, whence in
            guard let cookie, let position = State.from(cookie).streamPosition(seeking: Int64(offset), from: whence) else { return -1 }
            return fpos_t(position)
        }, { State.release($0) })
        #endif
        guard let file else {
            state.release()
            return nil
        }
        return file
    }
}

/// `read(2)`, named apart from ``PrefixedStream``'s own `read(into:size:)`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ size: Int) -> Int {
    read(descriptor, buffer, size)
}
