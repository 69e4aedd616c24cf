import PacketDecoding

/// Which connection and direction a stream is, for output: `conn`, `src` and `dst` in JSON Lines,
/// the `conn 3 c2s 127.0.0.1:51000 → 127.0.0.1:9000` prefix in text.
///
/// Captures and sockets label their streams; a hex dump's single stream has no label. The
/// endpoint texts are made once here, not per frame.
struct StreamLabel: Sendable, Equatable {
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
    /// `,"conn":1,"dir":"c2s","src":"…","dst":"…"`: the JSON Lines keys of the stream, made once
    /// (endpoint texts need no escaping: digits, hex, `.`, `:`, `[`, `]`).
    let jsonKeys: [UInt8]

    init(connection: Int, direction: StreamDirection, source: Endpoint, destination: Endpoint) {
        self.init(connection: connection, direction: direction, source: source, destination: destination,
                  sourceText: source.description, destinationText: destination.description)
    }

    private init(connection: Int, direction: StreamDirection, source: Endpoint, destination: Endpoint,
                 sourceText: String, destinationText: String) {
        self.connection = connection
        self.direction = direction
        self.source = source
        self.destination = destination
        self.sourceText = sourceText
        self.destinationText = destinationText
        jsonKeys = Array(",\"conn\":\(connection),\"dir\":\"\(direction)\",\"src\":\"\(sourceText)\",\"dst\":\"\(destinationText)\"".utf8)
    }

    /// `conn 1 c2s 10.0.0.1:40000 → 10.0.0.2:7000`: the stream, as messages name it.
    var name: String { "conn \(connection) \(direction) \(sourceText) → \(destinationText)" }

    /// The label of the same connection's other stream; it shares this one's endpoint texts
    /// (made once per connection, not once per direction).
    var reversed: StreamLabel {
        StreamLabel(connection: connection, direction: direction.reversed, source: destination, destination: source,
                    sourceText: destinationText, destinationText: sourceText)
    }
}
