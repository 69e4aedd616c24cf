import FrameCodec

/// Delimiter formats in Lua: the frame ends at the earliest delimiter, as Netty's
/// `DelimiterBasedFrameDecoder` and ``FrameDecoder`` cut it.
///
/// `dissect_tcp_pdus` cannot cut these as the decoder does: its `get_len` sees only the bytes
/// from a PDU's start, so a frame that must wait for the next bytes (a tie between delimiters
/// of which one begins another) or a run with no delimiter is searched again from its start in
/// every segment, and Wireshark 4.0, asked for more bytes inside the part of a reassembly it
/// already held, extends the reassembly and dissects it again from its start later. So the Lua
/// keeps the decoder's state per TCP conversation and direction (a mirror of
/// `FrameDecoder.decodeDelimitedFrames`: open frame start, scanned-up-to offset with the few
/// bytes that may start a delimiter, skip mode) and the cut points it found, fed each byte once
/// in the first pass; every call, in the first pass or a later one, shows the cuts that lie in
/// its bytes and sets `pinfo.desegment_offset`/`desegment_len` itself. Per packet it records
/// which bytes it showed, so a later pass shows the same.
extension LuaDissector {
    /// The decoder mirror: `advance(state, tvb, first, last)` feeds the stream bytes `first..<last`
    /// (tvb holds them from `first`) to a direction's state, appending the frames and skipped runs
    /// it completes to `state.starts`/`ends`/`trailers` (trailer -1 for a skipped run).
    static func appendDelimiterSearch(_ format: FrameFormat, to lua: inout Lines) {
        let longest = format.delimiters.map(\.count).max() ?? 1
        lua.add("""
            local DELIMITERS = { \(format.delimiters.map { quoted(bytes: $0) }.joined(separator: ", ")) }
            local LONGEST = \(longest)
            local KEEPS_DELIMITER = \(format.keepsDelimiter)
            local PAYLOAD_START = \(format.payloadOffset ?? 0)

            -- The decoder's state per TCP conversation and direction, from one file's first pass.
            -- (No field extractors such as Field.new("tcp.stream"): with one, tshark 4.0 -2 does not
            -- call the dissector in its first pass.)
            local directions = {}
            function proto.init() directions = {} end
            local function direction(pinfo)
                local key = tostring(pinfo.src) .. " " .. tostring(pinfo.src_port) .. " " .. tostring(pinfo.dst) .. " " .. tostring(pinfo.dst_port)
                local state = directions[key]
                if state == nil then
                    state = { starts = {}, ends = {}, trailers = {}, found_by = {}, calls = {} }
                    directions[key] = state
                end
                return state
            end

            -- A frame (trailer: the delimiter bytes the payload leaves out) or a skipped run (trailer
            -- -1), found by the call whose bytes start at `call`.
            local function cut(state, start, stop, trailer, call)
                local n = #state.starts + 1
                state.starts[n], state.ends[n], state.trailers[n], state.found_by[n] = start, stop, trailer, call
            end

            -- Every byte the search reads passes here (DissectorConformanceTests counts them).
            local function read(tvb, offset, length)
                return tvb:raw(offset, length)
            end

            -- FrameDecoder.decodeDelimitedFrames over the new bytes, and the few kept from the last
            -- call that may start a delimiter (DelimiterSet.scan's resume point): the earliest
            -- delimiter, the one listed first on a tie, unless a delimiter at or before it (listed
            -- earlier, at the same place) may still complete past the end. A frame longer than the
            -- max without a delimiter starts a skipped run, through the next delimiter.
            local function advance(state, tvb, first, last)
                if state.done == nil then
                    state.done, state.frame, state.scan, state.carry, state.resync = first, first, first, "", false
                end
                if last <= state.done then return end
                local s = state.carry .. read(tvb, state.done - first, last - state.done)
                local base, n, i = state.scan, #s, 1
                -- Each delimiter's next match at or after i (false: none), so every byte is searched once.
                local next_at = {}
                while true do
                    local best, chosen
                    for k, d in ipairs(DELIMITERS) do
                        local at = next_at[k]
                        if at ~= false and (at == nil or at < i) then
                            at = s:find(d, i, true) or false
                            next_at[k] = at
                        end
                        if at and (best == nil or at < best) then best, chosen = at, k end
                    end
                    local resume
                    for p = math.max(i, n - LONGEST + 2), math.min(n, best or n) do
                        for k, d in ipairs(DELIMITERS) do
                            if #d > n - p + 1 and (best == nil or p < best or k < chosen) and d:sub(1, n - p + 1) == s:sub(p) then
                                resume = p
                                break
                            end
                        end
                        if resume then break end
                    end
                    if resume == nil and best == nil then resume = n + 1 end
                    if resume then
                        local at = base + resume - 1
                        if not state.resync and at - state.frame > MAX_FRAME then state.resync = true end
                        state.scan, state.carry = at, s:sub(resume)
                        break
                    end
                    local match = base + best - 1
                    local stop = match + #DELIMITERS[chosen]
                    if state.resync or match - state.frame > MAX_FRAME then
                        cut(state, state.frame, stop, -1, first)
                        state.resync = false
                    else
                        cut(state, state.frame, stop, KEEPS_DELIMITER and 0 or #DELIMITERS[chosen], first)
                    end
                    state.frame = stop
                    i = best + #DELIMITERS[chosen]
                end
                state.done = last
            end

            """)
    }

    /// `show` and `proto.dissector` for a delimiter format: each call shows the cuts in its bytes
    /// up to where it stops, a frame with its payload (without the delimiter unless
    /// `keepdelim=yes`), a skipped run as one item per call with the run's length on the last.
    static func appendDelimitedDissector(_ format: FrameFormat, name: String, to lua: inout Lines) {
        lua.add("""
            local function frame_item(tvb, pinfo, tree, trailer)
                local item = tree:add(proto, tvb())
                item:add(pdu_length, tvb(), tvb:len())
                item:add(pdu_skipped, tvb(0, 0), false)
                local payload_end = tvb:len() - trailer
                if payload_end > PAYLOAD_START then item:add(pdu_payload, tvb(PAYLOAD_START, payload_end - PAYLOAD_START)) end
                pinfo.cols.protocol = \(quoted(name))
            end

            -- The first cut that ends after `offset` (binary search: cuts are in stream order).
            local function first_cut(state, offset)
                local low, high = 1, #state.starts + 1
                while low < high do
                    local mid = math.floor((low + high) / 2)
                    if state.ends[mid] > offset then high = mid else low = mid + 1 end
                end
                return low
            end

            -- The items for the stream bytes first..<stop, which tvb holds from `first`. A skipped
            -- run's length goes on its item in the call that found its end: the run's last bytes,
            -- or an empty item when an earlier call showed them (their delimiter's end was
            -- uncertain until the next bytes).
            local function show(state, tvb, pinfo, tree, first, stop)
                if stop == first then return end
                local index = first_cut(state, first)
                if index > 1 and state.found_by[index - 1] == first and state.ends[index - 1] == first then index = index - 1 end
                while index <= #state.starts and state.starts[index] < stop do
                    local start, finish = state.starts[index], state.ends[index]
                    if state.trailers[index] >= 0 then
                        if start >= first and finish <= stop then
                            frame_item(tvb(start - first, finish - start):tvb(), pinfo, tree, state.trailers[index])
                        end
                    else
                        local from, to = math.max(start, first), math.min(finish, stop)
                        skip_item(tvb(from - first, to - from), tree, state.found_by[index] == first and finish - start or nil)
                    end
                    index = index + 1
                end
                if state.resync and state.frame < stop then
                    local from = math.max(state.frame, first)
                    skip_item(tvb(from - first, stop - from), tree, nil)
                end
            end

            -- The bytes a later pass's call shows: what the first pass decided for that packet.
            -- (Its tvb may be shorter: Wireshark then hands a reassembly only up to where it stopped.)
            local function decided(state, pinfo, tvb)
                for _, call in ipairs(state.calls[pinfo.number] or {}) do
                    if tvb:len() >= call[2] - call[1] then return call[1], call[2] end
                end
            end

            -- In the first pass, calls come in stream order per direction: a call's bytes follow the
            -- last call's, or, after it asked for one more segment, are the reassembly from where it
            -- stopped through the next segment. A call stops at an open frame's start and asks for
            -- one more segment; when that start lies in bytes of an earlier segment of the
            -- reassembly, Wireshark would extend the reassembly and dissect it again from its start
            -- (packet-tcp.c: desegment_offset <= old_len), so the call shows nothing and asks for
            -- more at its start: the frames show once, where the reassembly ends. A skipped run is
            -- never reassembled: its bytes are shown as they come.
            function proto.dissector(tvb, pinfo, tree)
                local state = direction(pinfo)
                local first, stop
                if pinfo.visited then
                    first, stop = decided(state, pinfo, tvb)
                    if first == nil then return tvb:len() end
                else
                    first = state.pending or state.done or 0
                    local last = first + tvb:len()
                    local held = state.done or first
                    advance(state, tvb, first, last)
                    stop = last
                    if not state.resync and state.frame < last and state.frame >= first then
                        stop = (first < held and state.frame <= held) and first or state.frame
                    end
                    state.pending = stop < last and stop or nil
                    if stop > first then
                        local calls = state.calls[pinfo.number] or {}
                        calls[#calls + 1] = { first, stop }
                        state.calls[pinfo.number] = calls
                    end
                    if stop < last then
                        pinfo.desegment_offset = stop - first
                        pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
                    end
                end
                show(state, tvb, pinfo, tree, first, stop)
                return tvb:len()
            end

            """)
    }
}
