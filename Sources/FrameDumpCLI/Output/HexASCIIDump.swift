/// The canonical hex+ASCII layout of `hexdump -C`: 16 bytes a line, offset in 8 hex digits, two
/// groups of 8 bytes, then the bytes as ASCII with `.` for anything unprintable.
///
/// ```
/// 00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|
/// 00000010  00 00 01 00                                       |....|
/// ```
///
/// Unlike `hexdump -C` there is no closing line with the total, and repeated lines are not
/// folded into `*`: the dump is of one frame's body, whose length is shown beside it.
enum HexASCIIDump {
    /// Appends the dump of `bytes`, each line prefixed with `indent` and ended with a newline.
    ///
    /// - Parameters:
    ///   - bytes: the bytes to show; offsets count from its first byte.
    ///   - indent: bytes put before every line (spaces for nesting under a heading).
    ///   - buffer: where the lines go.
    static func append(_ bytes: ArraySlice<UInt8>, indent: String, to buffer: inout [UInt8]) {
        // Each line is laid out in a scratch line of spaces, then appended in one copy:
        // offset (8) + 2 spaces, 16 × "xx " with one more space after the 8th, " |", ASCII, "|\n".
        let asciiStart = 8 + 2 + 16 * 3 + 1 + 2
        var line = [UInt8](repeating: UInt8(ascii: " "), count: asciiStart + 16 + 2)
        let indent = Array(indent.utf8)
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let chunk = bytes[lineStart..<min(lineStart + 16, bytes.endIndex)]
            let length = line.withUnsafeMutableBufferPointer { out in
                var offset = UInt64(lineStart - bytes.startIndex)
                for position in stride(from: 7, through: 0, by: -1) {
                    out[position] = hexDigits[Int(offset & 0xF)]
                    offset >>= 4
                }
                for column in 0..<16 {
                    let at = 10 + column * 3 + (column >= 8 ? 1 : 0)
                    if column < chunk.count {
                        let byte = chunk[chunk.startIndex + column]
                        out[at] = hexDigits[Int(byte >> 4)]
                        out[at + 1] = hexDigits[Int(byte & 0xF)]
                        out[asciiStart + column] = (0x20...0x7E).contains(byte) ? byte : UInt8(ascii: ".")
                    } else {
                        out[at] = UInt8(ascii: " ")
                        out[at + 1] = UInt8(ascii: " ")
                    }
                }
                out[asciiStart - 1] = UInt8(ascii: "|")
                out[asciiStart + chunk.count] = UInt8(ascii: "|")
                out[asciiStart + chunk.count + 1] = UInt8(ascii: "\n")
                return asciiStart + chunk.count + 2
            }
            buffer.append(contentsOf: indent)
            buffer.append(contentsOf: line[..<length])
            lineStart = chunk.endIndex
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
