import FrameCodec

/// `framedump dissector --format SPEC [--name NAME] [--port N | --heuristic]`: writes a Wireshark
/// Lua dissector for the format (``LuaDissector``) to standard output.
enum DissectorCommand: Command {
    static let spec = CommandSpec(
        name: "dissector",
        summary: "Write a Wireshark Lua dissector for a frame format.",
        discussion: """
            The dissector cuts TCP streams into frames as decode does (several per segment, one
            over many segments, resync after bytes that are not a header), shows every header
            field with its value names, the payload, and the CRC verdict for crc32/crc32c.
            It registers on --port, or with --heuristic claims TCP conversations whose payload
            starts with a valid header (formats with a magic default to --heuristic).
            Names start with 'fd_' (fd_h12.cmd), never clashing with Wireshark's own protocols;
            the dissector's own fields are NAME.pdu.length, .skipped, .payload and .crc_ok.
              framedump dissector -F h12 > h12.lua
              tshark -X lua_script:h12.lua -o tcp.reassemble_out_of_order:TRUE -r dump.pcap
            """,
        options: [
            .value("format", short: "F", valueName: "NAME|SPEC", help: "Required: a preset (see 'framedump formats') or a layout spec."),
            .value("name", valueName: "NAME", help: "The protocol name and field prefix, starting 'fd_' (default: fd_PRESET, or fd_frames)."),
            .value("port", valueName: "N", help: "Register on TCP port N."),
            .flag("heuristic", help: "Register as a TCP heuristic dissector (needs a magic or another checked field)."),
        ],
        positionals: []
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitStatus {
        guard let formatText = arguments.value("format") else {
            throw UsageError("--format is required (presets: \(FrameFormat.presets.map(\.name).joined(separator: ", ")))")
        }
        let format = try FrameOutputOptions.resolveFormat(formatText)
        let name = arguments.value("name") ?? DissectorName.defaultName(presetName: FrameFormat.preset(named: format.name) != nil ? format.name : nil)
        if let problem = DissectorName.problem(with: name) {
            throw UsageError("--name '\(name)': \(problem)")
        }
        let hasChecks = format.fields.contains { $0.expected != nil && $0.role != .opaque }
        let registration: LuaDissector.Registration
        if let port = arguments.value("port") {
            guard !arguments.flag("heuristic") else { throw UsageError("give --port or --heuristic, not both") }
            guard let number = Int(port), (1...65535).contains(number) else {
                throw UsageError("--port '\(port)': expected a TCP port 1...65535")
            }
            registration = .port(number)
        } else {
            guard hasChecks else {
                throw UsageError("give --port N: --heuristic needs a format with a magic or another checked field (like magic:u16=0x55AA)")
            }
            registration = .heuristic
        }
        context.output.write(LuaDissector.source(for: format, name: name, registration: registration))
        return .success
    }
}
