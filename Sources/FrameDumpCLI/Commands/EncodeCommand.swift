import FrameCodec
import PacketDecoding

/// `framedump encode --format NAME|SPEC [FRAME OPTIONS | FILE|-]`: builds frames and writes them
/// as bytes, hex lines, or a synthetic TCP conversation in a pcap file.
///
/// ```
/// JSON Lines (FILE or stdin) ─┐                          ┌─> binary on stdout
///                             ├─> FrameSpecLine ─> FrameEncoder ─> EncodedFrameSink ─┼─> hex lines on stdout
/// --field/--body-* (1 frame) ─┘                          └─> SyntheticConversation (--pcap FILE)
/// ```
enum EncodeCommand: Command {
    static let spec = CommandSpec(
        name: "encode",
        summary: "Build frames from JSON Lines or options; write bytes, hex or a pcap file.",
        discussion: """
        Without frame options, reads one frame per line of JSON Lines from FILE, or standard
        input when FILE is '-' or absent:
          {"fields":{"cmd":3,"ver":1},"body_text":"hello"}
          {"fields":{"cmd":3},"body_hex":"00ff10"}
          {"fields":{"cmd":3},"body_json":{"id":7}}
        With --field and --body-* options, builds that one frame instead. Fields left out are
        filled in: the length from the body, the checksum computed, a magic with its value,
        anything else 0.

        Output: the frames' bytes (refused when standard output is a terminal), hex with one
        frame per line (--output hex, which 'framedump decode' reads back), or with --pcap a
        TCP conversation 127.0.0.1:50000 -> 127.0.0.1:PORT (handshake, data cut at the MSS,
        each segment acknowledged, FIN exchange, 1 ms between packets).
        With --format websocket, each line is one WebSocket frame of either direction
        ({"direction":"s2c","opcode":"text","payload_text":"hi"}), written after the HTTP/1.1
        Upgrade; --pcap carries both directions in the lines' order, binary and hex output one.
        Exit status: 0 done, 1 usage error, 2 a line or frame that cannot be encoded (the
        frames before it are written). Input schema: docs/cli.md.
        """,
        options: [
            .value("format", short: "F", valueName: "NAME|SPEC",
                   help: "Required: a preset (see 'framedump formats'), a layout spec,\nor websocket (one WebSocket frame per line)."),
            .value("field", valueName: "NAME=VALUE",
                   help: "A header field value, decimal, 0x hex or a value name\n(cmd=msg with h12); repeat for several fields (one frame\nfrom the options)."),
            .value("body-hex", valueName: "HEX", help: "The body in hex (spaces allowed between bytes)."),
            .value("body-text", valueName: "TEXT", help: "The body as UTF-8 text."),
            .value("body-json", valueName: "JSON", help: "The body as JSON, written compactly with keys sorted."),
            .value("output", short: "o", valueName: "binary|hex", allowedValues: ["binary", "hex"], defaultValue: "binary",
                   help: "Standard output: the frames' bytes, or one hex line per frame."),
            .value("pcap", valueName: "FILE",
                   help: "Write a synthetic TCP conversation carrying the frames to\nFILE ('-': standard output) instead."),
            .value("link", valueName: "ethernet|raw", allowedValues: ["ethernet", "raw"], defaultValue: "ethernet",
                   help: "--pcap link type: Ethernet II, or raw IPv4."),
            .value("port", valueName: "PORT", defaultValue: String(SyntheticConversation.defaultServerPort), help: "--pcap server port."),
            .value("mss", valueName: "BYTES", defaultValue: "1460",
                   help: "--pcap maximum segment size: payload bytes per segment."),
            .flag("deflate", help: "--format websocket: agree permessage-deflate in the Upgrade\nand compress each message (RFC 7692)."),
            .flag("no-upgrade", help: "--format websocket: frames only, without the HTTP/1.1\nUpgrade request and 101 response before them."),
            .value("inner", valueName: "NAME|SPEC",
                   help: "--format websocket: the format of lines' \"inner\" frames,\ncarried as the WebSocket payload."),
        ],
        positionals: [
            PositionalSpec(name: "FILE|-", isOptional: true, help: "JSON Lines to read; '-' or absent: standard input."),
        ]
    )

    /// The options that describe a frame on the command line.
    static let frameOptions = ["field", "body-hex", "body-text", "body-json"]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        guard let formatText = arguments.value("format") else {
            throw UsageError("--format is required: encode cannot guess a layout (presets: \(FrameFormat.presets.map(\.name).joined(separator: ", ")); or websocket)")
        }
        if formatText == "websocket" { return try runWebSocket(arguments, context: context) }
        if let webSocketOnly = ["deflate", "no-upgrade"].first(where: arguments.flag) ?? (arguments.value("inner") != nil ? "inner" : nil) {
            throw UsageError("--\(webSocketOnly) applies only to --format websocket")
        }
        let encoder = FrameEncoder(format: try FrameOutputOptions.resolveFormat(formatText))
        let optionFrame = try frameFromOptions(arguments, format: encoder.format)
        if optionFrame != nil, let path = arguments.positionals.first {
            throw UsageError("'\(path)': give frames either as JSON Lines input or with --field/--body-* options, not both")
        }
        let sink = try makeSink(arguments, context: context)
        var frames = 0
        var frame: [UInt8] = []
        func encode(_ line: FrameSpecLine, where place: () -> String) throws {
            frame.removeAll(keepingCapacity: true)
            do {
                try encoder.encode(fields: line.fields, body: line.body, into: &frame)
            } catch {
                throw CommandFailure(message: "\(place()): cannot encode: \(error)", status: .badInput)
            }
            try sink.write(frame)
            frames += 1
        }
        if let optionFrame {
            do {
                try encode(optionFrame) { "framedump encode" }
            } catch let failure as CommandFailure {
                throw UsageError(String(failure.message.dropFirst("framedump encode: ".count)))
            }
        } else {
            let path = arguments.positionals.first ?? "-"
            let name = path == "-" ? "<stdin>" : path
            try readLines(path: path, name: name) { line, number in
                let spec: FrameSpecLine
                do {
                    spec = try FrameSpecLine.parse(line, format: encoder.format)
                } catch let error as FrameSpecLine.ParseError {
                    throw CommandFailure(message: "\(name):\(number): \(error.message)", status: .badInput)
                }
                try encode(spec) { "\(name):\(number)" }
            }
        }
        try sink.finish()
        if case .pcap(let conversation) = sink, let path = arguments.value("pcap") {
            StandardError.writeLine("framedump encode: \(counted(frames, "frame")) in \(counted(conversation.dataSegments, "data segment")), \(counted(conversation.packets, "packet")) written to \(path == "-" ? "standard output" : path)")
        }
        return .success
    }

    /// The one frame `--field` and `--body-*` describe, or `nil` when none of them is given.
    private static func frameFromOptions(_ arguments: ParsedArguments, format: FrameFormat) throws(UsageError) -> FrameSpecLine? {
        guard frameOptions.contains(where: { !arguments.values($0).isEmpty }) else { return nil }
        var frame = FrameSpecLine(fields: [:], body: [])
        for assignment in arguments.values("field") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError("--field '\(assignment)': expected NAME=VALUE, e.g. --field cmd=3")
            }
            let name = String(assignment[..<equals])
            let valueText = assignment[assignment.index(after: equals)...]
            let named = format.fields.first { $0.name == name }?.value(named: String(valueText))
            guard let value = named ?? fieldValue(valueText) else {
                throw UsageError("--field '\(assignment)': expected a value 0...18446744073709551615, decimal or 0x hex, or a value name of the field")
            }
            guard frame.fields.updateValue(value, forKey: name) == nil else {
                throw UsageError("--field '\(name)' is given twice")
            }
        }
        let bodies = frameOptions.dropFirst().filter { arguments.value($0) != nil }
        guard bodies.count <= 1 else {
            throw UsageError("give one body: --\(bodies[bodies.startIndex]) and --\(bodies[bodies.startIndex + 1]) were both given")
        }
        do {
            if let hex = arguments.value("body-hex") {
                frame.body = try FrameSpecLine.hexBytes(hex)
            } else if let text = arguments.value("body-text") {
                frame.body = Array(text.utf8)
            } else if let json = arguments.value("body-json") {
                frame.body = try FrameSpecLine.jsonBody(json)
            }
        } catch {
            throw UsageError("--\(bodies[bodies.startIndex]): \(error.message)")
        }
        return frame
    }

    /// A `--field` value: decimal (`21`) or hexadecimal with `0x` (`0x55AA`), 0…2⁶⁴−1; `nil`
    /// when it is neither or does not fit.
    private static func fieldValue(_ text: Substring) -> UInt64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            return UInt64(text.dropFirst(2), radix: 16)
        }
        return UInt64(text, radix: 10)
    }

    /// The sink the options choose, with the pcap file already created (and its handshake
    /// written) when `--pcap` is given.
    static func makeSink(_ arguments: ParsedArguments, context: CommandContext) throws -> EncodedFrameSink {
        guard let path = arguments.value("pcap") else {
            if let pcapOnly = ["link", "port", "mss"].first(where: { arguments.value($0) != nil }) {
                throw UsageError("--\(pcapOnly) applies only to --pcap FILE")
            }
            if arguments.value("output") == "hex" { return .hex(context.output) }
            guard !context.outputIsTerminal else {
                throw UsageError("refusing to write binary frames to a terminal; redirect standard output, or use --output hex")
            }
            return .binary(context.output)
        }
        guard arguments.value("output") == nil else {
            throw UsageError("--output and --pcap both choose the output; give one")
        }
        guard let port = UInt16(arguments.value("port") ?? String(SyntheticConversation.defaultServerPort)), port > 0 else {
            throw UsageError("--port '\(arguments.value("port") ?? "")': expected a port 1...65535")
        }
        guard let mss = Int(arguments.value("mss") ?? "1460"), (1...SyntheticConversation.maxMSS).contains(mss) else {
            throw UsageError("--mss '\(arguments.value("mss") ?? "")': expected 1...\(SyntheticConversation.maxMSS) bytes")
        }
        if path == "-", context.outputIsTerminal {
            throw UsageError("refusing to write a pcap file to a terminal; redirect standard output")
        }
        let linkType: LinkType = arguments.value("link") == "raw" ? .raw : .ethernet
        do {
            return .pcap(try SyntheticConversation(path: path, linkType: linkType, serverPort: port, mss: mss))
        } catch {
            throw CommandFailure(message: "framedump encode: \(error)", status: .badInput)
        }
    }

    /// Reads `path` (`-`: standard input) in 64 KiB steps and calls `body` with each non-blank
    /// line and its number, so input of any length is encoded as it arrives.
    static func readLines(path: String, name: String, _ body: (ArraySlice<UInt8>, Int) throws -> Void) throws {
        let cannotRead = { (error: SystemError) in
            CommandFailure(message: "framedump encode: cannot read \(name): \(error.text)", status: .badInput)
        }
        let fileDescriptor: Int32
        switch FileDescriptorIO.openForReading(path) {
        case .success(let opened): fileDescriptor = opened
        case .failure(let error): throw cannotRead(error)
        }
        defer { if fileDescriptor != 0 { FileDescriptorIO.close(fileDescriptor) } }
        var splitter = LineSplitter()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            switch chunk.withUnsafeMutableBytes({ FileDescriptorIO.readSome(fileDescriptor, into: $0) }) {
            case .success(let bytes): count = bytes
            case .failure(let error): throw cannotRead(error)
            }
            if count == 0 { break }
            try chunk.withUnsafeBytes { try splitter.process(UnsafeRawBufferPointer(rebasing: $0[..<count]), body) }
        }
        try splitter.finish(body)
    }
}
