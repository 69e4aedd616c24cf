/// CONTRACT STUB — replaced by the real implementation (issue 2).
public struct FormatSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based column in the spec text where the problem is.
    public var column: Int
    /// What was expected there.
    public var expected: String
    public var description: String { "column \(column): expected \(expected)" }
}
extension FrameFormat {
    /// Parses a text spec (grammar in docs/formats.md), e.g. `magic:u16=0x55AA ver:u8 cmd:u8 len:u32be crc:crc32be`.
    public init(spec: String) throws(FormatSpecError) { fatalError("stub") }
    /// A preset name or a spec.
    public init(nameOrSpec: String) throws(FormatSpecError) { fatalError("stub") }
}
