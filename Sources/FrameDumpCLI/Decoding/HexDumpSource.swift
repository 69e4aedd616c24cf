import FrameCodec

/// A hex dump in a file or on standard input: the bytes of one stream.
///
/// The text may be in any form `HexDump.parse` accepts (plain, NSData `<...>`, xxd, hexdump -C,
/// Wireshark "Copy as Hex Dump", `0x..,` literals); several dumps separated by blank lines make
/// one continuous stream.
struct HexDumpSource {
    /// A file path, or `-` for standard input.
    var path: String
    /// For an input that cannot be reopened (standard input, a pipe): the bytes already read
    /// (to tell a hex dump from a capture), the start of the text, and where the rest comes from.
    var opened = InputKind.Opened(prefix: [], stream: nil)

    /// The name used in messages: the path, or `<stdin>`.
    var displayName: String { path == "-" ? "<stdin>" : path }

    /// Reads and parses the whole dump.
    ///
    /// - Returns: The stream's bytes (several dumps separated by blank lines: one after the other).
    /// - Throws: ``CommandFailure`` (exit 2) when the input cannot be read, or is not a hex dump
    ///   (`file:line:column: expected …`).
    func read() throws(CommandFailure) -> [UInt8] {
        // Reading stops at a NUL byte, which no hex dump holds: binary input (`/dev/zero`, a
        // mistaken file) is reported at once instead of being read whole into memory.
        let read = opened.stream.map { stream in
            FileDescriptorIO.readAll(stream, through: 0).map { opened.prefix + $0 }
        } ?? FileDescriptorIO.readFile(atPath: path, through: 0)
        let text: [UInt8]
        switch read {
        case .success(let bytes): text = bytes
        case .failure(let error):
            throw CommandFailure(message: "framedump: cannot read \(displayName): \(error.text)", status: .badInput)
        }
        let bytes: [UInt8]
        do {
            bytes = try HexDump.parse(String(decoding: text, as: UTF8.self))
        } catch {
            throw CommandFailure(
                message: "\(displayName):\(error.line):\(error.column): expected \(error.expected)",
                status: .badInput
            )
        }
        if bytes.isEmpty {
            // Without a format there would be no output at all, which looks like a hang or a bug.
            StandardError.writeLine("framedump decode: \(displayName) holds no hex bytes")
        }
        return bytes
    }
}
