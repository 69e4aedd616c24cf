/// CONTRACT STUB — replaced by the real implementation (issue 2).
public struct HexDumpError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var expected: String
    public var description: String { "line \(line), column \(column): expected \(expected)" }
}
public enum HexDump {
    /// Parses pasted hex (plain, NSData `<...>`, xxd, hexdump -C, Wireshark, `0x..,` literals).
    /// Dumps separated by blank lines are one continuous stream.
    public static func parse(_ text: some StringProtocol) throws(HexDumpError) -> [UInt8] { fatalError("stub") }
}
