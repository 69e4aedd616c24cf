import FrameCodec

/// A Wireshark Lua dissector for a ``FrameFormat``: `framedump dissector` writes it
/// (docs/cli.md, "framedump dissector").
///
/// The Lua does what ``FrameDecoder`` does, so tshark and `framedump decode` cut a stream into
/// the same PDUs:
///
/// - For a length-field format, `dissect_tcp_pdus` (Wireshark's `tcp_dissect_pdus`) with a
///   minimum of one byte and a `get_len` function that walks the header as the decoder does —
///   fixed fields, varints, bit fields, the sum of the length fields times their multipliers
///   (``LuaDissector/walk``). It returns the frame length when the header is whole (Wireshark
///   then reassembles exactly the missing bytes), 0 while the header is not yet all there (a
///   varint split across segments: `DESEGMENT_ONE_MORE_SEGMENT`), and, where the decoder
///   resyncs, the length of the bytes it passes over.
/// - For a delimiter format, a mirror of the decoder's state per TCP conversation and
///   direction, fed once in the first pass, and calls that show its cut points and ask for
///   reassembly themselves (LuaDissector-delimiters.swift).
/// - Those passed-over bytes become PDUs of their own, shown as `NAME.pdu.skipped` items: this
///   is how `dissect_tcp_pdus` can resync at all (on bytes that are not a header — a capture
///   starting mid-stream, a damaged stream — a plain length function takes garbage for a
///   length and loses the rest of the stream). The skip policy is the decoder's: to the next
///   magic when the format has one at a fixed offset, else one byte; a bad length skips one
///   byte; a delimited frame over the max is skipped through its delimiter.
/// - Every header field with its name and value names (`{1=ping}` as a value string), opaque
///   fields as bytes, the payload from `strip=`, and for crc32/crc32c the checksum verdict
///   computed in Lua.
/// - Two namespaces: the spec's fields are `NAME.FIELD`; the dissector's own are
///   `NAME.pdu.length`, `NAME.pdu.skipped`, `NAME.pdu.payload` and `NAME.pdu.crc_ok`. A spec
///   field name has no `.`, so a field called `crc_ok` or `payload` cannot collide with them.
/// - Registration on `--port N`, or as a heuristic dissector for TCP that claims a
///   conversation whose first payload starts with a valid header.
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
    ///   - name: the protocol name (``DissectorName``): the field prefix (`fd_h12.cmd`) and the
    ///     display filter word.
    ///   - registration: the port, or the heuristic.
    /// - Returns: a Lua 5.1/5.2 script for Wireshark's Lua API (`Proto`, `ProtoField`,
    ///   `dissect_tcp_pdus` or `pinfo.desegment_offset`).
    static func source(for format: FrameFormat, name: String, registration: Registration) -> String {
        var lua = Lines()
        lua.add("-- Wireshark dissector for \(name), written by `framedump dissector` from the frame format:")
        lua.add("--   \(FormatDescription.spec(format))")
        lua.add("-- Load with: tshark -X lua_script:THIS_FILE -o tcp.reassemble_out_of_order:TRUE ...")
        lua.add("-- or copy into Wireshark's personal Lua plugins folder (Help > About > Folders).")
        lua.add("")
        lua.add("local proto = Proto(\(quoted(name)), \(quoted("\(name): \(format.isDelimited ? "delimited" : "length-prefixed") frames (framedump format)")))")
        lua.add("local MAX_FRAME = \(format.maxFrameLength)")
        lua.add("")
        var declared: [String] = []
        for (index, field) in format.fields.enumerated() {
            lua.add("local f_\(index) = \(protoField(field, index: index, format: format, name: name))")
            declared.append("f_\(index)")
            if hasTextNames(field) {
                lua.add("local names_\(index) = { \(valueNames(field)) }")
            }
        }
        lua.add("-- The dissector's own fields: `\(name).pdu.*`, apart from the spec's `\(name).FIELD`.")
        lua.add("local pdu_length = ProtoField.uint32(\(quoted("\(name).pdu.length")), \"PDU length\", base.DEC)")
        lua.add("local pdu_skipped = ProtoField.bool(\(quoted("\(name).pdu.skipped")), \"Skipped (bytes that are no frame)\")")
        lua.add("local pdu_payload = ProtoField.bytes(\(quoted("\(name).pdu.payload")), \"Payload\")")
        declared += ["pdu_length", "pdu_skipped", "pdu_payload"]
        if format.checksumFieldIndex != nil {
            lua.add("local pdu_crc_ok = ProtoField.bool(\(quoted("\(name).pdu.crc_ok")), \"Checksum good\")")
            declared.append("pdu_crc_ok")
        }
        if format.isDelimited {
            lua.add("local pdu_run_length = ProtoField.uint64(\(quoted("\(name).pdu.run_length")), \"Skipped run length (the whole run, on the item that ends it)\", base.DEC)")
            declared.append("pdu_run_length")
        }
        lua.add("proto.fields = { \(declared.joined(separator: ", ")) }")
        lua.add("")
        if format.isDelimited {
            appendDelimiterSearch(format, to: &lua)
        } else {
            lua.add(integerReaders)
            appendChecksum(format, to: &lua)
            appendWalk(format, to: &lua)
            appendLengthFunction(format, to: &lua)
        }
        appendSkipItem(name: name, runLength: format.isDelimited, to: &lua)
        if format.isDelimited {
            appendDelimitedDissector(format, name: name, to: &lua)
        } else {
            appendPDU(format, name: name, to: &lua)
            lua.add("""
                function proto.dissector(tvb, pinfo, tree)
                    dissect_tcp_pdus(tvb, tree, 1, pdu_len, dissect_pdu)
                    return tvb:len()
                end

                """)
        }
        appendRegistration(format, registration: registration, to: &lua)
        return lua.text
    }

    /// The Wireshark field type of an integer field: the narrowest that holds its values.
    static func integerType(_ field: HeaderField) -> String {
        let bits = field.bitCount ?? (field.isVarint ? min(64, 7 * field.width) : 8 * field.width)
        return switch bits {
        case ...8: "uint8"
        case ...16: "uint16"
        case ...24: "uint24"
        case ...32: "uint32"
        default: "uint64"
        }
    }

    /// `ProtoField.uint16("fd_h12.cmd", "cmd", base.DEC, {[1] = "ping"})`.
    private static func protoField(_ field: HeaderField, index: Int, format: FrameFormat, name: String) -> String {
        let abbreviation = quoted("\(name).\(field.name)")
        guard field.role != .opaque else { return "ProtoField.bytes(\(abbreviation), \(quoted(field.name)))" }
        let type = integerType(field)
        let isHex = index == format.magicFieldIndex || index == format.checksumFieldIndex
        var text = "ProtoField.\(type)(\(abbreviation), \(quoted(field.name)), \(isHex ? "base.HEX" : "base.DEC")"
        if !field.valueNames.isEmpty, !hasTextNames(field) {
            text += ", { \(valueNames(field)) }"
        }
        return text + ")"
    }

    /// Whether a field's value names go into its item's text rather than a value string:
    /// Wireshark 4.0's Lua takes value strings only up to 32 bits.
    static func hasTextNames(_ field: HeaderField) -> Bool {
        !field.valueNames.isEmpty && integerType(field) == "uint64"
    }

    /// `[1] = "ping", [2] = "pong"`.
    private static func valueNames(_ field: HeaderField) -> String {
        field.valueNames.map { "[\($0.value)] = \(quoted($0.name))" }.joined(separator: ", ")
    }

    /// `skip_item(range, tree)`: a run of bytes that is no frame (a TvbRange), as one item;
    /// with `runLength` (delimiter formats, whose runs are shown as they come, one item per
    /// call), `skip_item(range, tree, run_length)` adds the whole run's length to the item that
    /// ends it, which is empty when the run's end was known only after its last byte was shown.
    private static func appendSkipItem(name: String, runLength: Bool, to lua: inout Lines) {
        lua.add("""
            local function skip_item(range, tree\(runLength ? ", run_length" : ""))
                local item = tree:add(proto, range, \(quoted("\(name): bytes that are no frame")))
                item:add(pdu_length, range, range:len())
                item:add(pdu_skipped, range, true)
            """)
        if runLength {
            lua.add("    if run_length then item:add(pdu_run_length, range, UInt64.new(run_length)) end")
        }
        lua.add("""
                return range:len()
            end

            """)
    }

    private static func appendRegistration(_ format: FrameFormat, registration: Registration, to lua: inout Lines) {
        switch registration {
        case .port(let port):
            lua.add("DissectorTable.get(\"tcp.port\"):add(\(port), proto)")
        case .heuristic:
            lua.add("""
                -- A TCP conversation whose payload starts with a valid header (or with its checked
                -- fields, the rest to come) is ours from then on.
                local CHECK_END = \(checkedPrefixLength(format))
                -- The loop dissect_tcp_pdus runs, for the segment the heuristic claims: called from a
                -- heuristic, dissect_tcp_pdus gets no reassembly in Wireshark 4.0 (a PDU longer than
                -- the segment is cut short), while desegment_offset and desegment_len set here work.
                local function dissect_claimed(tvb, pinfo, tree)
                    local offset = 0
                    while offset < tvb:len() do
                        local length = pdu_len(tvb, pinfo, offset)
                        if length == 0 or offset + length > tvb:len() then
                            pinfo.desegment_offset = offset
                            pinfo.desegment_len = length == 0 and DESEGMENT_ONE_MORE_SEGMENT or offset + length - tvb:len()
                            return
                        end
                        dissect_pdu(tvb(offset, length):tvb(), pinfo, tree)
                        offset = offset + length
                    end
                end
                local function heuristic(tvb, pinfo, tree)
                    if tvb:len() < CHECK_END then return false end
                    local state, header, declared = walk(tvb, 0, tvb:len())
                    if state == "bad" or state == "malformed" or (state == "ok" and frame_length(header, declared) == nil) then
                        return false
                    end
                    pinfo.conversation = proto
                    dissect_claimed(tvb, pinfo, tree)
                    return true
                end
                proto:register_heuristic("tcp", heuristic)
                """)
        }
    }

    /// The bytes from a header's start to the end of its last checked field, with each varint
    /// before it at one byte: what a heuristic needs to see before it claims a conversation.
    static func checkedPrefixLength(_ format: FrameFormat) -> Int {
        var end = format.minimumHeaderLength
        var bits = 0
        var bytes = 0
        for field in format.fields {
            if let count = field.bitCount { bits += count } else { bytes += field.isVarint ? 1 : field.width }
            if field.expected != nil, field.role != .opaque { end = bytes + (bits + 7) / 8 }
        }
        return end
    }

    /// A Lua string literal; bytes outside printable ASCII as decimal escapes (`"\013\010"`),
    /// which Lua 5.1 and 5.2 both read.
    static func quoted(_ text: String) -> String {
        quoted(bytes: Array(text.utf8))
    }

    /// A Lua string literal holding exactly `bytes`.
    static func quoted(bytes: [UInt8]) -> String {
        var out = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            // Three digits always: Lua reads up to three, so `\131` would be read for "\r1".
            default: out += "\\" + String(repeating: "0", count: byte < 10 ? 2 : byte < 100 ? 1 : 0) + "\(byte)"
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
