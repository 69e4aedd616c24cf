import PacketDecoding

/// Timestamps as RFC 3339 text in UTC with nanoseconds: `2024-05-01T12:00:00.123456789Z`.
///
/// The `ts` key of JSON Lines. Computed by hand (Howard Hinnant's `civil_from_days`) rather
/// than with `gmtime_r` + `strftime`: no C string round trip per frame, and the same text on
/// every platform.
enum RFC3339Timestamp {
    /// Appends `time` (nanoseconds since the Unix epoch; negative is before 1970) to `buffer`.
    static func append(_ time: Timestamp, to buffer: inout [UInt8]) {
        let (seconds, fraction) = split(time)
        appendDateTime(seconds, to: &buffer)
        buffer.append(UInt8(ascii: "."))
        appendDigits(fraction, count: 9, to: &buffer)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// Appends a `google.protobuf.Timestamp` in its proto3 JSON form
    /// (https://protobuf.dev/programming-guides/json/): `1972-01-01T10:00:20.021Z`, the
    /// fraction in 0, 3, 6 or 9 digits, as few as show every nonzero digit (protobuf's own
    /// printers' choice).
    ///
    /// - Parameters:
    ///   - seconds: seconds since the Unix epoch (negative before 1970).
    ///   - nanoseconds: 0 ..< 10⁹, added to `seconds`.
    static func appendProtobuf(seconds: Int64, nanoseconds: Int64, to buffer: inout [UInt8]) {
        appendDateTime(seconds, to: &buffer)
        appendFraction(nanoseconds, to: &buffer)
        buffer.append(UInt8(ascii: "Z"))
    }

    /// Appends `.123`, `.123456` or `.123456789` for `nanoseconds` (0 ..< 10⁹): as few groups of
    /// three digits as show every nonzero one, nothing for 0 — the fraction of protobuf's
    /// Timestamp and Duration JSON.
    static func appendFraction(_ nanoseconds: Int64, to buffer: inout [UInt8]) {
        guard nanoseconds != 0 else { return }
        buffer.append(UInt8(ascii: "."))
        if nanoseconds % 1_000_000 == 0 {
            appendDigits(nanoseconds / 1_000_000, count: 3, to: &buffer)
        } else if nanoseconds % 1000 == 0 {
            appendDigits(nanoseconds / 1000, count: 6, to: &buffer)
        } else {
            appendDigits(nanoseconds, count: 9, to: &buffer)
        }
    }

    /// Whole seconds since the epoch (rounded down) and the nanoseconds past them (0 ..< 10⁹).
    private static func split(_ time: Timestamp) -> (seconds: Int64, fraction: Int64) {
        let nanosecondsPerSecond: Int64 = 1_000_000_000
        var seconds = time.nanoseconds / nanosecondsPerSecond
        var fraction = time.nanoseconds % nanosecondsPerSecond
        if fraction < 0 {
            fraction += nanosecondsPerSecond
            seconds -= 1
        }
        return (seconds, fraction)
    }

    /// Appends `2024-05-01T12:00:00`: the text up to the seconds' fraction.
    private static func appendDateTime(_ seconds: Int64, to buffer: inout [UInt8]) {
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        // civil_from_days (https://howardhinnant.github.io/date_algorithms.html).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

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
    }

    /// Appends `value` (non-negative) in decimal, zero-padded to `count` digits (more when it
    /// has more), written in place at the buffer's end: no allocation.
    private static func appendDigits(_ value: Int64, count: Int, to buffer: inout [UInt8]) {
        var width = 1
        var limit: UInt64 = 10
        let magnitude = value.magnitude
        while width < 19, magnitude >= limit {
            width += 1
            limit *= 10
        }
        width = max(width, count)
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var rest = magnitude
        var index = start + width - 1
        while rest > 0 {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// Writes timestamps of a stream of outputs whose times mostly share their second (a
    /// capture's packets): the date and time text is made once per second and copied, only the
    /// nine digits of the fraction are written per timestamp. Same text as ``append(_:to:)``.
    struct Cache {
        /// The bytes ``write(_:to:)`` writes: an `Int64` of nanoseconds spans the years 1677 to
        /// 2262, so always `YYYY-MM-DDTHH:MM:SS` (19), `.`, 9 digits and `Z`.
        static let maxCount = 19 + 11

        private var second: Int64?
        private var dateTime: [UInt8] = []

        mutating func write(_ time: Timestamp, to cursor: inout ByteCursor) {
            let (seconds, fraction) = RFC3339Timestamp.split(time)
            if seconds != second {
                dateTime.removeAll(keepingCapacity: true)
                RFC3339Timestamp.appendDateTime(seconds, to: &dateTime)
                second = seconds
            }
            cursor.append(dateTime)
            cursor.append(UInt8(ascii: "."))
            cursor.appendDigits(UInt64(fraction), count: 9)
            cursor.append(UInt8(ascii: "Z"))
        }
    }
}
