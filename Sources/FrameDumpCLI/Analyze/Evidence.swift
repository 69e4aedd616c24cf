import PacketDecoding

/// A frame or TCP event that shows why a rule passed or failed: where it is in the capture
/// (connection, direction, stream offset, capture time) and what it shows.
struct Evidence {
    var connection: Int
    var direction: StreamDirection
    /// The frame's (or event's) offset in its direction's stream.
    var offset: UInt64
    var time: Timestamp
    /// What it shows, e.g. `ping 4 sent 3 missed pongs after the connection was dead`.
    var note: String
}
