import PacketCapture
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `body` with a reader of `bytes` through a pipe, read as `framedump decode -` reads
/// standard input: the first 4 bytes already peeked (the reader replays them), the rest from the
/// pipe, whose read end is closed when `body` returns. Every byte is written before reading, so
/// the capture must fit the pipe's buffer (64 KiB on Linux).
func withPipedCapture<Result>(_ bytes: [UInt8], _ body: (PcapReader) throws -> Result) throws -> Result {
    var descriptors: [Int32] = [0, 0]
    try #require(pipe(&descriptors) == 0)
    defer { close(descriptors[0]) }
    let written = bytes.dropFirst(4).withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
    close(descriptors[1])
    try #require(written == bytes.count - 4)
    return try body(PcapReader(prefix: Array(bytes.prefix(4)), fileDescriptor: descriptors[0]))
}
