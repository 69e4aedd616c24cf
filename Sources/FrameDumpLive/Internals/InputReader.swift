#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a descriptor such as standard input inside an ``EventLoop``, without changing its
/// flags: one `read(2)` per readiness event cannot block, so the descriptor (shared with the
/// shell, maybe a terminal) is never made non-blocking behind the user's back.
///
/// The epoll backend refuses regular files and `/dev/null` (`EPERM`): those are always readable, so they
/// are read chunk by chunk whenever the reader is not paused, the same backpressure either way.
final class InputReader: EventHandler {
    private let descriptor: Int32
    private unowned let loop: EventLoop
    private let onBytes: (UnsafeRawBufferPointer) -> Void
    private let onEnd: (SocketError?) -> Void
    private var isOpen = true
    private var isWatched = false
    private var isPumping = false
    /// Stop reading (the bytes made from the input wait to be written); resume by clearing it.
    var paused = false {
        didSet {
            guard isOpen, paused != oldValue else { return }
            if isWatched {
                try? loop.setInterest(descriptor, paused ? [] : .read)
            } else if !paused {
                pump()
            }
        }
    }

    /// - Parameters:
    ///   - onBytes: called with each chunk read; valid only during the call.
    ///   - onEnd: called once at end of input, with the error when reading failed.
    init(
        descriptor: Int32,
        loop: EventLoop,
        onBytes: @escaping (UnsafeRawBufferPointer) -> Void,
        onEnd: @escaping (SocketError?) -> Void
    ) {
        self.descriptor = descriptor
        self.loop = loop
        self.onBytes = onBytes
        self.onEnd = onEnd
    }

    /// Starts reading: watched by the loop, or read now when the backend cannot watch it (epoll: a regular file).
    func start() {
        do {
            try loop.register(descriptor, .read, self)
            isWatched = true
        } catch {
            pump()
        }
    }

    /// Reads an always-readable descriptor until paused or at its end.
    private func pump() {
        guard !isPumping else { return }
        isPumping = true
        defer { isPumping = false }
        while isOpen, !paused { readOnce() }
    }

    /// Stops reading for good (the peer went away); no end is reported.
    func stop() {
        guard isOpen else { return }
        isOpen = false
        if isWatched { loop.deregister(descriptor) }
    }

    func handle(_ events: ReadyEvents) {
        readOnce()
    }

    private func readOnce() {
        let buffer = loop.readBuffer
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count > 0 {
            onBytes(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        } else if count < 0, errno == EINTR || errno == EAGAIN {
            return
        } else {
            let error = count < 0 ? SocketError("read") : nil
            stop()
            onEnd(error)
        }
    }
}
