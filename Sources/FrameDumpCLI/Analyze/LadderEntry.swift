import PacketDecoding

/// One arrow (or TCP event) of a connection's ladder diagram in the HTML report.
struct LadderEntry {
    enum Mark: String {
        case none
        /// A ping whose pong never came in time.
        case missed
        /// A pong after the pong timeout.
        case late
        /// A msg sent again after its ack timeout.
        case retransmission
        /// A msg sent again before its ack timeout.
        case premature
        /// A msg sent again after it was acknowledged.
        case duplicate
        /// Bytes the capture does not hold.
        case gap
        case fin
        case reset
    }

    var time: Timestamp
    var direction: StreamDirection
    /// `ping`, `msg 7`, `ack 7`, `cmd 9`, `FIN`, `RST`, `gap`.
    var label: String
    var mark: Mark
}
