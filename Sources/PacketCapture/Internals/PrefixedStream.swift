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
/// (`tcpdump -w - |`) streams without being buffered whole. `fclose` frees the prefix but leaves
/// the descriptor open: it belongs to the caller.
enum PrefixedStream {
    private final class State {
        let prefix: [UInt8]
        var position = 0
        let fileDescriptor: Int32

        init(prefix: [UInt8], fileDescriptor: Int32) {
            self.prefix = prefix
            self.fileDescriptor = fileDescriptor
        }

        /// Fills `buffer` with up to `size` bytes: the prefix's next bytes, then the descriptor's.
        ///
        /// - Returns: the byte count, 0 at end of file, -1 on a read error (`errno` set).
        func read(into buffer: UnsafeMutableRawPointer, size: Int) -> Int {
            if position < prefix.count {
                let count = min(size, prefix.count - position)
                prefix.withUnsafeBytes { bytes in
                    buffer.copyMemory(from: bytes.baseAddress! + position, byteCount: count)
                }
                position += count
                return count
            }
            while true {
                let count = systemRead(fileDescriptor, buffer, size)
                if count >= 0 || errno != EINTR { return count }
            }
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
            seek: nil,
            close: { State.release($0) })
        let file = framedump_fopencookie(state.toOpaque(), "r", functions)
        #else
        // funopen(3): the read function takes and returns an int count; no write, seek.
        let file = funopen(state.toOpaque(), { cookie, buffer, size in
            guard let cookie, let buffer else { return -1 }
            return Int32(State.from(cookie).read(into: UnsafeMutableRawPointer(buffer), size: Int(size)))
        }, nil, nil, { State.release($0) })
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
