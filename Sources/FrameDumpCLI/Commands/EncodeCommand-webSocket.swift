import FrameCodec
import PacketDecoding
import WebSocketFraming

extension EncodeCommand {
    /// `encode --format websocket`: one WebSocket frame per line (``WebSocketFrameLine``), each
    /// direction's written by a ``WebSocketMessageEncoder`` (compressing with `--deflate`), after
    /// the Upgrade request and response unless `--no-upgrade`.
    ///
    /// ```
    /// JSON Lines ─> WebSocketFrameLine ─> WebSocketMessageEncoder (c2s | s2c) ─> EncodedFrameSink
    ///                                                   └ ZlibDeflater (--deflate)      (--pcap: both sides)
    /// ```
    ///
    /// With `--pcap` the client's and the server's frames are segments of one conversation, in
    /// the lines' order; on standard output (bytes or hex) every line must be of one direction.
    static func runWebSocket(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        if let given = frameOptions.first(where: { !arguments.values($0).isEmpty }) {
            throw UsageError("--\(given) describes a frame of a layout; with --format websocket give frames as JSON Lines")
        }
        let deflate = arguments.flag("deflate")
        let upgrades = !arguments.flag("no-upgrade")
        if deflate, !upgrades {
            throw UsageError("--deflate needs the Upgrade, where permessage-deflate is agreed; leave out --no-upgrade")
        }
        let inner = try arguments.value("inner").map { try FrameEncoder(format: FrameOutputOptions.resolveFormat($0, option: "inner")) }
        try WebSocketAccept.requireLibCrypto()
        let sink = try makeSink(arguments, context: context)
        // makeSink has checked --port (given with --pcap only).
        let port = arguments.value("port").flatMap { UInt16($0) } ?? SyntheticConversation.defaultServerPort
        let upgrade = WebSocketUpgrade(host: "127.0.0.1:\(port)", accept: WebSocketAccept.value(forKey: WebSocketUpgrade.sampleKey), deflate: deflate)
        var encoders = try StreamDirection.allCases.map { _ in
            guard deflate else { return WebSocketMessageEncoder(deflater: nil) }
            guard let deflater = ZlibDeflater() else {
                throw CommandFailure(message: "framedump encode: zlib could not start a deflater", status: .badInput)
            }
            return WebSocketMessageEncoder(deflater: deflater)
        }
        // The direction of standard output's bytes: the first line's.
        var outputDirection: StreamDirection?
        var headWritten = [false, false]
        var frames = [0, 0]
        var bytes: [UInt8] = []
        func writeHead(_ direction: StreamDirection) throws {
            guard upgrades, !headWritten[direction.rawValue] else { return }
            headWritten[direction.rawValue] = true
            try sink.write(direction == .clientToServer ? upgrade.request : upgrade.response, fromClient: direction == .clientToServer)
        }
        let path = arguments.positionals.first ?? "-"
        let name = path == "-" ? "<stdin>" : path
        try readLines(path: path, name: name) { text, number in
            let line: WebSocketFrameLine
            do {
                line = try WebSocketFrameLine.parse(text, inner: inner)
            } catch let error as FrameSpecLine.ParseError {
                throw CommandFailure(message: "\(name):\(number): \(error.message)", status: .badInput)
            }
            if case .pcap = sink {
                // The request, then the response, before the first frame of either side.
                try writeHead(.clientToServer)
                try writeHead(.serverToClient)
            } else {
                if let outputDirection, outputDirection != line.direction {
                    throw CommandFailure(message: "\(name):\(number): a \(line.direction) frame after \(outputDirection) ones: binary and hex output carry one direction; use --pcap FILE for a conversation", status: .badInput)
                }
                outputDirection = line.direction
                try writeHead(line.direction)
            }
            let maskKey = line.mask ?? (line.direction == .clientToServer ? defaultMaskKey(line: number) : nil)
            for piece in line.pieces {
                bytes.removeAll(keepingCapacity: true)
                do {
                    try encoders[line.direction.rawValue].append(
                        opcode: piece.opcode, fin: piece.fin, rsv: piece.opcode == .continuation ? line.rsv & 0b011 : line.rsv,
                        maskKey: maskKey, payload: Array(piece.payload),
                        compress: deflate && (!line.givesRSV1 || line.rsv & 0b100 != 0), to: &bytes)
                } catch {
                    throw CommandFailure(message: "\(name):\(number): cannot encode: \(error)", status: .badInput)
                }
                try sink.write(bytes, fromClient: line.direction == .clientToServer)
                frames[line.direction.rawValue] += 1
            }
        }
        try sink.finish()
        if case .pcap(let conversation) = sink, let path = arguments.value("pcap") {
            StandardError.writeLine("framedump encode: \(counted(frames[0] + frames[1], "WebSocket frame")) (c2s \(frames[0]), s2c \(frames[1])) in \(counted(conversation.dataSegments, "data segment")), \(counted(conversation.packets, "packet")) written to \(path == "-" ? "standard output" : path)")
        }
        return .success
    }

    /// A client frame's masking key when its line gives none: made from the line's number, so
    /// the same input gives the same bytes (§5.3 asks for unpredictable keys from a live client;
    /// a file of test traffic wants reproducible ones).
    static func defaultMaskKey(line number: Int) -> UInt32 {
        0x37FA_213D ^ (UInt32(truncatingIfNeeded: number) &* 0x9E37_79B9)
    }
}
