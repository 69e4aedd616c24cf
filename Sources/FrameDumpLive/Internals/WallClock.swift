#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PacketDecoding

/// The time a live read happened, as frames are timed (`ts` in JSON).
enum WallClock {
    /// `CLOCK_REALTIME`, in nanoseconds since the Unix epoch.
    static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
