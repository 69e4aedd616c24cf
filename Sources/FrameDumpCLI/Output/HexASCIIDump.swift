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
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let line = bytes[lineStart..<min(lineStart + 16, bytes.endIndex)]
            buffer.append(contentsOf: indent.utf8)
            ByteFormatting.appendHex(UInt64(lineStart - bytes.startIndex), digits: 8, to: &buffer)
            buffer.append(contentsOf: "  ".utf8)
            for column in 0..<16 {
                if column < line.count {
                    ByteFormatting.appendHex(line[line.startIndex + column], to: &buffer)
                    buffer.append(UInt8(ascii: " "))
                } else {
                    buffer.append(contentsOf: "   ".utf8)
                }
                if column == 7 { buffer.append(UInt8(ascii: " ")) }
            }
            buffer.append(contentsOf: " |".utf8)
            for byte in line {
                buffer.append((0x20...0x7E).contains(byte) ? byte : UInt8(ascii: "."))
            }
            buffer.append(contentsOf: "|\n".utf8)
            lineStart = line.endIndex
        }
    }
}
