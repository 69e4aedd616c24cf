import FrameCodec

/// The header walk of a length-field format, in Lua: what ``FrameDecoder`` reads field by field.
extension LuaDissector {
    /// `read`, `varint` and `bits`: the three ways a header field holds an integer.
    static let integerReaders = """
        -- A fixed field of `width` bytes as a Lua number (exact up to 2^53; wider values only
        -- matter for lengths, which are then over any max frame length anyway).
        local function read(tvb, offset, width, little)
            local range = tvb(offset, width)
            if width <= 4 then
                return little and range:le_uint() or range:uint()
            end
            return (little and range:le_uint64() or range:uint64()):tonumber()
        end

        -- An unsigned LEB128 varint of at most `max_bytes` bytes (protobuf, MQTT 3.1.1 §2.2.3):
        -- its value (a UInt64 when `wide`) and byte count; nil while its end is not yet here;
        -- false when malformed (unfinished after `max_bytes`, or over 64 bits).
        local function varint(tvb, offset, available, max_bytes, wide)
            local value = wide and UInt64.new(0) or 0
            for i = 0, max_bytes - 1 do
                if i >= available then return nil end
                local byte = tvb(offset + i, 1):uint()
                if i == 9 and byte > 1 then return false end
                local group = bit32.band(byte, 0x7F)
                if wide then value = value:bor(UInt64.new(group):lshift(7 * i)) else value = value + group * 2 ^ (7 * i) end
                if byte < 0x80 then return value, i + 1 end
            end
            return false
        end

        -- `count` bits from bit `from` of the bytes at `offset`, most significant bit first (a
        -- UInt64 when `wide`).
        local function bits(tvb, offset, from, count, wide)
            local value = wide and UInt64.new(0) or 0
            for b = from, from + count - 1 do
                local byte = tvb(offset + math.floor(b / 8), 1):uint()
                local bit = bit32.band(bit32.rshift(byte, 7 - b % 8), 1)
                if wide then value = value:lshift(1):bor(bit) else value = value * 2 + bit end
            end
            return value
        end

        """

    /// `walk(tvb, offset, available, rec)`: the decoder's header walk (``FrameLayout``'s steps),
    /// field by field in wire order, each field's check as soon as its bytes are readable.
    /// Returns "more" (a field not yet readable), "bad" (a check failed), "malformed" (a
    /// varint past its width: the decoder's oversize), or "ok" with the header's own length,
    /// the declared length (the length fields' values times their multipliers, summed) and
    /// the checksum's offset. `rec`, when given, receives each field's offset, width and value.
    static func appendWalk(_ format: FrameFormat, to lua: inout Lines) {
        lua.add("local function walk(tvb, offset, available, rec)")
        lua.add("    local pos, declared, crc_at = 0, 0, -1")
        lua.add("    local v, n, num")
        var bitOffset = 0
        for (index, field) in format.fields.enumerated() {
            let wide = integerType(field) == "uint64" && field.encoding != .fixed
            lua.add("    -- \(field.name)")
            var width = "\(field.width)"
            var start = "pos"
            switch (field.role, field.encoding) {
            case (.opaque, _):
                lua.add("    if pos + \(field.width) > available then return \"more\" end")
                lua.add("    v = 0")
            case (_, .fixed):
                lua.add("    if pos + \(field.width) > available then return \"more\" end")
                lua.add("    v = read(tvb, offset + pos, \(field.width), \(field.byteOrder == .littleEndian && field.width > 1))")
            case (_, .varint):
                lua.add("    v, n = varint(tvb, offset + pos, available - pos, \(field.width), \(wide))")
                lua.add("    if v == nil then return \"more\" elseif v == false then return \"malformed\" end")
                width = "n"
            case (_, .bits(let count)):
                let needed = (bitOffset + count + 7) / 8
                lua.add("    if pos + \(needed) > available then return \"more\" end")
                lua.add("    v = bits(tvb, offset + pos, \(bitOffset), \(count), \(wide))")
                start = "pos + \(bitOffset / 8)"
                width = "\(needed - bitOffset / 8)"
            }
            lua.add("    num = \(wide ? "v:tonumber()" : "v")")
            if field.role != .opaque, let expected = field.expected {
                lua.add("    if num < \(expected.lowerBound) or num > \(expected.upperBound) then return \"bad\" end")
            }
            switch field.role {
            case .length: lua.add("    declared = declared + num * \(field.lengthMultiplier)")
            case .checksum: lua.add("    crc_at = pos")
            case .value, .opaque: break
            }
            lua.add("    if rec then rec[\(index + 1)] = { \(start), \(width), v } end")
            if let count = field.bitCount {
                bitOffset += count
                if bitOffset % 8 == 0 {
                    lua.add("    pos = pos + \(bitOffset / 8)")
                    bitOffset = 0
                }
            } else {
                lua.add("    pos = pos + \(width)")
            }
        }
        lua.add("    return \"ok\", pos, declared, crc_at")
        lua.add("end")
        lua.add("")
    }

    /// `frame_length(header, declared)` and `pdu_len(tvb, pinfo, offset)`, the `get_len` of
    /// `dissect_tcp_pdus`.
    static func appendLengthFunction(_ format: FrameFormat, to lua: inout Lines) {
        lua.add("""
            -- The frame length a header of `header` bytes declares, or nil when it is below the
            -- header or over the max (the decoder's oversize).
            local function frame_length(header, declared)
                local length = \(format.lengthCounts == .body ? "header + " : "")declared + (\(format.lengthAdjustment))
                if length < header or length > MAX_FRAME then return nil end
                return length
            end

            """)
        // The decoder scans for the magic only where its offset is the same in every header.
        let scanned = format.magicFieldIndex.flatMap { index in
            format.fields[...index].allSatisfy { $0.encoding == .fixed } ? index : nil
        }
        if let magic = scanned {
            let field = format.fields[magic]
            let value = field.expected!.lowerBound
            let wire = (0..<field.width).map { byte in
                let shift = 8 * (field.byteOrder == .bigEndian ? field.width - 1 - byte : byte)
                return UInt8(truncatingIfNeeded: value >> UInt64(shift))
            }
            lua.add("""
                local MAGIC_OFFSET, MAGIC = \(format.offset(ofField: magic)), \(quoted(bytes: wire))
                -- Resync: the next offset after `offset` where the magic's bytes are, or from where
                -- they could still begin in bytes to come.
                local function resync(tvb, offset)
                    local first = offset + 1 + MAGIC_OFFSET
                    if first < tvb:len() then
                        local found = tvb:raw(first, tvb:len() - first):find(MAGIC, 1, true)
                        if found then return offset + found end
                    end
                    return math.max(offset + 1, tvb:len() - MAGIC_OFFSET - #MAGIC + 1)
                end

                """)
        }
        lua.add("""
            -- What starts at `offset`: "frame" and its length (maybe more than there is), "skip"
            -- and the bytes the decoder passes over to resync, or "more" while the header is not
            -- all here.
            local function next_item(tvb, offset)
                local available = tvb:len() - offset
            """)
        if scanned != nil {
            lua.add("""
                    if available < MAGIC_OFFSET + #MAGIC then return "more" end
                    if tvb:raw(offset + MAGIC_OFFSET, #MAGIC) ~= MAGIC then return "skip", resync(tvb, offset) - offset end
                """)
        }
        lua.add("""
                local state, header, declared = walk(tvb, offset, available)
                if state == "more" then return "more" end
                -- A failed check, a malformed varint or a bad length: one byte, as the decoder.
                local length = state == "ok" and frame_length(header, declared)
                if not length then return "skip", 1 end
                return "frame", length
            end

            -- dissect_tcp_pdus' get_len: the frame's length (more than there is: Wireshark
            -- reassembles the rest), 0 while its header is not all here (one more segment), or the
            -- bytes to pass over, which dissect_pdu shows as skipped. At a buffer's start the bytes
            -- passed over are one PDU with the frame after them (`joined_skip` tells dissect_pdu
            -- where it starts): asked for more at or before the end of the bytes it held,
            -- Wireshark (4.0) extends its reassembly and later dissects it again from the start,
            -- which would show skipped bytes twice.
            local joined_skip = 0
            local function pdu_len(tvb, pinfo, offset)
                joined_skip = 0
                local kind, length = next_item(tvb, offset)
                if kind == "more" then return 0 end
                if kind == "frame" or offset > 0 then return length end
                local at = offset + length
                while true do
                    kind, length = next_item(tvb, at)
                    if kind == "more" then return 0 end
                    if kind == "frame" then
                        joined_skip = at - offset
                        return at - offset + length
                    end
                    at = at + length
                end
            end

            """)
    }

    /// `dissect_pdu(tvb, pinfo, tree)` for a length-field format: one frame (or a run of
    /// skipped bytes: a PDU whose own bytes do not walk to a header of exactly its length),
    /// after the skipped bytes `pdu_len` joined to it.
    static func appendPDU(_ format: FrameFormat, name: String, to lua: inout Lines) {
        lua.add("""
            local function dissect_frame(tvb, pinfo, tree)
                local rec = {}
                local state, header, declared, crc_at = walk(tvb, 0, tvb:len(), rec)
                if state ~= "ok" or frame_length(header, declared) ~= tvb:len() then return skip_item(tvb(), tree) end
                local item = tree:add(proto, tvb())
                item:add(pdu_length, tvb(), tvb:len())
                item:add(pdu_skipped, tvb(0, 0), false)
            """)
        for (index, field) in format.fields.enumerated() {
            let range = "tvb(rec[\(index + 1)][1], rec[\(index + 1)][2])"
            let added = hasTextNames(field) ? "local t_\(index) = " : ""
            if field.role == .opaque || field.encoding == .fixed {
                let method = field.byteOrder == .littleEndian && field.width > 1 && field.role != .opaque ? "add_le" : "add"
                lua.add("    \(added)item:\(method)(f_\(index), \(range))")
            } else {
                lua.add("    \(added)item:add(f_\(index), \(range), rec[\(index + 1)][3])")
            }
            if hasTextNames(field) {
                let value = field.encoding == .fixed ? "rec[\(index + 1)][3]" : "rec[\(index + 1)][3]:tonumber()"
                lua.add("    if names_\(index)[\(value)] then t_\(index):append_text(\" (\" .. names_\(index)[\(value)] .. \")\") end")
            }
        }
        let payloadStart = format.payloadOffset.map(String.init) ?? "header"
        lua.add("    if tvb:len() > \(payloadStart) then item:add(pdu_payload, tvb(\(payloadStart))) end")
        if let index = format.checksumFieldIndex {
            let field = format.fields[index]
            lua.add("    local stored = read(tvb, crc_at, 4, \(field.byteOrder == .littleEndian))")
            lua.add("    item:add(pdu_crc_ok, tvb(crc_at, 4), crc_of(tvb, header, crc_at) == stored)")
        }
        lua.add("""
                pinfo.cols.protocol = \(quoted(name))
                return tvb:len()
            end

            local function dissect_pdu(tvb, pinfo, tree)
                local skip = joined_skip
                joined_skip = 0
                if skip > 0 and skip < tvb:len() then
                    skip_item(tvb(0, skip), tree)
                    return skip + dissect_frame(tvb(skip):tvb(), pinfo, tree)
                end
                return dissect_frame(tvb, pinfo, tree)
            end

            """)
    }
}
