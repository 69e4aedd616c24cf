import PacketDecoding

extension CaptureReassembly {
    /// What a PKTAP capture adds to the events: each connection's process, sent before it opens,
    /// and — with a ``CaptureReassembly/processSelector`` — the withholding of every event of the
    /// connections of other processes.
    struct ProcessAttribution {
        let selector: ProcessSelector?
        /// The connections left out, while the reassembler tracks them (so bounded as its table
        /// is): one leaves with its last event, `connectionForgotten`, or a `connectionClosed`
        /// that removes it at once (replaced, evicted, idle, end of capture).
        private var withheld = Set<Int>()
        /// Connections the selector left out.
        private(set) var notSelected = 0

        init(selector: ProcessSelector?) {
            self.selector = selector
        }

        /// Whether `connection`'s events are withheld.
        func withholds(_ connection: Int) -> Bool { !withheld.isEmpty && withheld.contains(connection) }

        /// Sends `event` on, after its connection's process when it opens one, unless the
        /// connection is withheld.
        ///
        /// - Parameters:
        ///   - process: The process of the packet that caused the event (only asked at an open).
        ///   - time: The capture time to send the events with.
        ///   - receive: Where the events go.
        mutating func deliver(_ event: ReassemblyEvent, process: () -> PacketProcess?, at time: Timestamp,
                              to receive: (CaptureEvent, Timestamp) throws -> Void) throws {
            if case .connectionOpened(let connection, _, _, _) = event {
                let named = process()
                if let selector, !selector.matches(named) {
                    withheld.insert(connection)
                    notSelected += 1
                    return
                }
                if let named { try receive(.connectionProcess(connection: connection, process: named), time) }
            } else if withholds(event.connection) {
                switch event {
                case .connectionForgotten, .connectionClosed(_, .replaced), .connectionClosed(_, .evicted),
                     .connectionClosed(_, .idleTimeout), .connectionClosed(_, .endOfCapture):
                    withheld.remove(event.connection)
                default:
                    break
                }
                return
            }
            try receive(.stream(event), time)
        }
    }
}
