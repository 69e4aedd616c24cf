import FrameCodec

/// Delimiter formats in Lua: the frame ends at the earliest delimiter, as Netty's
/// `DelimiterBasedFrameDecoder` and ``FrameDecoder`` cut it.
extension LuaDissector {
    /// `delimited_end(tvb, offset)`: the length of the frame from `offset` through its
    /// delimiter, and the delimiter's length; nil while no delimiter is certain (none yet, or a
    /// delimiter listed earlier may still complete at or before the one found: the decoder
    /// waits for it, so the cut does not depend on where a segment ends). The search reads a
    /// window that grows fourfold, so a short frame at the head of a long reassembled buffer
    /// costs only its own bytes.
    static func appendDelimiterSearch(_ format: FrameFormat, to lua: inout Lines) {
        let longest = format.delimiters.map(\.count).max() ?? 1
        lua.add("""
            local DELIMITERS = { \(format.delimiters.map { quoted(bytes: $0) }.joined(separator: ", ")) }
            local LONGEST = \(longest)
            local KEEPS_DELIMITER = \(format.keepsDelimiter)
            local function delimited_end(tvb, offset)
                local rest = tvb:len() - offset
                local window = math.min(rest, 512)
                while true do
                    local s = tvb:raw(offset, window)
                    local best, chosen
                    for i, d in ipairs(DELIMITERS) do
                        local at = s:find(d, 1, true)
                        if at and (best == nil or at < best) then best, chosen = at, i end
                    end
                    -- Every delimiter that could start at or before `best` is wholly in the window.
                    if best and best + LONGEST - 1 <= window then return best - 1 + #DELIMITERS[chosen], #DELIMITERS[chosen] end
                    if window == rest then
                        if best == nil then return nil end
                        for i, d in ipairs(DELIMITERS) do
                            for at = math.max(1, window - #d + 2), math.min(window, best) do
                                if (at < best or i < chosen) and d:sub(1, window - at + 1) == s:sub(at) then return nil end
                            end
                        end
                        return best - 1 + #DELIMITERS[chosen], #DELIMITERS[chosen]
                    end
                    window = math.min(rest, window * 4)
                end
            end

            -- dissect_tcp_pdus' get_len: through the delimiter, or 0 (one more segment) while its
            -- end is not seen. A frame over the max is held until its delimiter arrives, then
            -- shown as skipped, as the decoder skips it through that delimiter.
            local function pdu_len(tvb, pinfo, offset)
                return delimited_end(tvb, offset) or 0
            end

            """)
    }

    /// `dissect_pdu` for a delimiter format: the frame, its payload without the delimiter
    /// (unless `keepdelim=yes`), or a skipped run when the frame is over the max.
    static func appendDelimitedPDU(_ format: FrameFormat, name: String, to lua: inout Lines) {
        lua.add("""
            local function dissect_pdu(tvb, pinfo, tree)
                -- The delimiter that ended this frame is the longest one it ends with: of those,
                -- the earliest match, which is the one the search took.
                local trailer = 0
                local s = tvb:raw(0, tvb:len())
                for _, d in ipairs(DELIMITERS) do
                    if #d > trailer and #d <= #s and s:sub(#s - #d + 1) == d then trailer = #d end
                end
                if tvb:len() - trailer > MAX_FRAME then return skip_item(tvb, tree) end
                local item = tree:add(proto, tvb())
                item:add(pdu_length, tvb(), tvb:len())
                item:add(pdu_skipped, tvb(0, 0), false)
                local payload_end = KEEPS_DELIMITER and tvb:len() or tvb:len() - trailer
                local payload_start = \(format.payloadOffset ?? 0)
                if payload_end > payload_start then item:add(pdu_payload, tvb(payload_start, payload_end - payload_start)) end
                pinfo.cols.protocol = \(quoted(name))
                return tvb:len()
            end

            """)
    }
}
