import Testing
@testable import FrameDumpCLI

@Suite struct ByteCursorTests {
    /// Every power of ten and its neighbours, 0 and the largest value: the digit count is the
    /// length of Swift's own decimal text, and the digits written are that text.
    @Test func decimalDigitsMatchSwiftsDecimalText() {
        var values: [UInt64] = [0, 1, 7, 8, 9, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 10
        while true {
            values += [power - 1, power, power + 1]
            let (next, overflow) = power.multipliedReportingOverflow(by: 10)
            if overflow { break }
            power = next
        }
        for bits in 0..<64 { values += [1 << bits, (1 << bits) - 1, (1 << bits) | 1] }
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: ByteCursor.maxDecimalDigits)
        defer { storage.deallocate() }
        for value in values {
            #expect(ByteCursor.decimalDigitCount(value) == String(value).count, "\(value)")
            var cursor = ByteCursor(storage, capacity: ByteCursor.maxDecimalDigits)
            cursor.appendDecimal(value)
            #expect(String(decoding: cursor.written, as: UTF8.self) == String(value))
        }
    }
}
