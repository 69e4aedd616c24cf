/// An IPv4 or IPv6 address.
public enum IPAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// IPv4, the 32-bit address in host order (127.0.0.1 is 0x7F000001).
    case v4(UInt32)
    /// IPv6, the 128-bit address as high and low 64-bit halves in host order.
    case v6(UInt64, UInt64)

    /// Dotted quad for IPv4; RFC 5952 text (lower case, longest zero run as `::`) for IPv6.
    public var description: String {
        switch self {
        case .v4(let a):
            return "\(a >> 24).\((a >> 16) & 0xFF).\((a >> 8) & 0xFF).\(a & 0xFF)"
        case .v6(let hi, let lo):
            var groups: [UInt16] = []
            for shift in stride(from: 48, through: 0, by: -16) { groups.append(UInt16(truncatingIfNeeded: hi >> UInt64(shift))) }
            for shift in stride(from: 48, through: 0, by: -16) { groups.append(UInt16(truncatingIfNeeded: lo >> UInt64(shift))) }
            // RFC 5952 §4.2: the longest run of two or more zero groups becomes "::" (first one on a tie).
            var bestStart = -1, bestLength = 0, runStart = -1
            for index in 0...groups.count {
                if index < groups.count, groups[index] == 0 {
                    if runStart < 0 { runStart = index }
                } else if runStart >= 0 {
                    if index - runStart > bestLength, index - runStart >= 2 { bestStart = runStart; bestLength = index - runStart }
                    runStart = -1
                }
            }
            func hex(_ range: Range<Int>) -> String { groups[range].map { String($0, radix: 16) }.joined(separator: ":") }
            if bestStart < 0 { return hex(0..<8) }
            return hex(0..<bestStart) + "::" + hex((bestStart + bestLength)..<8)
        }
    }

    /// Orders every IPv4 address before every IPv6 address, and numerically within a family, so
    /// listings come out in a stable order.
    public static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        switch (lhs, rhs) {
        case (.v4(let a), .v4(let b)): a < b
        case (.v4, .v6): true
        case (.v6, .v4): false
        case (.v6(let ah, let al), .v6(let bh, let bl)): (ah, al) < (bh, bl)
        }
    }
}
