import PacketDecoding

/// Capture timestamps as RFC 3339 text in UTC with nanoseconds, written by hand into a byte
/// buffer: `2026-11-30T20:14:24.123456789Z`.
///
/// JSON Lines output writes one per frame, so this avoids `DateFormatter` (slow, allocating,
/// locale-dependent) and `String`: the date comes from Howard Hinnant's `civil_from_days`
/// (proleptic Gregorian calendar, exact for any day count), the digits go straight into the buffer.
/// Always 30 bytes: a `Timestamp` (signed 64-bit nanoseconds since 1970) lies between the
/// years 1677 and 2262, so the year always has four digits.
enum RFC3339Timestamp {
    /// The length of every rendering, in bytes.
    static let length = 30

    /// Appends `timestamp` as `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` (RFC 3339 §5.6, UTC, nine
    /// fractional digits).
    ///
    /// - Parameters:
    ///   - timestamp: Nanoseconds since the Unix epoch; negative values are before 1970.
    ///   - buffer: Where the 30 bytes are appended.
    static func append(_ timestamp: Timestamp, to buffer: inout [UInt8]) {
        let (secondsFloor, nanoseconds) = floorDivide(timestamp.nanoseconds, 1_000_000_000)
        let (days, secondOfDay) = floorDivide(secondsFloor, 86_400)
        let (year, month, day) = civil(fromDays: days)
        appendDigits(year, count: 4, to: &buffer)
        buffer.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: "-"))
        appendDigits(day, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, count: 2, to: &buffer)
        buffer.append(UInt8(ascii: "."))
        appendDigits(nanoseconds, count: 9, to: &buffer)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// `timestamp` rendered as a `String` (for text output and messages).
    static func string(_ timestamp: Timestamp) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        append(timestamp, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Year, month (1…12) and day (1…31) of a day count since 1970-01-01.
    ///
    /// Hinnant's algorithm (https://howardhinnant.github.io/date_algorithms.html#civil_from_days):
    /// days are shifted to an era of 400 years starting on 0000-03-01, so leap days fall at the
    /// end of each year and month lengths follow the pattern `(153 * m + 2) / 5`.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Division rounding towards negative infinity, with a remainder in `0..<divisor`.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// Appends the last `count` decimal digits of a non-negative `value`, zero-padded.
    private static func appendDigits(_ value: Int64, count: Int, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value
        var index = start + count
        while remaining > 0, index > start {
            index -= 1
            buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        }
    }
}
