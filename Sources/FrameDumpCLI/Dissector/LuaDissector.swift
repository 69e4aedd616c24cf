import FrameCodec

/// A Wireshark Lua dissector for a ``FrameFormat``: `framedump dissector` writes it
/// (docs/cli.md, "framedump dissector").
///
/// The Lua does what ``FrameDecoder`` does, so tshark and `framedump decode` cut a stream into
/// the same PDUs:
///
/// - PDU loop over each TCP payload with `pinfo.desegment_offset`/`desegment_len` — the
///   mechanism `dissect_tcp_pdus` (Wireshark's `tcp_dissect_pdus`) is built on — so several
///   PDUs in one segment and one PDU over many segments both work; the loop is written out
///   rather than calling `dissect_tcp_pdus` because that function cannot resync: on bytes that
///   are not a header (a capture starting mid-stream, a damaged stream) it would take garbage
///   for a length and lose the rest of the stream.
/// - Header checks as the decoder makes them: the magic, other `=LOW..HIGH` fields, and the
///   frame length `header + len + adjust` (or `len + adjust` for `counts=frame`) within
///   `header … max`. A bad header is skipped as the decoder skips it: to the next magic, or one
///   byte when the format has none; the bytes skipped before a PDU in the same segment are its
///   `NAME.skipped` field, those after a segment's last PDU are `NAME.trailing_skip`.
/// - Every integer field with its name and value names (`{1=ping}` as a value string), opaque
///   fields as bytes, the payload from `strip=`, and for crc32/crc32c the checksum verdict
///   `NAME.crc_ok` computed in Lua.
/// - Registration on `--port N`, or as a heuristic dissector for TCP that claims a
///   conversation whose first payload starts with the magic.
enum LuaDissector {
    /// How the dissector finds its traffic.
    enum Registration: Equatable {
        case port(Int)
        case heuristic
    }

    /// The Lua source.
    ///
    /// - Parameters:
    ///   - format: the layout.
    ///   - name: the protocol name: the field prefix (`h12.cmd`) and the display filter word.
    ///   - registration: the port, or the heuristic.
    static func source(for format: FrameFormat, name: String, registration: Registration) -> String {
        var lua = Lines()
        let header = format.headerLength
        lua.add("-- Wireshark dissector for \(name), written by `framedump dissector` from the frame format:")
        lua.add("--   \(FormatDescription.spec(format))")
        lua.add("-- Load with: tshark -X lua_script:THIS_FILE -o tcp.reassemble_out_of_order:TRUE ...")
        lua.add("-- or copy into Wireshark's personal Lua plugins folder (Help > About > Folders).")
        lua.add("")
        lua.add("local proto = Proto(\(quoted(name)), \(quoted("\(name) frames (framedump format)")))")
        lua.add("local HEADER = \(header)")
        lua.add("local MAX_FRAME = \(format.maxFrameLength)")
        lua.add("")
        var fieldNames: [String] = []
        for (index, field) in format.fields.enumerated() {
            let variable = "f_\(index)"
            fieldNames.append(variable)
            lua.add("local \(variable) = \(protoField(field, index: index, format: format, name: name))")
        }
        lua.add("local f_payload = ProtoField.bytes(\(quoted("\(name).payload")), \"Payload\")")
        lua.add("local f_frame_length = ProtoField.uint32(\(quoted("\(name).frame_length")), \"Frame length\")")
        lua.add("local f_skipped = ProtoField.uint32(\(quoted("\(name).skipped")), \"Bytes skipped before this frame (no valid header)\")")
        lua.add("local f_trailing_skip = ProtoField.uint32(\(quoted("\(name).trailing_skip")), \"Bytes skipped after the last frame of this segment\")")
        var allFields = fieldNames + ["f_payload", "f_frame_length", "f_skipped", "f_trailing_skip"]
        if format.checksumFieldIndex != nil {
            lua.add("local f_crc_ok = ProtoField.bool(\(quoted("\(name).crc_ok")), \"Checksum good\")")
            allFields.append("f_crc_ok")
        }
        lua.add("proto.fields = { \(allFields.joined(separator: ", ")) }")
        lua.add("")
        lua.add(readInteger)
        appendChecksum(format, to: &lua)
        appendHeaderCheck(format, to: &lua)
        appendFrameLength(format, to: &lua)
        appendPDU(format, name: name, fieldNames: fieldNames, to: &lua)
        appendLoop(format, to: &lua)
        appendRegistration(format, registration: registration, to: &lua)
        return lua.text
    }

    /// `ProtoField.uint16("h12.cmd", "cmd", base.DEC, {[1] = "ping"})`.
    private static func protoField(_ field: HeaderField, index: Int, format: FrameFormat, name: String) -> String {
        let abbreviation = quoted("\(name).\(field.name)")
        guard field.role != .opaque else { return "ProtoField.bytes(\(abbreviation), \(quoted(field.name)))" }
        let type = switch field.width {
        case 1: "uint8"
        case 2: "uint16"
        case 3: "uint24"
        case 4: "uint32"
        default: "uint64"
        }
        let isHex = index == format.magicFieldIndex || index == format.checksumFieldIndex
        var text = "ProtoField.\(type)(\(abbreviation), \(quoted(field.name)), \(isHex ? "base.HEX" : "base.DEC")"
        // Value strings take 32-bit keys.
        if !field.valueNames.isEmpty, field.width <= 4 {
            text += ", { " + field.valueNames.map { "[\($0.value)] = \(quoted($0.name))" }.joined(separator: ", ") + " }"
        }
        return text + ")"
    }

    private static let readInteger = """
        -- Field `width` bytes at `offset` as a Lua number (exact up to 2^53; wider values only
        -- matter for lengths, which are then over any max frame length anyway).
        local function read(tvb, offset, width, little)
            local range = tvb(offset, width)
            if width <= 4 then
                return little and range:le_uint() or range:uint()
            end
            return (little and range:le_uint64() or range:uint64()):tonumber()
        end

        """

    private static func appendChecksum(_ format: FrameFormat, to lua: inout Lines) {
        guard let index = format.checksumFieldIndex, case .checksum(let algorithm, let coverage) = format.fields[index].role else { return }
        let polynomial = algorithm == .crc32 ? "0xEDB88320" : "0x82F63B78"
        lua.add("""
            -- \(algorithm == .crc32 ? "CRC-32/ISO-HDLC (zlib's)" : "CRC-32C (Castagnoli, RFC 3720)"), reflected, table-driven.
            local crc_table = {}
            for i = 0, 255 do
                local c = i
                for _ = 1, 8 do
                    if bit32.band(c, 1) == 1 then c = bit32.bxor(bit32.rshift(c, 1), \(polynomial)) else c = bit32.rshift(c, 1) end
                end
                crc_table[i] = c
            end
            local function crc_update(c, tvb, offset, length)
                local band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
                for i = offset, offset + length - 1 do
                    c = bxor(crc_table[band(bxor(c, tvb(i, 1):uint()), 0xFF)], rshift(c, 8))
                end
                return c
            end
            local CRC_OFFSET = \(format.offset(ofField: index))
            local function crc_of(tvb)
            """)
        if coverage == .body {
            lua.add("""
                    local c = crc_update(0xFFFFFFFF, tvb, HEADER, tvb:len() - HEADER)
                    return bit32.bxor(c, 0xFFFFFFFF)
                end

                """)
        } else {
            lua.add("""
                    -- The whole frame, the checksum field's own four bytes read as zero.
                    local c = crc_update(0xFFFFFFFF, tvb, 0, CRC_OFFSET)
                    for _ = 1, 4 do c = bit32.bxor(crc_table[bit32.band(c, 0xFF)], bit32.rshift(c, 8)) end
                    c = crc_update(c, tvb, CRC_OFFSET + 4, tvb:len() - CRC_OFFSET - 4)
                    return bit32.bxor(c, 0xFFFFFFFF)
                end

                """)
        }
    }

    /// `header_state(tvb, offset, available)`: "ok", "bad" or "more" (not enough bytes to
    /// tell), as the decoder checks a header: the magic first, then the other checked fields
    /// that are wholly readable.
    private static func appendHeaderCheck(_ format: FrameFormat, to lua: inout Lines) {
        lua.add("local function header_state(tvb, offset, available)")
        for (index, field) in format.fields.enumerated() {
            guard field.role != .opaque, let expected = field.expected else { continue }
            let start = format.offset(ofField: index)
            let little = field.byteOrder == .littleEndian && field.width > 1
            lua.add("    if available >= \(start + field.width) then")
            lua.add("        local v = read(tvb, offset + \(start), \(field.width), \(little))")
            lua.add("        if v < \(expected.lowerBound) or v > \(expected.upperBound) then return \"bad\" end")
            lua.add("    else")
            lua.add("        return \"more\"")
            lua.add("    end")
        }
        lua.add("    if available < HEADER then return \"more\" end")
        lua.add("    return \"ok\"")
        lua.add("end")
        lua.add("")
        if let magic = format.magicFieldIndex {
            let field = format.fields[magic]
            lua.add("-- Resync: the next offset after `offset` where the magic could start.")
            lua.add("local MAGIC_OFFSET, MAGIC_WIDTH, MAGIC = \(format.offset(ofField: magic)), \(field.width), \(field.expected!.lowerBound)")
            lua.add("local function resync(tvb, offset)")
            lua.add("    local last = tvb:len() - MAGIC_OFFSET - MAGIC_WIDTH")
            lua.add("    for candidate = offset + 1, last do")
            lua.add("        if read(tvb, candidate + MAGIC_OFFSET, MAGIC_WIDTH, \(field.byteOrder == .littleEndian && field.width > 1)) == MAGIC then return candidate end")
            lua.add("    end")
            lua.add("    -- No whole magic: keep the bytes that could still start one.")
            lua.add("    return math.max(offset + 1, last + 1)")
            lua.add("end")
        } else {
            lua.add("-- No magic: resync one byte at a time, as the decoder does.")
            lua.add("local function resync(tvb, offset) return offset + 1 end")
        }
        lua.add("")
    }

    private static func appendFrameLength(_ format: FrameFormat, to lua: inout Lines) {
        let index = format.lengthFieldIndex
        let field = format.fields[index]
        let base = format.lengthCounts == .body ? "HEADER + " : ""
        lua.add("-- The frame length the header declares, or nil when it is below the header or over the max.")
        lua.add("local function frame_length(tvb, offset)")
        lua.add("    local v = read(tvb, offset + \(format.offset(ofField: index)), \(field.width), \(field.byteOrder == .littleEndian && field.width > 1))")
        lua.add("    local length = \(base)v + (\(format.lengthAdjustment))")
        lua.add("    if length < HEADER or length > MAX_FRAME then return nil end")
        lua.add("    return length")
        lua.add("end")
        lua.add("")
    }

    private static func appendPDU(_ format: FrameFormat, name: String, fieldNames: [String], to lua: inout Lines) {
        lua.add("local function dissect_pdu(tvb, pinfo, tree, skipped)")
        lua.add("    local item = tree:add(proto, tvb())")
        for (index, field) in format.fields.enumerated() {
            let range = "tvb(\(format.offset(ofField: index)), \(field.width))"
            let method = field.byteOrder == .littleEndian && field.width > 1 && field.role != .opaque ? "add_le" : "add"
            lua.add("    item:\(method)(\(fieldNames[index]), \(range))")
        }
        let payloadStart = format.payloadOffset ?? format.headerLength
        lua.add("    if tvb:len() > \(payloadStart) then item:add(f_payload, tvb(\(payloadStart))) end")
        lua.add("    item:add(f_frame_length, tvb(), tvb:len())")
        lua.add("    item:add(f_skipped, tvb(0, 0), skipped)")
        if let index = format.checksumFieldIndex {
            let field = format.fields[index]
            lua.add("    local stored = read(tvb, CRC_OFFSET, 4, \(field.byteOrder == .littleEndian))")
            lua.add("    item:add(f_crc_ok, tvb(CRC_OFFSET, 4), crc_of(tvb) == stored)")
        }
        lua.add("    pinfo.cols.protocol = \(quoted(name))")
        lua.add("end")
        lua.add("")
    }

    private static func appendLoop(_ format: FrameFormat, to lua: inout Lines) {
        lua.add("""
            function proto.dissector(tvb, pinfo, tree)
                local offset, length, skipped = 0, tvb:len(), 0
                while offset < length do
                    local state = header_state(tvb, offset, length - offset)
                    local frame = state == "ok" and frame_length(tvb, offset) or nil
                    if state == "more" then
                        if skipped > 0 then tree:add(f_trailing_skip, tvb(0, 0), skipped) end
                        pinfo.desegment_offset = offset
                        pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
                        return length
                    elseif state == "bad" or frame == nil then
                        -- An oversize length skips one byte, as the decoder's oversize event does.
                        local next = frame == nil and state == "ok" and offset + 1 or resync(tvb, offset)
                        skipped = skipped + (next - offset)
                        offset = next
                    elseif length - offset < frame then
                        if skipped > 0 then tree:add(f_trailing_skip, tvb(0, 0), skipped) end
                        pinfo.desegment_offset = offset
                        pinfo.desegment_len = frame - (length - offset)
                        return length
                    else
                        dissect_pdu(tvb(offset, frame):tvb(), pinfo, tree, skipped)
                        skipped = 0
                        offset = offset + frame
                    end
                end
                if skipped > 0 then tree:add(f_trailing_skip, tvb(0, 0), skipped) end
                return length
            end

            """)
    }

    private static func appendRegistration(_ format: FrameFormat, registration: Registration, to lua: inout Lines) {
        switch registration {
        case .port(let port):
            lua.add("DissectorTable.get(\"tcp.port\"):add(\(port), proto)")
        case .heuristic:
            let checkEnd = format.fields.indices.filter { format.fields[$0].expected != nil && format.fields[$0].role != .opaque }
                .map { format.offset(ofField: $0) + format.fields[$0].width }.max() ?? format.headerLength
            lua.add("""
                -- A TCP conversation whose payload starts with a valid header (or with its checked
                -- fields, the rest to come) is ours from then on.
                local CHECK_END = \(checkEnd)
                local function heuristic(tvb, pinfo, tree)
                    if tvb:len() < CHECK_END then return false end
                    local state = header_state(tvb, 0, tvb:len())
                    if state == "bad" or (state == "ok" and frame_length(tvb, 0) == nil) then return false end
                    pinfo.conversation = proto
                    proto.dissector(tvb, pinfo, tree)
                    return true
                end
                proto:register_heuristic("tcp", heuristic)
                """)
        }
    }

    /// A Lua string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Lua source being written, line by line.
    struct Lines {
        private(set) var text = ""
        mutating func add(_ line: String) {
            text += line
            if !line.hasSuffix("\n") { text += "\n" }
        }
    }
}


