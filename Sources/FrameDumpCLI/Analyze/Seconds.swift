/// A duration in nanoseconds as people read it: `1.500 s`, `12 ms`, `250 µs`.
struct Seconds: CustomStringConvertible {
    var nanoseconds: Int64

    init(_ nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    var description: String {
        let magnitude = nanoseconds.magnitude
        let sign = nanoseconds < 0 ? "-" : ""
        if magnitude >= 1_000_000_000 { return sign + Self.decimal(magnitude, unit: 1_000_000_000, digits: 3) + " s" }
        if magnitude >= 1_000_000 { return sign + Self.decimal(magnitude, unit: 1_000_000, digits: 1) + " ms" }
        return sign + Self.decimal(magnitude, unit: 1_000, digits: 0) + " µs"
    }

    /// Seconds with 6 decimals (microseconds), as the JSON Lines output writes durations: `1.500000`.
    var json: String {
        (nanoseconds < 0 ? "-" : "") + Self.decimal(nanoseconds.magnitude, unit: 1_000_000_000, digits: 6)
    }

    /// `value / unit`, rounded to `digits` decimals.
    private static func decimal(_ value: UInt64, unit: UInt64, digits: Int) -> String {
        var scale: UInt64 = 1
        for _ in 0..<digits { scale *= 10 }
        let step = unit / scale
        let rounded = (value + step / 2) / step
        let whole = rounded / scale, fraction = rounded % scale
        guard digits > 0 else { return String(whole) }
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }
}
