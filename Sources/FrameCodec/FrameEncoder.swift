/// CONTRACT STUB — replaced by the real implementation (issue 2).
public enum FrameEncoderError: Error, Sendable, Hashable {
    case unknownField(String)
    case valueTooWide(field: String, value: UInt64, width: Int)
    case bodyTooLong(length: Int, max: Int)
}
public struct FrameEncoder: Sendable {
    public let format: FrameFormat
    public init(format: FrameFormat) { self.format = format }
    /// Encodes one frame: `fields` by name (length, checksum and magic are filled in when absent).
    public func encode(fields: [String: UInt64] = [:], body: some Collection<UInt8>) throws(FrameEncoderError) -> [UInt8] { fatalError("stub") }
    /// Appends one encoded frame to `buffer`.
    public func encode(fields: [String: UInt64] = [:], body: some Collection<UInt8>, into buffer: inout [UInt8]) throws(FrameEncoderError) { fatalError("stub") }
}
