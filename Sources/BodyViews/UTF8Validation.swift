/// Whether bytes are well-formed UTF-8 (Unicode §3.9, table 3-7): no overlong forms, no
/// surrogates, nothing above U+10FFFF, no truncated sequence. Runs of ASCII take a word at a
/// time; nothing is allocated.
@usableFromInline
enum UTF8Validation {
    @usableFromInline
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        if count < 8 {
            // A short string (an id, a name) is most often ASCII: one test of all its bytes.
            var high: UInt8 = 0
            for offset in 0..<count { high |= bytes[offset] }
            if high < 0x80 { return true }
        }
        while index < count {
            // Eight ASCII bytes at once.
            if count &- index >= 8, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
                continue
            }
            // Fewer than eight left: when the last eight bytes are ASCII, so is the rest.
            if count &- index < 8, count >= 8, bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                return true
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard count &- index >= length else { return false }
            let second = bytes[index &+ 1]
            guard second >= low, second <= high else { return false }
            for offset in 2..<length where bytes[index &+ offset] & 0xC0 != 0x80 {
                return false
            }
            index &+= length
        }
        return true
    }
}
