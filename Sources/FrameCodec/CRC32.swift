/// CONTRACT STUB — replaced by the real implementation (issue 2).
public struct CRC32: Sendable, Hashable {
    public let algorithm: ChecksumAlgorithm
    public init(_ algorithm: ChecksumAlgorithm = .crc32) { self.algorithm = algorithm }
    /// Running value; starts at 0 like zlib's `crc32(0, NULL, 0)`.
    public private(set) var value: UInt32 = 0
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { fatalError("stub") }
    public mutating func update(_ bytes: some Sequence<UInt8>) { fatalError("stub") }
    public static func checksum(_ bytes: UnsafeRawBufferPointer, algorithm: ChecksumAlgorithm = .crc32) -> UInt32 { fatalError("stub") }
    public static func checksum(_ bytes: some Sequence<UInt8>, algorithm: ChecksumAlgorithm = .crc32) -> UInt32 { fatalError("stub") }
}
