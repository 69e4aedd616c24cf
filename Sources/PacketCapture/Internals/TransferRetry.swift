#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a `read(2)` or `write(2)` that just failed is to be made again: after `EINTR`, or
/// after `EAGAIN` once the descriptor is ready (`poll(2)`, no timeout). A descriptor we were
/// given may be in non-blocking mode (`O_NONBLOCK` set by a parent on a pipe it shares), where a
/// read with no data yet or a write to a full pipe fails with `EAGAIN` instead of waiting.
///
/// The one rule for standard input's capture stream (``PcapReader``) and the CLI's reads and
/// writes of its descriptors.
///
/// - Parameters:
///   - fileDescriptor: The descriptor the call failed on.
///   - events: `POLLIN` after a read, `POLLOUT` after a write.
/// - Returns: `false` for any other `errno` (kept for the caller): the call failed.
package func retriesFailedTransfer(on fileDescriptor: Int32, waitingFor events: Int32) -> Bool {
    guard errno == EAGAIN || errno == EWOULDBLOCK else { return errno == EINTR }
    var ready = pollfd(fd: fileDescriptor, events: Int16(events), revents: 0)
    while poll(&ready, 1, -1) < 0 && errno == EINTR {}
    return true
}
