import CPcap
#if canImport(Glibc)
import Glibc
#endif

/// A read-only `FILE *` that yields `prefix` and then the rest of a file descriptor.
///
/// Built with glibc's `fopencookie(3)`. The CLI has to look at the first bytes of standard
/// input to tell a capture from hex text, and a pipe cannot be rewound; `ungetc` only
/// guarantees one byte of push-back, so the peeked bytes are replayed from here instead. The
/// stream reads the descriptor with `read(2)` on demand, so a live pipe (`tcpdump -w - |`)
/// streams without being buffered whole. `fclose` frees the prefix but leaves the
/// descriptor open: it belongs to the caller.
enum PrefixedStream {
    private final class State {
        let prefix: [UInt8]
        var position = 0
        let fileDescriptor: Int32

        init(prefix: [UInt8], fileDescriptor: Int32) {
            self.prefix = prefix
            self.fileDescriptor = fileDescriptor
        }
    }

    /// Opens the stream; `nil` with `errno` set if `fopencookie` fails.
    static func open(prefix: [UInt8], fileDescriptor: Int32) -> UnsafeMutablePointer<FILE>? {
        let state = Unmanaged.passRetained(State(prefix: prefix, fileDescriptor: fileDescriptor))
        let functions = framedump_cookie_io_functions(
            read: { cookie, buffer, size in
                guard let cookie, let buffer else { return -1 }
                let state = Unmanaged<State>.fromOpaque(cookie).takeUnretainedValue()
                if state.position < state.prefix.count {
                    let count = min(size, state.prefix.count - state.position)
                    state.prefix.withUnsafeBytes { bytes in
                        UnsafeMutableRawPointer(buffer).copyMemory(
                            from: bytes.baseAddress! + state.position, byteCount: count)
                    }
                    state.position += count
                    return count
                }
                while true {
                    let count = read(state.fileDescriptor, buffer, size)
                    if count >= 0 || errno != EINTR { return count }
                }
            },
            write: nil,
            seek: nil,
            close: { cookie in
                if let cookie { Unmanaged<State>.fromOpaque(cookie).release() }
                return 0
            })
        guard let file = framedump_fopencookie(state.toOpaque(), "r", functions) else {
            state.release()
            return nil
        }
        return file
    }
}
