/// Where `framedump encode` puts each encoded frame: raw bytes or hex lines on standard output,
/// or segments of a synthetic TCP conversation in a pcap file.
enum EncodedFrameSink {
    /// The frames back to back, as they would be on the wire.
    case binary(OutputStream)
    /// One frame per line in lower-case hex, which `framedump decode` reads back as one stream.
    case hex(OutputStream)
    /// Data of a ``SyntheticConversation`` (the client's, or both sides' for WebSocket).
    case pcap(SyntheticConversation)

    /// Takes one frame; in a pcap file, sent by the client unless `fromClient` is `false`
    /// (standard output carries one direction, which the caller chooses).
    ///
    /// - Throws: ``OutputError`` for standard output, `CaptureError` for the pcap file.
    func write(_ frame: [UInt8], fromClient: Bool = true) throws {
        switch self {
        case .binary(let output):
            output.buffer.append(contentsOf: frame)
            try output.flushIfBlockFull()
        case .hex(let output):
            ByteFormatting.appendHex(frame[...], to: &output.buffer)
            output.buffer.append(UInt8(ascii: "\n"))
            try output.flushIfBlockFull()
        case .pcap(let conversation):
            try conversation.send(frame, fromClient: fromClient)
        }
    }

    /// Ends the output: the conversation's FIN exchange for a pcap file (standard output is
    /// flushed by the caller).
    func finish() throws {
        if case .pcap(let conversation) = self { try conversation.finish() }
    }
}
