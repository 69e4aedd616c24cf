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

    /// Pieces of every length up to past the limit, at every position of a short room: what is
    /// written is the pieces back to back, whether a piece took the 16-byte store or the room's
    /// end made it fall back to a copy.
    @Test func paddedPiecesWriteExactlyTheirBytes() {
        let source: [UInt8] = (0..<40).map { UInt8(65 + $0 % 26) }
        let capacity = 48
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { storage.deallocate() }
        source.withUnsafeBytes { bytes in
            for length in 0...(ByteCursor.paddedPieceLimit + 2) {
                var cursor = ByteCursor(storage, capacity: capacity)
                var expected: [UInt8] = []
                while cursor.count + length <= capacity {
                    let start = expected.count % 7
                    cursor.appendPadded(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]))
                    expected += source[start..<(start + length)]
                    if length == 0 { break }
                }
                #expect(Array(cursor.written) == expected, "pieces of \(length) bytes")
            }
        }
    }
}
