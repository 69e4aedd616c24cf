import FrameCodec

/// The checksum verdict in Lua: CRC-32 or CRC-32C computed over the frame as the decoder does.
extension LuaDissector {
    /// `crc_of(tvb, header, crc_at)`: the checksum of a frame whose header is `header` bytes
    /// and whose checksum field is at `crc_at`, over the bytes ``ChecksumCoverage`` names.
    static func appendChecksum(_ format: FrameFormat, to lua: inout Lines) {
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
                if length <= 0 then return c end
                local bytes = tvb:raw(offset, length)
                for i = 1, length do
                    c = bxor(crc_table[band(bxor(c, bytes:byte(i)), 0xFF)], rshift(c, 8))
                end
                return c
            end
            local function crc_of(tvb, header, crc_at)
            """)
        if coverage == .body {
            lua.add("""
                    local c = crc_update(0xFFFFFFFF, tvb, header, tvb:len() - header)
                    return bit32.bxor(c, 0xFFFFFFFF)
                end

                """)
        } else {
            lua.add("""
                    -- The whole frame, the checksum field's own four bytes read as zero.
                    local c = crc_update(0xFFFFFFFF, tvb, 0, crc_at)
                    for _ = 1, 4 do c = bit32.bxor(crc_table[bit32.band(c, 0xFF)], bit32.rshift(c, 8)) end
                    c = crc_update(c, tvb, crc_at + 4, tvb:len() - crc_at - 4)
                    return bit32.bxor(c, 0xFFFFFFFF)
                end

                """)
        }
    }
}
