import FrameCodec

/// libFuzzer target: the hex-dump parser.
///
/// Any text must either parse or fail at a line and column inside the text; bytes that
/// parse must parse back unchanged from plain hex and from an NSData-style `<...>` dump.
/// Output is capped at 64 KiB with the parser's own `maxByteCount` (a `*` repeat line can ask
/// for far more from a few bytes of input, and rendering a megabyte twice per input made
/// runs time out under ASan on a busy machine).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHexDump(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let bytes: [UInt8]
    do {
        bytes = try HexDump.parse(text, maxByteCount: 1 << 16)
    } catch {
        // Line breaks may be LF, CR LF or CR; counting both bytes bounds the line count.
        let lines = text.utf8.count { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } + 1
        guard (1...lines).contains(error.line), error.column >= 1 else {
            fatalError("error at line \(error.line), column \(error.column), outside the \(lines)-line text \(text.debugDescription)")
        }
        return 0
    }
    let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
    // NSData groups four bytes: <fefd00f9 7b22>.
    let groups = stride(from: 0, to: hex.count, by: 4).map { hex[$0..<min(hex.count, $0 + 4)].joined() }
    for rendering in [hex.joined(separator: " "), "<" + groups.joined(separator: " ") + ">"] where !bytes.isEmpty {
        guard let again = try? HexDump.parse(rendering), again == bytes else {
            fatalError("\(text.debugDescription) parsed to \(bytes.count) bytes, which do not parse back from \(rendering.debugDescription)")
        }
    }
    return 0
}
