/// Appends numbers and hex to byte buffers without going through `String`: the inner loop of
/// JSON Lines output, where one `String` per value would cost an allocation each. And reads
/// hex digits back.
enum ByteFormatting {
    /// `"000102…feff"`: the two lower-case hex digits of every byte value, 512 bytes.
    private static let hexPairs: [UInt8] = {
        let digits = Array("0123456789abcdef".utf8)
        var table: [UInt8] = []
        table.reserveCapacity(512)
        for value in 0..<256 {
            table.append(digits[value >> 4])
            table.append(digits[value & 0xF])
        }
        return table
    }()

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to buffer: inout [UInt8]) {
        guard value >= 10 else {
            buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // 24 bytes of scratch hold the 20 digits of UInt64.max, written right to left.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var remaining = value
            var index = scratch.count
            while remaining > 0 {
                index -= 1
                scratch[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    /// Appends the two hex digits of `byte`.
    static func appendHex(_ byte: UInt8, to buffer: inout [UInt8]) {
        let index = Int(byte) &* 2
        buffer.append(hexPairs[index])
        buffer.append(hexPairs[index &+ 1])
    }

    /// Appends two hex digits per byte of `bytes`, in order.
    static func appendHex(_ bytes: ArraySlice<UInt8>, to buffer: inout [UInt8]) {
        bytes.withUnsafeBytes { appendHex($0, to: &buffer) }
    }

    /// Appends two hex digits per byte of `bytes`, in order.
    static func appendHex(_ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: bytes.count &* 2))
        hexPairs.withUnsafeBufferPointer { table in
            buffer.withUnsafeMutableBufferPointer { out in
                var position = start
                for byte in bytes {
                    let index = Int(byte) &* 2
                    out[position] = table[index]
                    out[position &+ 1] = table[index &+ 1]
                    position &+= 2
                }
            }
        }
    }

    /// Appends `value` in hex, zero-padded to `digits` digits (more when the value needs them).
    static func appendHex(_ value: UInt64, digits: Int, to buffer: inout [UInt8]) {
        let needed = max(digits, (64 - value.leadingZeroBitCount + 3) / 4)
        for position in stride(from: needed - 1, through: 0, by: -1) {
            let nibble = position < 16 ? Int((value >> UInt64(position * 4)) & 0xF) : 0
            buffer.append(hexPairs[nibble &* 2 &+ 1])
        }
    }

    /// The value 0...15 of the hex digit `character` (either case), or `nil` when it is none.
    static func hexDigitValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
