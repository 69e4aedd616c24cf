#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with a condition variable (`pthread_mutex_t` + `pthread_cond_t`): `NSCondition`
/// without linking Foundation (see ``POSIXThread``).
///
/// `wait()` must be called with the lock held, in a loop that re-checks what it waits for
/// (POSIX allows spurious wake-ups), as with `NSCondition`.
///
/// `@unchecked Sendable`: the pthread objects are made for use from several threads; they live
/// at fixed addresses (allocated here, never moved) as POSIX requires.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Unlocks, sleeps until ``broadcast()`` (or a spurious wake-up), and locks again.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread waiting in ``wait()``.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
