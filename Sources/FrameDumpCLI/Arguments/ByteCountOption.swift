/// Byte counts on the command line: `65536`, `64K`, `1M`, `2G` (binary multiples: 1K = 1024
/// bytes, as `--max-buffer` and the docs' KiB/MiB/GiB figures mean them).
enum ByteCountOption {
    /// Parses `text`, the value of option `--name`.
    ///
    /// - Returns: The count in bytes, 1 or more.
    /// - Throws: ``UsageError`` naming the option when `text` is not a positive count or overflows.
    static func parse(_ text: String, option name: String) throws(UsageError) -> Int {
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let multiplier = text.last.flatMap { multipliers[$0] } ?? 1
        let digits = multiplier == 1 ? Substring(text) : text.dropLast()
        guard let value = Int(digits), value > 0, value <= Int.max / multiplier else {
            throw UsageError("invalid --\(name) '\(text)': expected a positive byte count, e.g. 1M or 65536 (suffixes K, M, G)")
        }
        return value * multiplier
    }
}
