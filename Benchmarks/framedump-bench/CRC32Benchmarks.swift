import CZlib
import FrameCodec

/// CRC-32 against zlib's `crc32()` on the same buffers in the same process, CRC-32C beside them,
/// and both again on the portable path alone (the tables, what a CPU without CRC instructions
/// runs): 1 MiB buffers (streaming throughput) and 64-byte buffers (per-call overhead, the size
/// of a small frame's body). "ours" takes the path ``CRC32Acceleration`` selected for this CPU.
func runCRC32Benchmarks(options: BenchmarkOptions, report: inout BenchmarkReport) {
    let large = options.size(1 << 20, quick: 64 << 10)
    let buffer = AlignedBuffer(randomCount: large, seed: 0xC3C3)
    let data = buffer.readOnly
    let smallSize = 64
    let smallCount = large / smallSize

    func whole(_ name: String, _ run: @escaping () -> UInt64) -> BenchmarkCase {
        BenchmarkCase(name: name, bytes: large, items: 1, itemUnit: "calls", run: run)
    }
    func pieces(_ name: String, _ run: @escaping () -> UInt64) -> BenchmarkCase {
        BenchmarkCase(name: name, bytes: smallCount * smallSize, items: smallCount, itemUnit: "calls", run: run)
    }
    let sizeLabel = large == 1 << 20 ? "1MiB" : "\(large >> 10)KiB"

    let portable = CRC32Acceleration.portable
    let largeCases = [
        whole("crc32 zlib \(sizeLabel)") { UInt64(zlibCRC32(data)) },
        whole("crc32 ours \(sizeLabel)") { UInt64(CRC32.checksum(data, algorithm: .crc32)) },
        whole("crc32 portable \(sizeLabel)") { UInt64(portable.update(0, data, algorithm: .crc32)) },
        whole("crc32c ours \(sizeLabel)") { UInt64(CRC32.checksum(data, algorithm: .crc32c)) },
        whole("crc32c portable \(sizeLabel)") { UInt64(portable.update(0, data, algorithm: .crc32c)) },
    ].filter { options.selects($0.name) }
    // Each case calls its CRC directly in the loop (no closure in between), so the rows differ
    // only in the CRC called.
    let smallCases = [
        pieces("crc32 zlib 64B") { sumOfPieces(data, size: smallSize) { UInt64(zlibCRC32($0)) } },
        pieces("crc32 ours 64B") { sumOfPieces(data, size: smallSize) { UInt64(CRC32.checksum($0, algorithm: .crc32)) } },
        pieces("crc32 portable 64B") { sumOfPieces(data, size: smallSize) { UInt64(portable.update(0, $0, algorithm: .crc32)) } },
        pieces("crc32c ours 64B") { sumOfPieces(data, size: smallSize) { UInt64(CRC32.checksum($0, algorithm: .crc32c)) } },
        pieces("crc32c portable 64B") { sumOfPieces(data, size: smallSize) { UInt64(portable.update(0, $0, algorithm: .crc32c)) } },
    ].filter { options.selects($0.name) }

    // A fast wrong CRC is not a result: ours must match zlib before it is timed.
    if (largeCases + smallCases).contains(where: { !$0.name.contains("zlib") }), !oursAgreesWithZlib(data) {
        report.fail("CRC32 disagrees with zlib or the check values: rows skipped")
        return
    }

    let largeRows = measure(largeCases, options: options)
    report.add(group: "CRC32, \(sizeLabel) buffers", largeRows)
    addRatios(largeRows, size: sizeLabel, target: 4.0, crc32cTarget: 4.0, report: &report)

    let smallRows = measure(smallCases, options: options)
    report.add(group: "CRC32, 64-byte buffers (\(smallCount) per iteration)", smallRows)
    addRatios(smallRows, size: "64B", target: 1.5, crc32cTarget: nil, report: &report)

    runCrossover(data, report: &report, options: options)
}

/// The CPU's best path against the tables on tiny buffers, whatever
/// ``CRC32Acceleration/minimumLength(_:)`` routes: where the instructions start to win.
private func runCrossover(_ data: UnsafeRawBufferPointer, report: inout BenchmarkReport, options: BenchmarkOptions) {
    guard let best = CRC32Acceleration.supported.last, best != .portable else { return }
    let portable = CRC32Acceleration.portable
    for size in [8, 16, 32] {
        let count = data.count / size
        let cases = ChecksumAlgorithm.allCases.flatMap { algorithm in
            [(portable, "portable"), (best, "\(best)")].map { path, label in
                BenchmarkCase(name: "crossover \(algorithm) \(label) \(size)B", bytes: count * size, items: count, itemUnit: "calls") {
                    sumOfPieces(data, size: size) { UInt64(path.update(0, $0, algorithm: algorithm)) }
                }
            }
        }.filter { options.selects($0.name) }
        let rows = measure(cases, options: options)
        report.add(group: "CRC32 crossover, \(size)-byte buffers (\(count) per iteration)", rows)
        for algorithm in ChecksumAlgorithm.allCases {
            if let fast = rows.first(where: { $0.name == "crossover \(algorithm) \(best) \(size)B" }),
               let slow = rows.first(where: { $0.name == "crossover \(algorithm) portable \(size)B" }) {
                report.add(RatioResult("\(algorithm) \(best)/portable \(size)B", fast, over: slow, target: nil))
            }
        }
    }
}

/// CRC-32 against zlib (the target), CRC-32C against our portable path (its target: there is no
/// zlib CRC-32C), and the portable CRC-32 against zlib (reported).
private func addRatios(_ rows: [BenchmarkResult], size: String, target: Double, crc32cTarget: Double?, report: inout BenchmarkReport) {
    func row(_ prefix: String) -> BenchmarkResult? { rows.first { $0.name.hasPrefix(prefix) } }
    if let zlib = row("crc32 zlib") {
        if let ours = row("crc32 ours") { report.add(RatioResult("crc32 ours/zlib \(size)", ours, over: zlib, target: target)) }
        if let portable = row("crc32 portable") { report.add(RatioResult("crc32 portable/zlib \(size)", portable, over: zlib, target: nil)) }
    }
    if let ours = row("crc32c ours"), let portable = row("crc32c portable") {
        report.add(RatioResult("crc32c ours/portable \(size)", ours, over: portable, target: crc32cTarget))
    }
}

/// Whether our CRC-32, on the selected and the portable path, equals zlib's on `data`, both
/// paths agree on CRC-32C, and both algorithms give the RevEng catalogue's check values for
/// `"123456789"`.
private func oursAgreesWithZlib(_ data: UnsafeRawBufferPointer) -> Bool {
    let check = Array("123456789".utf8)
    let portable = CRC32Acceleration.portable
    return CRC32.checksum(check, algorithm: .crc32) == 0xCBF4_3926
        && CRC32.checksum(check, algorithm: .crc32c) == 0xE306_9283
        && CRC32.checksum(data, algorithm: .crc32) == UInt32(zlibCRC32(data))
        && portable.update(0, data, algorithm: .crc32) == UInt32(zlibCRC32(data))
        && portable.update(0, data, algorithm: .crc32c) == CRC32.checksum(data, algorithm: .crc32c)
}

/// Sum of `crc` over consecutive `size`-byte pieces of `data` (a trailing partial piece is left out).
@inline(__always)
private func sumOfPieces(_ data: UnsafeRawBufferPointer, size: Int, _ crc: (UnsafeRawBufferPointer) -> UInt64) -> UInt64 {
    var sum: UInt64 = 0
    var offset = 0
    while offset + size <= data.count {
        sum &+= crc(UnsafeRawBufferPointer(rebasing: data[offset..<offset + size]))
        offset += size
    }
    return sum
}

/// zlib's `crc32()` over a whole buffer (zlib takes at most `UInt32.max` bytes per call).
func zlibCRC32(_ bytes: UnsafeRawBufferPointer) -> UInt {
    guard let base = bytes.baseAddress else { return crc32(0, nil, 0) }
    return crc32(0, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
}
