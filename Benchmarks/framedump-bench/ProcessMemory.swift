#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's memory as the kernel counts it.
enum ProcessMemory {
    /// Resident set size now, in bytes: `/proc/self/statm` field 2 (pages) × page size; 0 where
    /// there is no `/proc`.
    static func residentBytes() -> Int {
        guard let line = procLines("/proc/self/statm").first else { return 0 }
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Gives free heap pages back to the kernel (glibc's `malloc_trim(0)`, looked up at run time
    /// because `<malloc.h>` is not in the Glibc module), so a following RSS delta counts new
    /// allocations instead of reused free pages. Does nothing where the symbol is missing.
    static func returnFreeHeapToKernel() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// Peak resident set size so far, in bytes (`getrusage` `ru_maxrss`, which Linux gives in KiB).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss  // bytes on Darwin
        #endif
    }
}

/// The CPU model (`/proc/cpuinfo` "model name") and the number of online CPUs.
func machineDescription() -> String {
    let modelLine = procLines("/proc/cpuinfo").first { $0.hasPrefix("model name") }
    let model = modelLine?.split(separator: ":", maxSplits: 1).last.map { String($0.drop { $0 == " " }) } ?? "unknown CPU"
    return "\(model), \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPUs"
}

/// The lines of a small text file (a `/proc` entry), without their newlines; empty when unreadable.
private func procLines(_ path: String) -> [String] {
    guard let file = fopen(path, "r") else { return [] }
    defer { fclose(file) }
    var lines: [String] = []
    var buffer = [CChar](repeating: 0, count: 1024)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
        let bytes = buffer.prefix { $0 != 0 && $0 != 0x0A }.map { UInt8(bitPattern: $0) }
        lines.append(String(decoding: bytes, as: UTF8.self))
    }
    return lines
}
