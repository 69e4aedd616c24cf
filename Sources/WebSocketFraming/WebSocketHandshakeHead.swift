/// One HTTP/1.1 message head of the Upgrade (RFC 6455 §4.1, §4.2.2; RFC 9112 §2): its start
/// line and header fields, read from the bytes up to the blank line.
struct WebSocketHandshakeHead {
    /// `GET /chat HTTP/1.1` or `HTTP/1.1 101 Switching Protocols`.
    var startLine: String
    /// Header fields in order, names lowercased, values trimmed.
    var fields: [(name: String, value: String)]

    /// Parses `head` (through `\r\n\r\n`); `nil` when it has no start line.
    init?(_ head: [UInt8]) {
        var lines: [String] = []
        var start = 0
        var index = 0
        while index + 1 < head.count {
            if head[index] == 0x0D, head[index + 1] == 0x0A {
                lines.append(String(decoding: head[start..<index], as: UTF8.self))
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        guard let first = lines.first, !first.isEmpty else { return nil }
        startLine = first
        fields = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((Self.lowercased(line[..<colon]), Self.trimmed(line[line.index(after: colon)...])))
        }
    }

    /// The first value of the field `name` (lowercase), or `nil` when it is absent.
    func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// A request's: whether the start line is `GET … HTTP/1.1` with `Upgrade: websocket`.
    var isWebSocketRequest: Bool {
        startLine.hasPrefix("GET ") && startLine.hasSuffix(" HTTP/1.1")
            && (value("upgrade").map { Self.lowercased($0[...]).contains("websocket") } ?? false)
    }

    /// A response's status code and reason phrase; `nil` when the start line is not `HTTP/1.x NNN`.
    var status: (code: Int, reason: String)? {
        let parts = startLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else { return nil }
        return (code, parts.count > 2 ? String(parts[2]) : "")
    }

    static func lowercased(_ text: Substring) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// What `Sec-WebSocket-Extensions` in a 101 response agreed for permessage-deflate (RFC 7692 §7.1).
struct DeflateAgreement: Equatable {
    /// `server_no_context_takeover`: the server resets its window per message (s2c).
    var serverNoContextTakeover = false
    /// `client_no_context_takeover`: the client resets its window per message (c2s).
    var clientNoContextTakeover = false

    /// The agreement in `header`, or `nil` when it does not name permessage-deflate.
    init?(header: String) {
        // The server accepts one offer (RFC 7692 §5); its parameters follow `;`.
        for offer in header.split(separator: ",") {
            let parameters = offer.split(separator: ";").map { WebSocketHandshakeHead.lowercased(Substring(WebSocketHandshakeHead.trimmed($0))) }
            guard parameters.first == "permessage-deflate" else { continue }
            for parameter in parameters.dropFirst() {
                if parameter.hasPrefix("server_no_context_takeover") { serverNoContextTakeover = true }
                if parameter.hasPrefix("client_no_context_takeover") { clientNoContextTakeover = true }
            }
            return
        }
        return nil
    }
}
