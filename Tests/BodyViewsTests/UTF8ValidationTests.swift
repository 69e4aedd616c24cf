import Testing
@testable import BodyViews

@Suite struct UTF8ValidationTests {
    /// Agrees with the standard library's validation on every 1- and 2-byte sequence and on
    /// random longer ones.
    @Test func agreesWithTheStandardLibrary() {
        func check(_ bytes: [UInt8]) {
            let ours = bytes.withUnsafeBytes { UTF8Validation.isValid($0) }
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
        for first in 0...255 {
            check([UInt8(first)])
            for second in stride(from: 0, through: 255, by: 3) { check([UInt8(first), UInt8(second)]) }
        }
        var random = SystemRandomNumberGenerator()
        let interesting: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x8F, 0x90]
        for _ in 0..<20_000 {
            check((0..<Int.random(in: 3...12, using: &random)).map { _ in interesting.randomElement(using: &random)! })
        }
    }

    /// ASCII of every length up to 24 with one or two other bytes at every place: the paths
    /// for strings under eight bytes, for whole words, and for the last bytes tested as the
    /// final word (which overlaps bytes already read) all agree with the standard library.
    @Test func asciiRunsWithOneOtherByteAnywhere() {
        let others: [[UInt8]] = [[0x80], [0xC3, 0xA9], [0xC3], [0xF0, 0x9F, 0x99, 0x82], [0xF0, 0x9F], [0xED, 0xA0, 0x80], [0xFF]]
        for length in 0...24 {
            for other in others {
                for place in 0...length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes.insert(contentsOf: other, at: place)
                    let ours = bytes.withUnsafeBytes { UTF8Validation.isValid($0) }
                    #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
                }
            }
            let ascii = [UInt8](repeating: UInt8(ascii: "z"), count: length)
            #expect(ascii.withUnsafeBytes { UTF8Validation.isValid($0) })
        }
    }
}
