#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread running a closure: what `Foundation.Thread` would give, without linking
/// Foundation, whose libraries cost ≈ 2.5 ms of start-up on every run of the command
/// (docs/performance.md, "What it took").
struct POSIXThread {
    private let handle: pthread_t

    /// Starts `body` on a new thread.
    ///
    /// - Parameter body: What the thread runs; the thread ends when it returns.
    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        // Only a lack of resources (EAGAIN) fails here, and nothing can go on without the thread.
        precondition(status == 0, "pthread_create failed: \(status)")
        self.handle = handle
    }

    /// Waits until the thread has ended.
    func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread's resources go when it ends, for a thread that is never joined.
    func detach() {
        pthread_detach(handle)
    }

    /// The closure, boxed so that a pointer to it can cross `pthread_create`.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
