import CZlib
import FrameCodec

/// CRC-32 against zlib's `crc32()` on the same buffers in the same process, and CRC-32C beside
/// them: 1 MiB buffers (streaming throughput) and 64-byte buffers (per-call overhead, the size
/// of a small frame's body).
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

    let largeCases = [
        whole("crc32 zlib \(sizeLabel)") { UInt64(zlibCRC32(data)) },
        whole("crc32 ours \(sizeLabel)") { UInt64(CRC32.checksum(data, algorithm: .crc32)) },
        whole("crc32c ours \(sizeLabel)") { UInt64(CRC32.checksum(data, algorithm: .crc32c)) },
    ].filter { options.selects($0.name) }
    // Each case calls its CRC directly in the loop (no closure in between), so the rows differ
    // only in the CRC called.
    let smallCases = [
        pieces("crc32 zlib 64B") { sumOfPieces(data, size: smallSize) { UInt64(zlibCRC32($0)) } },
        pieces("crc32 ours 64B") { sumOfPieces(data, size: smallSize) { UInt64(CRC32.checksum($0, algorithm: .crc32)) } },
        pieces("crc32c ours 64B") { sumOfPieces(data, size: smallSize) { UInt64(CRC32.checksum($0, algorithm: .crc32c)) } },
    ].filter { options.selects($0.name) }

    // A fast wrong CRC is not a result: ours must match zlib before it is timed.
    if (largeCases + smallCases).contains(where: { $0.name.contains("ours") }), !oursAgreesWithZlib(data) {
        report.fail("CRC32 disagrees with zlib or the check values: rows skipped")
        return
    }

    let largeRows = measure(largeCases, options: options)
    report.add(group: "CRC32, \(sizeLabel) buffers", largeRows)
    addRatios(largeRows, size: sizeLabel, target: 1.0, report: &report)

    let smallRows = measure(smallCases, options: options)
    report.add(group: "CRC32, 64-byte buffers (\(smallCount) per iteration)", smallRows)
    addRatios(smallRows, size: "64B", target: 0.8, report: &report)
}

private func addRatios(_ rows: [BenchmarkResult], size: String, target: Double, report: inout BenchmarkReport) {
    guard let zlib = rows.first(where: { $0.name.hasPrefix("crc32 zlib") }) else { return }
    if let ours = rows.first(where: { $0.name.hasPrefix("crc32 ours") }) {
        report.add(RatioResult("crc32 ours/zlib \(size)", ours, over: zlib, target: target))
    }
    if let ours = rows.first(where: { $0.name.hasPrefix("crc32c ours") }) {
        report.add(RatioResult("crc32c ours/zlib-crc32 \(size)", ours, over: zlib, target: nil))
    }
}

/// Whether our CRC-32 equals zlib's on `data` and both algorithms give the RevEng catalogue's
/// check values for `"123456789"`.
private func oursAgreesWithZlib(_ data: UnsafeRawBufferPointer) -> Bool {
    let check = Array("123456789".utf8)
    return CRC32.checksum(check, algorithm: .crc32) == 0xCBF4_3926
        && CRC32.checksum(check, algorithm: .crc32c) == 0xE306_9283
        && CRC32.checksum(data, algorithm: .crc32) == UInt32(zlibCRC32(data))
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
