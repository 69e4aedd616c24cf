import PacketDecoding

/// Where a frame or event decoded from a capture comes from: its connection, the direction's
/// endpoints, and the capture time of the packet that completed it.
///
/// The renderers put it in front of what the hex-dump input shows: JSON Lines get `conn`,
/// `src`, `dst` and `ts` right after `type`; text gets a line above the block. The constant part
/// is rendered once per direction (``init(connection:source:destination:)``), so labelling a
/// frame costs one copy of those bytes and the 30 bytes of the timestamp.
struct StreamOrigin {
    /// The connection number: 1, 2, 3… in order of first appearance in the capture.
    let connection: Int
    /// The sender of the direction's bytes.
    let source: Endpoint
    /// The receiver.
    let destination: Endpoint
    /// `,"conn":N,"src":"ip:port","dst":"ip:port"` — the JSON keys that never change.
    let jsonKeys: [UInt8]
    /// Capture time of the packet whose bytes completed the frame or caused the event.
    var timestamp = Timestamp(nanoseconds: 0)

    init(connection: Int, source: Endpoint, destination: Endpoint) {
        self.connection = connection
        self.source = source
        self.destination = destination
        var keys = Array(",\"conn\":".utf8)
        ByteFormatting.appendDecimal(UInt64(max(0, connection)), to: &keys)
        keys.append(contentsOf: ",\"src\":".utf8)
        JSONString.append(source.description, to: &keys)
        keys.append(contentsOf: ",\"dst\":".utf8)
        JSONString.append(destination.description, to: &keys)
        jsonKeys = keys
    }

    /// Appends `,"conn":…,"src":…,"dst":…,"ts":"…"`.
    func appendJSONKeys(to buffer: inout [UInt8]) {
        buffer.append(contentsOf: jsonKeys)
        buffer.append(contentsOf: ",\"ts\":\"".utf8)
        RFC3339Timestamp.append(timestamp, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    /// `#1 10.0.0.1:40000 → 10.0.0.2:7000`: the stream, as messages name it.
    var streamName: String { "#\(connection) \(source) → \(destination)" }

    /// `#1  10.0.0.1:40000 → 10.0.0.2:7000  2023-11-14T22:13:20.001000037Z`: the text line above
    /// a frame or event.
    var textLine: String {
        "#\(connection)  \(source) → \(destination)  \(RFC3339Timestamp.string(timestamp))"
    }
}
