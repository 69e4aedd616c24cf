import PacketDecoding

/// Which connection and direction a stream is, for output: `conn`, `src` and `dst` in JSON Lines,
/// the `conn 3 c2s 127.0.0.1:51000 → 127.0.0.1:9000` prefix in text.
///
/// Captures and sockets label their streams; a hex dump's single stream has no label. The
/// endpoint texts are made once here, not per frame. A PKTAP capture's streams also name their
/// process (`proc` in JSON Lines, `(en0, proc Safari:412)` in text).
///
/// A class: every frame's line reads its label, and a label held inline (endpoints, texts, a
/// process: over 200 bytes) was copied by memmove, with four retains, for each frame.
final class StreamLabel: Sendable {
    /// The connection's number, from 1 in order of first appearance.
    let connection: Int
    /// The client's stream or the server's.
    let direction: StreamDirection
    /// The endpoint that sent the stream's bytes.
    let source: Endpoint
    /// The endpoint that received them.
    let destination: Endpoint
    /// `source` as `ip:port` (`[ip]:port` for IPv6).
    let sourceText: String
    /// `destination` as `ip:port` (`[ip]:port` for IPv6).
    let destinationText: String
    /// The process the connection's first packet named (PKTAP captures); `nil` otherwise.
    let process: PacketProcess?
    /// ` (en0, proc Safari:412)`, or empty: what text output adds after the endpoints.
    let processText: String
    /// `,"conn":1,"dir":"c2s","src":"…","dst":"…"` (and `,"proc":{…}`): the JSON Lines keys of the
    /// stream, made once (endpoint texts need no escaping: digits, hex, `.`, `:`, `[`, `]`).
    let jsonKeys: [UInt8]

    convenience init(connection: Int, direction: StreamDirection, source: Endpoint, destination: Endpoint, process: PacketProcess? = nil) {
        self.init(connection: connection, direction: direction, source: source, destination: destination,
                  sourceText: source.description, destinationText: destination.description, process: process)
    }

    private init(connection: Int, direction: StreamDirection, source: Endpoint, destination: Endpoint,
                 sourceText: String, destinationText: String, process: PacketProcess?) {
        self.connection = connection
        self.direction = direction
        self.source = source
        self.destination = destination
        self.sourceText = sourceText
        self.destinationText = destinationText
        self.process = process
        processText = process.map { " (\(Self.text($0)))" } ?? ""
        var keys = Array(",\"conn\":\(connection),\"dir\":\"\(direction)\",\"src\":\"\(sourceText)\",\"dst\":\"\(destinationText)\"".utf8)
        if let process { Self.appendJSON(process, to: &keys) }
        jsonKeys = keys
    }

    /// `conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000`: the stream, as messages name it.
    var name: String { "conn \(connection) \(direction) \(sourceText) → \(destinationText)" }

    /// The label of the same connection's other stream; it shares this one's endpoint texts
    /// (made once per connection, not once per direction).
    var reversed: StreamLabel {
        StreamLabel(connection: connection, direction: direction.reversed, source: destination, destination: source,
                    sourceText: destinationText, destinationText: sourceText, process: process)
    }

    /// `en0, proc nsurlsessiond:98, eproc MyApp:412` (tcpdump -k's words); parts the header left out are left out.
    private static func text(_ process: PacketProcess) -> String {
        func named(_ name: String?, _ pid: Int32?) -> String {
            (name ?? "?") + (pid.map { ":\($0)" } ?? "")
        }
        var parts: [String] = []
        if let interface = process.interface { parts.append(interface) }
        parts.append("proc " + named(process.name, process.pid))
        if process.isDelegated { parts.append("eproc " + named(process.effectiveName, process.effectivePID)) }
        return parts.joined(separator: ", ")
    }

    /// Appends `,"proc":{"pid":412,"name":"Safari","if":"en0"}`, with `epid` and `ename` for a
    /// delegated socket: the key frames carry and `streams --json` lists.
    static func appendJSON(_ process: PacketProcess, to buffer: inout [UInt8]) {
        var separator = "{"
        func key(_ name: String) {
            buffer.append(contentsOf: "\(separator)\"\(name)\":".utf8)
            separator = ","
        }
        buffer.append(contentsOf: ",\"proc\":".utf8)
        if let pid = process.pid { key("pid"); buffer.append(contentsOf: "\(pid)".utf8) }
        if let name = process.name { key("name"); JSONString.append(name, to: &buffer) }
        if process.isDelegated {
            if let pid = process.effectivePID { key("epid"); buffer.append(contentsOf: "\(pid)".utf8) }
            if let name = process.effectiveName { key("ename"); JSONString.append(name, to: &buffer) }
        }
        if let interface = process.interface { key("if"); JSONString.append(interface, to: &buffer) }
        if separator == "{" { buffer.append(UInt8(ascii: "{")) }
        buffer.append(UInt8(ascii: "}"))
    }
}
