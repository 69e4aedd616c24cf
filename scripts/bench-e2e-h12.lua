-- h12 dissector for tshark, the baseline scripts/bench-e2e measures framedump against.
--
-- h12 (FrameFormat.h12, docs/formats.md): magic:u16=0x55AA ver:u8 cmd:u8 len:u32be
-- crc:crc32be; 12 header bytes, `len` counts the body, the CRC covers the body.
-- Framing uses dissect_tcp_pdus (Wireshark's Lua face of tcp_dissect_pdus): a fixed
-- 12-byte minimum, a length callback, and TCP desegmentation for PDUs that span segments.
--
-- Environment:
--   H12_PORT       TCP port to register on (default 5512)
--   H12_CHECK_CRC  "1" to compute each body's CRC-32 in Lua and add h12.crc_ok
--   H12_TLS        "1" to register on tls.port instead: the decrypted application data of TLS
--                  on H12_PORT (with -o tls.keylog_file:FILE), as scripts/bench-e2e-tls runs it
--
--   tshark -X lua_script:bench-e2e-h12.lua -r capture.pcap -T fields -e h12.cmd -e h12.len

local h12 = Proto("h12", "h12 length-prefixed frames")
local f_magic = ProtoField.uint16("h12.magic", "Magic", base.HEX)
local f_ver = ProtoField.uint8("h12.ver", "Version")
local f_cmd = ProtoField.uint8("h12.cmd", "Command")
local f_len = ProtoField.uint32("h12.len", "Body length")
local f_crc = ProtoField.uint32("h12.crc", "CRC-32", base.HEX)
local f_crc_ok = ProtoField.bool("h12.crc_ok", "CRC-32 good")
h12.fields = { f_magic, f_ver, f_cmd, f_len, f_crc, f_crc_ok }

local HEADER = 12
local check_crc = os.getenv("H12_CHECK_CRC") == "1"
local port = tonumber(os.getenv("H12_PORT") or "5512")

-- CRC-32/ISO-HDLC (zlib's), table-driven, one byte at a time: what a Lua dissector can do.
local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if bit32.band(c, 1) == 1 then
            c = bit32.bxor(bit32.rshift(c, 1), 0xEDB88320)
        else
            c = bit32.rshift(c, 1)
        end
    end
    crc_table[i] = c
end

local function crc32(bytes)
    local c = 0xFFFFFFFF
    local band, bxor, rshift, byte = bit32.band, bit32.bxor, bit32.rshift, string.byte
    for i = 1, #bytes do
        c = bxor(crc_table[band(bxor(c, byte(bytes, i)), 0xFF)], rshift(c, 8))
    end
    return bxor(c, 0xFFFFFFFF)
end

local function pdu_length(tvb, pinfo, offset)
    return HEADER + tvb(offset + 4, 4):uint()
end

local function dissect_pdu(tvb, pinfo, tree)
    local item = tree:add(h12, tvb())
    item:add(f_magic, tvb(0, 2))
    item:add(f_ver, tvb(2, 1))
    item:add(f_cmd, tvb(3, 1))
    item:add(f_len, tvb(4, 4))
    item:add(f_crc, tvb(8, 4))
    if check_crc then
        local length = tvb:len() - HEADER
        local computed = length > 0 and crc32(tvb:raw(HEADER, length)) or 0
        item:add(f_crc_ok, computed == tvb(8, 4):uint())
    end
    pinfo.cols.protocol = "h12"
    return tvb:len()
end

function h12.dissector(tvb, pinfo, tree)
    dissect_tcp_pdus(tvb, tree, HEADER, pdu_length, dissect_pdu)
    return tvb:len()
end

DissectorTable.get(os.getenv("H12_TLS") == "1" and "tls.port" or "tcp.port"):add(port, h12)
