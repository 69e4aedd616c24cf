import CPcap
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file mapped read-only into memory (`mmap(2)`, `PROT_READ`, `MAP_PRIVATE`), whose
/// resident pages are managed as a reader walks it front to back.
///
/// The mapping is the file's size when it was opened. Pages are brought in ahead of the reader
/// a window at a time (`madvise(MADV_POPULATE_READ)`, Linux 5.14: one call instead of a page
/// fault every few pages; ignored where the kernel lacks it) and given back behind it
/// (`MADV_DONTNEED`: the page cache keeps them, but they leave the process's resident set), so
/// reading a capture of any size keeps a few windows resident, not the whole file (and every
/// ``sweepInterval`` all of it behind the reader is given back, pages read again included). The next
/// ``prefetchDistance`` bytes are also asked into the CPU's cache as the reader goes, a line at
/// a time, so that reading a record's header rarely waits for memory.
///
/// The bytes stay valid until the mapping is released; a file truncated by another process
/// while it is mapped makes reads past its new end fault (`SIGBUS`), which reading through
/// `read(2)` would not.
final class FileMapping {
    /// The file's first byte.
    let base: UnsafeRawPointer
    /// The file's size in bytes when it was mapped.
    let count: Int
    // Out of the runtime's exclusivity checks, as `PcapSource.mappedRecords` is: one reader
    // thread, and `advance(to:)` calls nothing that could reach the mapping again.
    /// Bytes from `base` below which pages were given back.
    @exclusivity(unchecked) private var releasedUpTo = 0
    /// Bytes from `base` below which pages were brought in.
    @exclusivity(unchecked) private var populatedUpTo = 0
    /// Bytes from `base` below which cache lines were prefetched.
    @exclusivity(unchecked) private var prefetchedUpTo = 0
    /// Bytes from `base` below which everything was last given back at once (``sweepInterval``).
    @exclusivity(unchecked) private var sweptUpTo = 0

    /// Bytes brought in, or given back, at a time.
    static let window = 1 << 20
    /// How far behind the reader pages are kept resident: pointers into the mapping that were
    /// kept past their packet's read (``PcapSource/persistentBytes``; the CLI's read-ahead
    /// batches in flight reach about a MiB back) are read from memory, not faulted in again.
    static let releaseLag = 2 << 20
    /// How far ahead of the reader cache lines are prefetched: a few records, so that each
    /// line's load has time to arrive (measured: 8–32 KiB do alike; docs/performance.md).
    static let prefetchDistance = 16 << 10
    /// How far the reader goes between giving back everything behind it at once, not just the
    /// latest window: pointers kept past their packet's read (the reassembler's retransmission
    /// window, `TCPReassembler.persistentBytes`) may read pages long behind the reader again —
    /// a retransmission compared, a window switching to copies — and those would otherwise stay
    /// resident until the mapping goes (a capture of 300 slow connections: its whole file).
    static let sweepInterval = 16 << 20

    /// Maps the regular file open on `descriptor`; `nil` when it is not a regular file, is
    /// empty, or cannot be mapped (the caller then reads it another way).
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0,
              let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != MAP_FAILED
        else { return nil }
        base = UnsafeRawPointer(address)
        count = Int(status.st_size)
        _ = madvise(address, count, MADV_SEQUENTIAL)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }

    /// Tells the mapping that the reader is at `offset`: brings in the window ahead of it once
    /// it is reached, and gives back whole windows more than ``releaseLag`` behind it. The
    /// bytes given back stay readable (a read faults them in again from the page cache).
    @inline(__always)
    func advance(to offset: Int) {
        if offset >= populatedUpTo || offset - releasedUpTo >= Self.releaseLag + 2 * Self.window { manage(offset) }
        let ahead = min(count, offset + Self.prefetchDistance)
        while prefetchedUpTo < ahead {
            framedump_prefetch(base + prefetchedUpTo)
            prefetchedUpTo += 64
        }
    }

    private func manage(_ offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        if offset >= populatedUpTo {
            let end = min(count, offset + Self.window)
            let start = offset / page * page
            #if canImport(Glibc)
            // MADV_POPULATE_READ (22, Linux 5.14): not in every libc's headers yet; an older
            // kernel rejects it (EINVAL) and the pages are faulted in as they are read.
            _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, 22)
            #endif
            populatedUpTo = end
        }
        let releaseEnd = max(0, offset - Self.releaseLag) / page * page
        if releaseEnd - releasedUpTo >= 2 * Self.window {
            let sweeps = releaseEnd - sweptUpTo >= Self.sweepInterval
            let from = sweeps ? 0 : releasedUpTo
            _ = madvise(UnsafeMutableRawPointer(mutating: base + from), releaseEnd - from, MADV_DONTNEED)
            releasedUpTo = releaseEnd
            if sweeps { sweptUpTo = releaseEnd }
        }
    }
}
